import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { CallbackOrigins } from '../platforms/contract.js';
import type { Replanner } from '../planning/contract.js';
import { legalEntityRoutes } from './legal-entities.routes.js';
import { signupRoutes } from './signup.routes.js';
import { signupPageRoutes } from './signup-pages.routes.js';
import { createSignupService } from './signup.service.js';

export { payrollConnectionStore, plannedEntityStore } from './legal-entities.repository.js';

export interface LegalEntitiesModuleDeps {
  db: Db;
  sessions: Pick<HostedSessionsService, 'issue' | 'lastCallbackUrl'>;
  signupTtlSeconds: number;
  planning: Replanner;
  callbackOrigins?: Pick<CallbackOrigins, 'check'>;
  /** The app's clock (the hosted signup refuses a formation date after today). */
  now?: () => Date;
}

/** Legal entities: signup (API and the hosted steps' service) and the entity reads. */
export function createLegalEntitiesModule(deps: LegalEntitiesModuleDeps) {
  const signup = createSignupService(deps);
  const jobs: JobDefinition[] = [];
  return {
    signup,
    jobs,
    /** POST /accounts/signup…, /v2/signup…; GET /legal_entity, /v2/legal_entity; the hosted signup pages. */
    routes(http: { auth: AuthHooks; sessions: HostedSessionsService; publicOrigin: string }): FastifyPluginAsync {
      return async (app) => {
        await app.register(signupRoutes({ signup, auth: http.auth }));
        await app.register(legalEntityRoutes({ signup, auth: http.auth }));
        await app.register(signupPageRoutes({ sessions: http.sessions, signup, publicOrigin: http.publicOrigin, now: deps.now }));
      };
    },
  };
}

export type LegalEntitiesModule = ReturnType<typeof createLegalEntitiesModule>;
