import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { createDestinationGuard } from './destination-guard.js';
import { createEndpointsForDelivery } from './endpoints-for-delivery.js';
import type { SecretSealer } from './webhook-secrets.js';
import { createWebhooksRepository } from './webhooks.repository.js';

export { createDestinationGuard, DestinationRefusedError, forbiddenAddressReason } from './destination-guard.js';
export type { DeliveryTarget, DestinationGuard, EndpointsForDelivery } from './webhooks.types.js';

export interface WebhooksModuleDeps {
  db: Db;
  vault: SecretSealer;
  settings: Pick<Config['webhooks'], 'allowPrivate' | 'disableAfterHours' | 'disableAfterFailures'>;
}

/** Webhook endpoints: management, signing secrets, the destination guard; what deliveries read of them (docs/webhooks.md). */
export function createWebhooksModule(deps: WebhooksModuleDeps) {
  const destinationGuard = createDestinationGuard({ allowPrivate: deps.settings.allowPrivate });
  const endpointsForDelivery = createEndpointsForDelivery({
    db: deps.db, vault: deps.vault, settings: deps.settings, repositoryFor: createWebhooksRepository,
  });
  return { destinationGuard, endpointsForDelivery, jobs: [] as JobDefinition[] };
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
