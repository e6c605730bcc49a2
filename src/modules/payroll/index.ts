import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { EventRecorder } from '../events/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { PayrollConnectionStore } from '../legal-entities/contract.js';
import type { Replanner } from '../planning/contract.js';
import { payrollRoutes } from './payroll.routes.js';
import { createPayrollService, type PayrollServiceDeps } from './payroll.service.js';
import { createPayrollSyncService, type PayrollSyncDeps } from './payroll-sync.service.js';
import { payrollSyncRoutes } from './payroll-sync.routes.js';

export interface PayrollModuleDeps {
  db: Db;
  sessions: Pick<HostedSessionsService, 'issueForCallback' | 'check' | 'endBrowserSession'>;
  entities: PayrollServiceDeps['entities'];
  /** The connection's columns of legal_entities: legal-entities' port (legal-entities.repository.ts payrollConnectionStore). */
  connections: PayrollConnectionStore;
  locations: PayrollSyncDeps['locations'];
  planning: Replanner;
  /** payroll.connected / payroll.disconnected (the sync's location and task events come with its re-planning). */
  events: EventRecorder;
  now: () => Date;
}

/** The payroll connection: POST/DELETE /v2/auth/payroll, its hosted consent page and the employee reports. */
export function createPayrollModule(deps: PayrollModuleDeps) {
  const payroll = createPayrollService({
    db: deps.db,
    connections: deps.connections,
    events: deps.events,
    sessions: deps.sessions,
    entities: deps.entities,
    now: deps.now,
  });
  const sync = createPayrollSyncService({
    db: deps.db,
    connections: deps.connections,
    locations: deps.locations,
    planning: deps.planning,
    now: deps.now,
  });
  const jobs: JobDefinition[] = [];
  return {
    payroll,
    sync,
    jobs,
    routes:
      (http: { auth: AuthHooks; publicOrigin: string }): FastifyPluginAsync =>
      async (app) => {
        await app.register(payrollRoutes({ payroll, sessions: deps.sessions, auth: http.auth, publicOrigin: http.publicOrigin }));
        await app.register(payrollSyncRoutes({ payroll, sync, auth: http.auth }));
      },
  };
}
