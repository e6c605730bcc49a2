import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AutomationsService } from '../automations/contract.js';
import type { CalendarSubscriptions } from '../calendar/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { MailService } from '../mail/contract.js';
import type { EntityClock, Replanner } from '../planning/contract.js';
import { createTaskListCache } from './task-list-cache.js';
import { createTasksRepository } from './tasks.repository.js';
import { taskRoutes } from './tasks.routes.js';
import { createTasksService } from './tasks.service.js';
import { taskSessionRoutes } from './tasks-sessions.routes.js';
import { taskPageRoutes } from './tasks-pages.routes.js';
import { taskActionPageRoutes } from './task-actions-pages.routes.js';
import { automationPageRoutes } from './automation-pages.routes.js';
import { taskV2Routes } from './tasks.v2.routes.js';

export type { TasksService, TaskView } from './tasks.service.js';
export { createTaskEvents } from './tasks.events.js';
export { plannedTaskStore, taskCompletionStore, taskStatusStore } from './tasks.repository.js';

export interface TasksModuleDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  planning: Replanner;
  locations: Pick<LocationsService, 'updateIn'>;
  /** Task records and pages show the latest automation of a task; the hosted automation page starts and answers it. */
  automations: Pick<AutomationsService, 'forTask' | 'forTasks' | 'start' | 'answer' | 'cancelForManualStatus'>;
  /** The confirmation document of a complete automation is one of the entity's mail items (its signed link). */
  mail: Pick<MailService, 'list'>;
  /** Statehouse's public base URL: the task records' links (submit_url, hosted_url) start with it. */
  publicBaseUrl: string;
  /** Each entity's "now" (its test clock, docs/test-clocks.md); default: real time. */
  clock?: EntityClock;
}

/** Tasks: reading and acting on an entity's tasks (status, answers) and their API; the hosted task and automation pages. */
export function createTasksModule(deps: TasksModuleDeps) {
  const tasks = createTasksService(deps);
  const repository = createTasksRepository(deps.db);
  const { automations } = deps;
  /** Signed download links of the entity's documents, by id (one listing for a whole page). */
  const documentUrls = async (scope: Parameters<MailService['list']>[0]) =>
    new Map((await deps.mail.list(scope)).map((m) => [m.id, m.fileUrl]));
  return {
    tasks,
    jobs: [] as JobDefinition[],
    /** GET/PATCH /tasks…, /v2/tasks…, the session operations and the hosted task and automation pages they link to. */
    routes(http: {
      auth: AuthHooks;
      sessions: HostedSessionsService;
      publicOrigin: string;
      calendar: Pick<CalendarSubscriptions, 'current'>;
    }): FastifyPluginAsync {
      const cache = createTaskListCache(repository);
      const records = { catalog: deps.catalog, publicBaseUrl: deps.publicBaseUrl };
      return async (app) => {
        await app.register(taskRoutes({ tasks, records, auth: http.auth, cache }));
        await app.register(taskV2Routes({ tasks, records, auth: http.auth, cache }));
        await app.register(taskSessionRoutes({ tasks, automations, sessions: http.sessions, auth: http.auth }));
        await app.register(
          taskPageRoutes({
            sessions: http.sessions,
            tasks,
            catalog: deps.catalog,
            documentUrls,
            publicOrigin: http.publicOrigin,
            calendar: http.calendar,
          }),
        );
        await app.register(
          taskActionPageRoutes({ sessions: http.sessions, tasks, catalog: deps.catalog, publicOrigin: http.publicOrigin }),
        );
        await app.register(
          automationPageRoutes({
            sessions: http.sessions,
            tasks,
            automations,
            publicOrigin: http.publicOrigin,
            documentUrl: async (scope, id) => (await documentUrls(scope)).get(id) ?? null,
          }),
        );
      };
    },
  };
}

export type TasksModule = ReturnType<typeof createTasksModule>;
