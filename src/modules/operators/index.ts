import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { ConnectionsService } from '../connections/connections.service.js';
import type { OperatorHook } from './operator-auth.js';
import { operatorRoutes } from './operator.routes.js';
import { createAuditService } from './audit.service.js';
import { createOperatorsService } from './operators.service.js';

export { registerOperatorAuth, type OperatorHook } from './operator-auth.js';
export type { OperatorsService, OperatorPrincipal } from './operators.service.js';
export type { AuditService, AuditEvent, AuditEventView } from './audit.service.js';

/** What the operator routes need: the operator hook and the services whose operations they expose. */
export interface OperatorsRoutesDeps {
  operatorAuth: OperatorHook;
  accounts: AccountsService;
  connections: Pick<ConnectionsService, 'listWithEvents'>;
}

/** Operator keys (CLI), the operator audit trail and the operator API (/operator/v1) over the accounts and connections services. */
export function createOperatorsModule(deps: { db: Db }) {
  const operators = createOperatorsService(deps.db);
  const audit = createAuditService({ db: deps.db });
  return {
    operators,
    audit,
    jobs: [] as JobDefinition[],
    routes: (http: OperatorsRoutesDeps) => operatorRoutes({ ...http, operators }),
  };
}
