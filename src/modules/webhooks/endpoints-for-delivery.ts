import type { Db } from '../../db/database.js';
import { nextHealth, type DisableSettings } from './endpoint-health.js';
import { openSecret, type SecretSealer } from './webhook-secrets.js';
import type { WebhooksRepository } from './webhooks.repository.js';
import type { EndpointsForDelivery } from './contract.js';

/** How stale `last_success_at` may be while every attempt succeeds (its write is skipped until then). */
export const LAST_SUCCESS_RESOLUTION_MS = 60_000;

export interface EndpointsForDeliveryDeps {
  db: Db;
  vault: SecretSealer;
  settings: DisableSettings;
  repositoryFor: (db: Db) => WebhooksRepository;
}

/** What the delivery half reads and reports about endpoints (the module's contract). */
export function createEndpointsForDelivery(deps: EndpointsForDeliveryDeps): EndpointsForDelivery {
  const { repositoryFor } = deps;
  const asTarget = (row: { id: string; platform_id: string; url: string }) => ({ id: row.id, platformId: row.platform_id, url: row.url });

  return {
    async find(db, platformId, endpointId) {
      const row = await repositoryFor(db).findForPlatform(platformId, endpointId);
      return row && { id: row.id, status: row.status };
    },

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

    /**
     * A failure is counted under the endpoint's row lock, so concurrent failures each count. A success only resets
     * (see `markHealthy`): `last_success_at` moves at most once a minute while the endpoint is healthy. A deleted
     * endpoint counts nothing.
     */
    async recordOutcome(trx, endpointId, outcome) {
      const repo = repositoryFor(trx);
      if (outcome.ok) {
        await repo.markHealthy(endpointId, outcome.at, new Date(outcome.at.getTime() - LAST_SUCCESS_RESOLUTION_MS));
        return;
      }
      const row = await repo.findForUpdate(endpointId);
      if (!row) return;
      const next = nextHealth(row, outcome, deps.settings);
      await repo.updateHealth(endpointId, {
        consecutive_failures: next.consecutive_failures,
        failing_since: next.failing_since,
        last_success_at: next.last_success_at,
        status: next.status,
        disabled_at: next.disabled_at,
        disabled_reason: next.disabled_reason,
      });
    },
  };
}
