import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { HostedPurpose } from '../../db/schema.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { EventRecorder } from '../events/contract.js';
import { requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { accountsPageRoutes } from './accounts-pages.routes.js';
import { createAccountsRepository } from './accounts.repository.js';
import { accountRoutes } from './accounts.routes.js';
import { createAccountsService } from './accounts.service.js';
import { loginRevealRoutes } from './login-reveal.routes.js';
import type { Vault } from '../../crypto/vault.js';

export interface AccountsModuleDeps {
  db: Db;
  catalog: Catalog;
  vault: Vault;
  events: EventRecorder;
}

/** What the accounts routes need from the HTTP application. */
export interface AccountsRoutesDeps {
  auth: AuthHooks;
  sessions: HostedSessionsService;
  publicOrigin: string;
  now: () => Date;
}

/** Agency accounts and logins: listings, the reveal page and its audit trail, the management page. */
export function createAccountsModule(deps: AccountsModuleDeps) {
  const accounts = createAccountsService({
    repo: createAccountsRepository(deps.db),
    catalog: deps.catalog,
    vault: deps.vault,
    events: deps.events,
  });
  return {
    accounts,
    jobs: [] as JobDefinition[],
    /** GET /accounts…, /v2/accounts…, the login reveal operations and pages, the accounts management page. */
    routes: (http: AccountsRoutesDeps) => async (app: FastifyInstance) => {
      const hostedPage = (purposes: HostedPurpose[]) =>
        requireHostedSession({ sessions: http.sessions, publicOrigin: http.publicOrigin }, purposes);
      const pages = { ...http, accounts, hostedPage, catalog: deps.catalog };
      await app.register(accountRoutes({ accounts, auth: http.auth }));
      await app.register(loginRevealRoutes(pages));
      await app.register(accountsPageRoutes(pages));
    },
  };
}
