import type { FastifyPluginAsync } from 'fastify';
import { loadHandbookCatalog, type HandbookCatalog } from '../../catalog/handbook.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { EventRecorder } from '../events/index.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { LocationsService } from '../locations/index.js';
import type { Replanner } from '../planning/index.js';
import { createHandbookLinks } from './handbook-links.js';
import { handbookPageRoutes } from './handbook.pages.routes.js';
import { handbookRoutes } from './handbook.routes.js';
import { createHandbookService } from './handbook.service.js';

export { HANDBOOK_ACK_PATH, HANDBOOK_FILE_PATH } from './handbook-links.js';
export { HANDBOOK_REQUIREMENT_ID, type HandbookService } from './handbook.service.js';

export interface HandbookModuleDeps {
  db: Db;
  /** The policy catalog (catalog/handbook); loaded from the package when not given. */
  catalog?: HandbookCatalog;
  locations: Pick<LocationsService, 'list' | 'updateMany'>;
  planning: Replanner;
  events: EventRecorder;
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
  const handbook = createHandbookService({
    db: deps.db,
    catalog,
    locations: deps.locations,
    planning: deps.planning,
    events: deps.events,
    links,
    now: deps.now,
  });
  return {
    handbook,
    catalog,
    jobs: [] as JobDefinition[],
    /** GET /v2/handbook, POST /v2/handbook/automate/sessions and /v2/handbook/session; the builder, PDF and acknowledgement pages. */
    routes(http: {
      auth: AuthHooks;
      sessions: Pick<HostedSessionsService, 'check' | 'issueForCallback'>;
      publicOrigin: string;
    }): FastifyPluginAsync {
      return async (app) => {
        await app.register(handbookRoutes({ handbook, sessions: http.sessions, auth: http.auth }));
        await app.register(handbookPageRoutes({ handbook, catalog, sessions: http.sessions, publicOrigin: http.publicOrigin }));
      };
    },
  };
}
