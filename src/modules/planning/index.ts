import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../engine/dates.js';
import { noJobQueue, type JobSender } from '../../jobs/queue.js';
import type { TaskEvents } from '../events/contract.js';
import type { EntityClock, PlannedEntityStore, PlannedTaskStore } from './contract.js';
import { planningJobs, rollForwardAll, rollForwardDue } from './planning.jobs.js';
import { createPlanningService, type PlanningDeps } from './planning.service.js';

export type { PlanningService, CatalogReleaseSummary } from './planning.service.js';
/** Handbook's type until its call sites move to `planning.change` (other modules use contract.ts Replanner). */
export { rollForwardAll, rollForwardDue, findDueRanges, BATCH_SIZE, ROLL_FORWARD_JOB, ROLL_FORWARD_BATCH_JOB } from './planning.jobs.js';

export interface PlanningModuleDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  /** task.* events of every re-planning (the tasks module's createTaskEvents). */
  taskEvents: TaskEvents;
  /** The tasks module's implementation of planning's port over the tasks table (tasks.repository.ts plannedTaskStore). */
  plannedTasks: PlannedTaskStore;
  /** Each entity's "now" (its test clock, docs/test-clocks.md); default: real time. */
  clock?: EntityClock;
  /** The legal-entities module's implementation of planning's port over its columns of legal_entities (plannedEntityStore). */
  plannedEntities: PlannedEntityStore;
  /** Where the daily job puts its batch jobs (the server's queue; none for the CLI and the bench). */
  jobs?: JobSender;
  /** Tests only: another catalog version (see PlanningDeps). */
  catalogVersion?: string;
  /** Tests only: the release the catalog is (see PlanningDeps). */
  catalogRelease?: PlanningDeps['catalogRelease'];
}

/** Planning: "an entity's facts changed → plan its tasks", and the daily roll-forward. No routes of its own. */
export function createPlanningModule(deps: PlanningModuleDeps) {
  const planning = createPlanningService(deps);
  return {
    planning,
    /** Every entity, now (`statehouse tasks roll-forward`). */
    rollForward: () => rollForwardAll(planning),
    /** The daily job's work in this process alone: the entities due today. */
    rollForwardDue: () => rollForwardDue(planning),
    jobs: planningJobs(planning, deps.jobs ?? noJobQueue, () => toIso(deps.now())),
  };
}

export type PlanningModule = ReturnType<typeof createPlanningModule>;
