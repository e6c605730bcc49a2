import type { Db } from '../../db/database.js';
import { nextHealth, type DisableSettings } from './endpoint-health.js';
import { openSecret, type SecretSealer } from './webhook-secrets.js';
import type { WebhooksRepository } from './webhooks.repository.js';
import type { EndpointsForDelivery } from './webhooks.types.js';

export interface EndpointsForDeliveryDeps {
  db: Db;
  vault: SecretSealer;
  settings: DisableSettings;
  repositoryFor: (db: Db) => WebhooksRepository;
}

/** What the delivery half reads and reports about endpoints (the contract in webhooks.types.ts). */
export function createEndpointsForDelivery(deps: EndpointsForDeliveryDeps): EndpointsForDelivery {
  const { repositoryFor } = deps;
  const asTarget = (row: { id: string; platform_id: string; url: string }) => ({ id: row.id, platformId: row.platform_id, url: row.url });

  return {
    async subscribedTo(trx, platformId, type) {
      return (await repositoryFor(trx).subscribedTo(platformId, type)).map(asTarget);
    },

    async target(db, endpointId) {
      const row = await repositoryFor(db).findEnabled(endpointId);
      return row ? asTarget(row) : null;
    },

    async signingSecrets(db, endpointId) {
      return (await repositoryFor(db).signingSecrets(endpointId)).map((row) => openSecret(deps.vault, row));
    },

    /** Under the endpoint's row lock, so outcomes of concurrent attempts each count. A deleted endpoint counts nothing. */
    async recordOutcome(trx, endpointId, outcome) {
      const repo = repositoryFor(trx);
      const row = await repo.findForUpdate(endpointId);
      if (!row) return;
      const next = nextHealth(row, outcome, deps.settings);
      await repo.updateHealth(endpointId, {
        consecutive_failures: next.consecutive_failures, failing_since: next.failing_since, last_success_at: next.last_success_at,
        status: next.status, disabled_at: next.disabled_at, disabled_reason: next.disabled_reason,
      });
    },
  };
}
