import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import type { LocationsService } from '../locations/locations.service.js';
import type { Replanner } from '../planning/index.js';
import { createAutomationService, type TaskAutomations } from './automation.service.js';
import { createTaskListCache } from './task-list-cache.js';
import { createTasksRepository } from './tasks.repository.js';
import { taskRoutes } from './tasks.routes.js';
import { createTasksService } from './tasks.service.js';
import { taskSessionRoutes } from './tasks.sessions.routes.js';
import { taskPageRoutes } from './tasks.pages.routes.js';
import { automationPageRoutes } from './automation.pages.routes.js';
import { taskV2Routes } from './tasks.v2.routes.js';

export type { TasksService, TaskView } from './tasks.service.js';
export type { AutomationService, TaskAutomations } from './automation.service.js';

export interface TasksModuleDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  planning: Replanner;
  locations: Pick<LocationsService, 'updateIn'>;
  /** The automations capability: task views carry each task's latest automation; the hosted form starts one. */
  automations: TaskAutomations;
}

/** Tasks: reading and acting on an entity's tasks (status, answers, automation) and their API. */
export function createTasksModule(deps: TasksModuleDeps) {
  const tasks = createTasksService(deps);
  const repository = createTasksRepository(deps.db);
  const automation = createAutomationService({ automations: deps.automations, tasks });
  return {
    tasks,
    automation,
    jobs: [] as JobDefinition[],
    /** GET/PATCH /tasks…, /v2/tasks…, the session operations and the hosted task and automation pages they link to. */
    routes(http: { auth: AuthHooks; sessions: HostedSessionsService; publicOrigin: string }): FastifyPluginAsync {
      const cache = createTaskListCache(repository);
      return async (app) => {
        await app.register(taskRoutes({ tasks, catalog: deps.catalog, auth: http.auth, cache }));
        await app.register(taskV2Routes({ tasks, catalog: deps.catalog, auth: http.auth, cache }));
        await app.register(taskSessionRoutes({ tasks, automation, sessions: http.sessions, auth: http.auth }));
        await app.register(taskPageRoutes({ sessions: http.sessions, tasks, catalog: deps.catalog, publicOrigin: http.publicOrigin }));
        await app.register(automationPageRoutes({ sessions: http.sessions, automation, publicOrigin: http.publicOrigin }));
      };
    },
  };
}

export type TasksModule = ReturnType<typeof createTasksModule>;
