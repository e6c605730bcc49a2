import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { TaskEvents } from '../events/index.js';
import { planningJobs, rollForwardAll } from './planning.jobs.js';
import { createPlanningService } from './planning.service.js';

export type { PlanningService, Replanner, CreatedTask, ReplanCause } from './planning.service.js';
export { rollForwardAll, BATCH_SIZE } from './planning.jobs.js';

export interface PlanningModuleDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  /** task.* events of every re-planning (the tasks module's createTaskEvents). */
  taskEvents: TaskEvents;
}

/** Planning: "an entity's facts changed → plan its tasks", and the daily roll-forward. No routes of its own. */
export function createPlanningModule(deps: PlanningModuleDeps) {
  const planning = createPlanningService(deps);
  return {
    planning,
    /** Every entity, now (`statehouse tasks roll-forward`, and the daily job). */
    rollForward: () => rollForwardAll(planning),
    jobs: planningJobs(planning),
  };
}

export type PlanningModule = ReturnType<typeof createPlanningModule>;
