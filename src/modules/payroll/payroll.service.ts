import type { Db } from '../../db/database.js';
import type { AccessScope, PlatformPrincipal } from '../../http/principals.js';
import type { EventRecorder } from '../events/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { PayrollConnectionStore } from '../legal-entities/contract.js';

export interface PayrollServiceDeps {
  /** Opens the transactions of connecting and disconnecting; the connection's queries go through `connections`. */
  db: Db;
  /** The connection's columns of legal_entities, which the legal-entities module owns (its port, given by app.ts). */
  connections: PayrollConnectionStore;
  /** payroll.connected / payroll.disconnected, in the transaction of the change. */
  events: EventRecorder;
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  /** The platform's legal entity, a 404 for another platform's (legal-entities' signup service). */
  entities: { get(platform: Pick<PlatformPrincipal, 'platformId'>, legalEntityId: string): Promise<{ id: string }> };
  now: () => Date;
}

/** Whether payroll is connected, and when it last reported (null: never). */
export interface PayrollConnection {
  legalEntityId: string;
  connected: boolean;
  lastPayrollUpdate: Date | null;
}

/** The PayrollConnection shape of DELETE /v2/auth/payroll (and of the payroll events). */
export const toPayrollConnection = (connection: PayrollConnection) => ({
  legal_entity_id: connection.legalEntityId,
  connected: connection.connected,
  last_payroll_update: connection.lastPayrollUpdate?.toISOString() ?? null,
});

/**
 * Connecting payroll: the platform (itself the payroll system) asks the business owner, on a hosted page,
 * to let it keep the employee configuration in sync. Once connected, `has_employees` and `employee_count`
 * belong to payroll (the locations rules refuse API changes to them; payroll-sync.service.ts sets them) until
 * the platform disconnects it.
 */
export function createPayrollService(deps: PayrollServiceDeps) {
  /** One transaction: the change and, when it changed something, its event (a repeated call records nothing). */
  const change = (scope: AccessScope, to: 'connect' | 'disconnect'): Promise<PayrollConnection> =>
    deps.db.transaction().execute(async (trx) => {
      const changed =
        to === 'connect'
          ? await deps.connections.markConnected(trx, scope.legalEntityId, deps.now())
          : await deps.connections.markDisconnected(trx, scope.legalEntityId, deps.now());
      const row = await deps.connections.connection(trx, scope.legalEntityId);
      const connection = {
        legalEntityId: scope.legalEntityId,
        connected: row.payroll_connected_at !== null,
        lastPayrollUpdate: row.last_payroll_update,
      };
      if (changed) {
        await deps.events.record(trx, {
          type: to === 'connect' ? 'payroll.connected' : 'payroll.disconnected',
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          data: { object: toPayrollConnection(connection) },
        });
      }
      return connection;
    });

  return {
    /** POST /v2/auth/payroll: the link to the consent page. */
    async setupSession(platform: PlatformPrincipal, legalEntityId: string, callbackUrl: string): Promise<{ url: string }> {
      const entity = await deps.entities.get(platform, legalEntityId);
      const { url } = await deps.sessions.issueForCallback({
        platformId: platform.platformId,
        legalEntityId: entity.id,
        purpose: 'payroll',
        callbackUrl,
        callbackField: 'authorization_callback_url',
      });
      return { url };
    },

    isConnected: async (legalEntityId: string) => (await deps.connections.connection(deps.db, legalEntityId)).payroll_connected_at !== null,

    /** POST /hosted/payroll: the owner consented. */
    connect: (scope: AccessScope) => change(scope, 'connect'),

    /** DELETE /v2/auth/payroll: employee settings return to manual edits; disconnecting twice is one disconnect. */
    disconnect: (scope: AccessScope) => change(scope, 'disconnect'),
  };
}

export type PayrollService = ReturnType<typeof createPayrollService>;
