import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import { createPayrollRepository } from './payroll.repository.js';
import { payrollRoutes } from './payroll.routes.js';
import { createPayrollService, type PayrollServiceDeps } from './payroll.service.js';

export interface PayrollModuleDeps {
  db: Db;
  sessions: Pick<HostedSessionsService, 'issueForCallback' | 'check' | 'endBrowserSession'>;
  entities: PayrollServiceDeps['entities'];
  now: () => Date;
}

/** The payroll connection: POST /v2/auth/payroll and its hosted consent page. */
export function createPayrollModule(deps: PayrollModuleDeps) {
  const payroll = createPayrollService({ repository: createPayrollRepository(deps.db), sessions: deps.sessions, entities: deps.entities, now: deps.now });
  const jobs: JobDefinition[] = [];
  return {
    payroll,
    jobs,
    routes: (http: { auth: AuthHooks; publicOrigin: string }): FastifyPluginAsync =>
      payrollRoutes({ payroll, sessions: deps.sessions, auth: http.auth, publicOrigin: http.publicOrigin }),
  };
}
