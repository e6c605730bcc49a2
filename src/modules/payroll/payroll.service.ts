import type { PlatformPrincipal } from '../../http/principals.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import type { PayrollRepository } from './payroll.repository.js';

export interface PayrollServiceDeps {
  repository: PayrollRepository;
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  /** The platform's legal entity, a 404 for another platform's (legal-entities' signup service). */
  entities: { get(platform: Pick<PlatformPrincipal, 'platformId'>, legalEntityId: string): Promise<{ id: string }> };
  now: () => Date;
}

/**
 * Connecting payroll: the platform (itself the payroll system) asks the business owner, on a hosted page,
 * to let it keep the employee configuration in sync. Once connected, `has_employees` and `employee_count`
 * belong to payroll (the locations rules refuse API changes to them).
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

    isConnected: async (legalEntityId: string) => (await deps.repository.connectedAt(legalEntityId)) !== null,

    /** POST /hosted/payroll: the owner consented. */
    connect: (legalEntityId: string) => deps.repository.markConnected(legalEntityId, deps.now()),
  };
}

export type PayrollService = ReturnType<typeof createPayrollService>;
