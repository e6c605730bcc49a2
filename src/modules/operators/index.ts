import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import type { PlanningExplainer } from '../planning/contract.js';
import type { PlatformBrandsService } from '../platforms/platform-brands.service.js';
import type { OperatorHook } from './operator-auth.js';
import { operatorRoutes } from './operator.routes.js';
import { auditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';
import { backOfficeSessionRoutes } from './back-office.pages.routes.js';
import { backOfficeWorkRoutes } from './back-office-work.pages.routes.js';
import type { OperatorAutomations } from './back-office-views.js';
import { operatorAutomationRoutes } from './operator-automations.routes.js';
import { operatorPlatformRoutes } from './operator-platforms.routes.js';
import { createOperatorSessionsRepository } from './operator-sessions.repository.js';
import { createOperatorSessionsService } from './operator-sessions.service.js';
import { createOperatorsService } from './operators.service.js';

export { registerOperatorAuth, type OperatorHook } from './operator-auth.js';
export type { OperatorsService, OperatorPrincipal } from './operators.service.js';
export type { AuditService, AuditEvent, AuditEventView } from './audit.service.js';
export type { OperatorSessionsService } from './operator-sessions.service.js';
export { OPERATOR_LINK_PATH } from './operator-sessions.service.js';

/** What the operator routes need: the operator hook, the services whose operations they expose, and the back office's settings. */
export interface OperatorsRoutesDeps {
  operatorAuth: OperatorHook;
  accounts: AccountsService;
  connections: Pick<ConnectionsService, 'listWithEvents'>;
  automations: OperatorAutomations;
  catalog: Pick<Catalog, 'regions' | 'requirement'>;
  planning: PlanningExplainer;
  /** Platforms' branding of the hosted pages (platforms module). */
  brands: PlatformBrandsService;
  publicOrigin: string;
  /** Secure cookies (and the `__Host-` prefix) whenever links are https, and always in production. */
  secureCookies: boolean;
  /** The largest confirmation PDF (MAIL_MAX_BYTES: it becomes a mail item). */
  maxUploadBytes: number;
}

export interface OperatorsModuleDeps {
  db: Db;
  /** Where the one-time sign-in links point (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  now?: () => Date;
  /** The instance's CSRF key; only the back office's forms need it (not the CLI). */
  csrfKey?: () => Promise<Buffer>;
}

/**
 * Operator keys (CLI), the operator audit trail, the operator API (/operator/v1) over the accounts,
 * connections and automations services, and the back office (/operator): its sessions and pages.
 */
export function createOperatorsModule(deps: OperatorsModuleDeps) {
  const now = deps.now ?? (() => new Date());
  const operators = createOperatorsService(deps.db);
  const audit = createAuditService({ db: deps.db });
  const sessions = createOperatorSessionsService({
    repository: createOperatorSessionsRepository(deps.db),
    operators,
    audit,
    publicBaseUrl: deps.publicBaseUrl,
    now,
    csrfKey: deps.csrfKey ?? (() => Promise.reject(new Error('no CSRF key given to the operators module'))),
  });
  return {
    operators,
    audit,
    sessions,
    jobs: [] as JobDefinition[],
    routes: (http: OperatorsRoutesDeps) => async (app: FastifyInstance) => {
      const backOffice = { sessions, publicOrigin: http.publicOrigin, secureCookies: http.secureCookies };
      await app.register(operatorRoutes({ ...http, operators, audit }));
      await app.register(auditRoutes({ audit, operatorAuth: http.operatorAuth }));
      await app.register(operatorPlatformRoutes({ operatorAuth: http.operatorAuth, brands: http.brands, audit }));
      await app.register(backOfficeSessionRoutes(backOffice));
      await app.register(operatorAutomationRoutes({ ...http, operators }));
      await app.register(backOfficeWorkRoutes({ ...http, ...backOffice, operators, now }));
    },
  };
}
