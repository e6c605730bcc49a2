import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { HostedPurpose } from '../../db/schema.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobSender } from '../../jobs/queue.js';
import type { AccountsConnectionPort } from '../accounts/contract.js';
import type { AccountConnectors } from '../agencies/contract.js';
import type { EventRecorder } from '../events/contract.js';
import { requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { connectPageRoutes } from './connections-pages.routes.js';
import { createConnectionEvents } from './connections.events.js';
import { createConnectionViews } from './connections.views.js';
import { connectionRoutes } from './connections.routes.js';
import { createConnectionsService } from './connections.service.js';

export interface ConnectionsModuleDeps {
  db: Db;
  accounts: AccountsConnectionPort;
  /** connection.status_changed (and agency_account.updated on `connected`), in each move's transaction. */
  events: EventRecorder;
  sessions: HostedSessionsService;
  jobs: JobSender;
  catalog: Catalog;
  /** The agencies' account connectors (agencies registry). */
  connectors: AccountConnectors;
  /** Pause before each connector step (config.sandboxConnectorStepMs). */
  stepMs: number;
  hostedSessionTtlSeconds: number;
  now: () => Date;
}

/** Account connections: the connect operation, the hosted connect page and the connector's jobs. */
export function createConnectionsModule(deps: ConnectionsModuleDeps) {
  const announce = createConnectionEvents({ events: deps.events, views: createConnectionViews(deps) });
  const connections = createConnectionsService({ ...deps, announce });
  return {
    connections,
    jobs: connections.jobDefinitions(),
    /** POST /accounts/connect, GET and cancel /accounts/connections/{id}, the hosted connect page. */
    routes: (http: { auth: AuthHooks; publicOrigin: string }) => async (app: FastifyInstance) => {
      await app.register(connectionRoutes({ connections, auth: http.auth }));
      const hostedPage = (purposes: HostedPurpose[]) =>
        requireHostedSession({ sessions: deps.sessions, publicOrigin: http.publicOrigin }, purposes);
      await app.register(connectPageRoutes({ hostedPage, connections }));
    },
  };
}
