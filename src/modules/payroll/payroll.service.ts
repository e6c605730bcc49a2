import type { AccessScope, PlatformPrincipal } from '../../http/principals.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import type { PayrollRepository } from './payroll.repository.js';

export interface PayrollServiceDeps {
  repository: PayrollRepository;
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

/**
 * Connecting payroll: the platform (itself the payroll system) asks the business owner, on a hosted page,
 * to let it keep the employee configuration in sync. Once connected, `has_employees` and `employee_count`
 * belong to payroll (the locations rules refuse API changes to them; payroll-sync.service.ts sets them) until
 * the platform disconnects it.
 */
export function createPayrollService(deps: PayrollServiceDeps) {
  return {
    /** POST /v2/auth/payroll: the link to the consent page. */
    async setupSession(platform: PlatformPrincipal, legalEntityId: string, callbackUrl: string): Promise<{ url: string }> {
      const entity = await deps.entities.get(platform, legalEntityId);
      const { url } = await deps.sessions.issueForCallback({
        platformId: platform.platformId, legalEntityId: entity.id, purpose: 'payroll', callbackUrl, callbackField: 'authorization_callback_url',
      });
      return { url };
    },

    isConnected: async (legalEntityId: string) => (await deps.repository.connection(legalEntityId)).payroll_connected_at !== null,

    /** POST /hosted/payroll: the owner consented. */
    connect: (legalEntityId: string) => deps.repository.markConnected(legalEntityId, deps.now()),

    /** DELETE /v2/auth/payroll: employee settings return to manual edits; disconnecting twice is one disconnect. */
    async disconnect(scope: AccessScope): Promise<PayrollConnection> {
      await deps.repository.markDisconnected(scope.legalEntityId, deps.now());
      const row = await deps.repository.connection(scope.legalEntityId);
      return { legalEntityId: scope.legalEntityId, connected: row.payroll_connected_at !== null, lastPayrollUpdate: row.last_payroll_update };
    },
  };
}

export type PayrollService = ReturnType<typeof createPayrollService>;
