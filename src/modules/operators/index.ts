import type { FastifyInstance } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AccountsService } from '../accounts/contract.js';
import type { ConnectionsService } from '../connections/contract.js';
import type { OperatorHook } from './contract.js';
import type { PlatformBrandsService } from '../platforms/contract.js';
import type { PlanningExplainer } from '../planning/contract.js';
import { operatorAccountRoutes } from './operator-accounts.routes.js';
import { operatorConnectionRoutes } from './operator-connections.routes.js';
import { auditRoutes } from './audit.routes.js';
import type { AuditService } from '../audit/contract.js';
import { backOfficeSessionRoutes } from './back-office-pages.routes.js';
import { backOfficeWorkRoutes } from './back-office-work-pages.routes.js';
import type { OperatorAutomations } from './back-office.views.js';
import { operatorAutomationActionRoutes } from './operator-automation-actions.routes.js';
import { operatorAutomationRoutes } from './operator-automations.routes.js';
import { operatorPlatformRoutes } from './operator-platforms.routes.js';
import { createOperatorSessionsRepository } from './operator-sessions.repository.js';
import { createOperatorSessionsService } from './operator-sessions.service.js';
import { createOperatorsService } from './operators.service.js';

/** Registers the request's operator and returns the hook operator routes (every module's) run first. */
export { registerOperatorAuth } from './operator-auth.js';

/** The services whose operations the operator API and the back office expose. */
export interface OperatorOperations {
  accounts: AccountsService;
  connections: Pick<ConnectionsService, 'listWithEvents'>;
  automations: OperatorAutomations;
  catalog: Pick<Catalog, 'regions' | 'requirement'>;
  planning: PlanningExplainer;
  /** Platforms' branding of the hosted pages (platforms module). */
  brands: PlatformBrandsService;
  /** The largest confirmation PDF (MAIL_MAX_BYTES: it becomes a mail item). */
  maxUploadBytes: number;
}

/** What serving needs beyond the module's own deps: the operator hook and the links' origin. */
export interface OperatorsRoutesDeps {
  operatorAuth: OperatorHook;
  publicOrigin: string;
  /** Secure cookies (and the `__Host-` prefix) whenever links are https, and always in production. */
  secureCookies: boolean;
}

export interface OperatorsModuleDeps {
  db: Db;
  /** Where the one-time sign-in links point (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  now?: () => Date;
  /** The instance's CSRF key; only the back office's forms need it (not the CLI). */
  csrfKey?: () => Promise<Buffer>;
  /** The operator audit trail (audit module): sign-ins and every operator action. */
  audit: AuditService;
  /** What the operator API and the back office act on; the CLI, which serves no routes, gives none. */
  operations?: OperatorOperations;
}

/**
 * Operator keys (CLI), the operator audit trail, the operator API (/operator/v1) over the accounts,
 * connections and automations services, and the back office (/operator): its sessions and pages.
 */
export function createOperatorsModule(deps: OperatorsModuleDeps) {
  const now = deps.now ?? (() => new Date());
  const operators = createOperatorsService(deps.db);
  const { audit } = deps;
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
    routes: (serving: OperatorsRoutesDeps) => async (app: FastifyInstance) => {
      if (!deps.operations) throw new Error('the operators module serves routes only when given its operations');
      const http = { ...deps.operations, ...serving };
      const backOffice = { sessions, publicOrigin: http.publicOrigin, secureCookies: http.secureCookies };
      await app.register(operatorAccountRoutes({ ...http, audit }));
      await app.register(operatorConnectionRoutes({ ...http, operators }));
      await app.register(auditRoutes({ audit, operatorAuth: http.operatorAuth }));
      await app.register(operatorPlatformRoutes({ operatorAuth: http.operatorAuth, brands: http.brands, audit }));
      await app.register(backOfficeSessionRoutes(backOffice));
      await app.register(operatorAutomationRoutes(http));
      await app.register(operatorAutomationActionRoutes({ ...http, operators }));
      await app.register(backOfficeWorkRoutes({ ...http, ...backOffice, operators, now }));
    },
  };
}
