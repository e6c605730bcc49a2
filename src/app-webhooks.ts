// The webhooks' wiring (for app.ts): endpoints with their secrets and destination guard, and the deliveries that
// read them through `endpointsForDelivery` and the event log through the events module's feed.
import type { Config } from './config.js';
import type { Vault } from './crypto/vault.js';
import type { Db } from './db/database.js';
import type { JobSender } from './jobs/queue.js';
import type { EventFeed } from './modules/events/contract.js';
import { createWebhookDeliveriesModule } from './modules/webhook-deliveries/index.js';
import { createWebhooksModule } from './modules/webhooks/index.js';

export interface WebhooksWiring {
  config: Config;
  db: Db;
  jobs: JobSender;
  vault: Vault;
  feed: EventFeed;
  now: () => Date;
}

export function createWebhooks({ config, db, jobs, vault, feed, now }: WebhooksWiring) {
  const endpoints = createWebhooksModule({ db, vault, settings: config.webhooks, production: config.environment === 'production', now });
  const deliveries = createWebhookDeliveriesModule({
    db,
    jobs,
    endpoints: endpoints.endpointsForDelivery,
    events: feed,
    guard: endpoints.destinationGuard,
    settings: config.webhooks,
    now,
  });
  return { webhooksModule: endpoints, webhookDeliveries: deliveries };
}
