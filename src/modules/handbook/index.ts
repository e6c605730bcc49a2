import type { FastifyPluginAsync } from 'fastify';
import { loadHandbookCatalog, type HandbookCatalog } from '../../catalog/handbook.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { EventRecorder } from '../events/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import type { TaskCompletionStore } from '../tasks/contract.js';
import { handbookAckPageRoutes } from './handbook-ack-pages.routes.js';
import { createHandbookAcknowledgementsService } from './handbook-acknowledgements.service.js';
import { handbookBuilderPageRoutes } from './handbook-builder-pages.routes.js';
import { createHandbookDraftsService } from './handbook-drafts.service.js';
import { createHandbookEmployeesService } from './handbook-employees.service.js';
import { handbookEmployeesPageRoutes } from './handbook-employees-pages.routes.js';
import { createHandbookLinks } from './handbook-links.js';
import { createHandbookOverviewService } from './handbook-overview.service.js';
import { handbookPublishPageRoutes } from './handbook-publish-pages.routes.js';
import { createHandbookPublishingService } from './handbook-publishing.service.js';
import { handbookRoutes } from './handbook.routes.js';

export interface HandbookModuleDeps {
  db: Db;
  /** The policy catalog (catalog/handbook); loaded from the package when not given. */
  catalog?: HandbookCatalog;
  locations: Pick<LocationsService, 'list' | 'updateMany'>;
  planning: Replanner;
  events: EventRecorder;
  /** The tasks module's port: publishing completes the entity's handbook tasks (tasks.repository.ts taskCompletionStore). */
  tasks: TaskCompletionStore;
  /** The instance's file-link key (signs the PDF links and the employees' acknowledgement tokens). */
  linkKey: () => Promise<Buffer>;
  publicBaseUrl: string;
  /** How long a PDF download link works (FILE_URL_TTL_SECONDS, like mail's file links). */
  fileUrlTtlSeconds: number;
  now: () => Date;
}

/** The employee handbook (docs/handbook.md): the builder, publishing, acknowledgements and GET /v2/handbook. */
export function createHandbookModule(deps: HandbookModuleDeps) {
  const catalog = deps.catalog ?? loadHandbookCatalog();
  const links = createHandbookLinks({
    key: deps.linkKey,
    publicBaseUrl: deps.publicBaseUrl,
    ttlSeconds: deps.fileUrlTtlSeconds,
    now: deps.now,
  });
  const shared = { ...deps, catalog, links };
  const overview = createHandbookOverviewService(shared);
  const drafts = createHandbookDraftsService(shared);
  const employees = createHandbookEmployeesService(shared);
  const publishing = createHandbookPublishingService(shared);
  const acknowledgements = createHandbookAcknowledgementsService(shared);
  return {
    overview,
    drafts,
    employees,
    publishing,
    acknowledgements,
    catalog,
    jobs: [] as JobDefinition[],
    /** GET /v2/handbook, POST /v2/handbook/automate/sessions and /v2/handbook/session; the builder, PDF and acknowledgement pages. */
    routes(http: {
      auth: AuthHooks;
      sessions: Pick<HostedSessionsService, 'check' | 'issueForCallback'>;
      publicOrigin: string;
    }): FastifyPluginAsync {
      return async (app) => {
        const { sessions, publicOrigin } = http;
        await app.register(handbookRoutes({ overview, sessions, auth: http.auth }));
        await app.register(handbookBuilderPageRoutes({ overview, drafts, catalog, sessions, publicOrigin }));
        await app.register(handbookEmployeesPageRoutes({ overview, employees, sessions, publicOrigin }));
        await app.register(handbookPublishPageRoutes({ overview, publishing, sessions, publicOrigin }));
        await app.register(handbookAckPageRoutes({ acknowledgements, publicOrigin }));
      };
    },
  };
}

export type HandbookModule = ReturnType<typeof createHandbookModule>;
