import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobSender } from '../../jobs/queue.js';
import type { EventFeed } from '../events/contract.js';
import type { DestinationGuard, EndpointsForDelivery, WebhookTestEvents } from '../webhooks/contract.js';
import { createDeliveryAttempts } from './delivery-attempts.js';
import { createFanOut, startFanOutLoop } from './fan-out.js';
import { webhookDeliveriesRoutes } from './webhook-deliveries.routes.js';
import { createWebhookDeliveriesService } from './webhook-deliveries.service.js';
import { deliveryJobs } from './webhook-deliveries.jobs.js';

export { retryDelayMs, retrySpanMs } from './retry-schedule.js';
export { DELIVER_JOB } from './webhook-deliveries.types.js';

export interface WebhookDeliveriesModuleDeps {
  db: Db;
  jobs: JobSender;
  endpoints: EndpointsForDelivery;
  /** The event log (events module): read past the dispatch cursor, and each delivery's event. */
  events: EventFeed;
  guard: DestinationGuard;
  settings: Pick<Config['webhooks'], 'attemptTimeoutMs' | 'retryBaseMs' | 'maxAttempts'>;
  now: () => Date;
}

/** Webhook deliveries: the outbox's fan-out to endpoints, signed attempts and their retries, the deliveries API (docs/webhooks.md). */
export function createWebhookDeliveriesModule(deps: WebhookDeliveriesModuleDeps) {
  const fanOut = createFanOut(deps);
  const attempts = createDeliveryAttempts(deps);
  const deliveries = createWebhookDeliveriesService(deps);
  /** "Send a test event", for the console and any module through webhooks' contract. */
  const testEvents: WebhookTestEvents = deliveries;
  return {
    deliveries,
    testEvents,
    /** Outbox → deliveries now (`run`); the server runs it in a loop (`startFanOut`). */
    fanOut,
    /** Starts the serving process's fan-out loop; returns its stop. */
    startFanOut: (log: (message: string) => void) => startFanOutLoop(fanOut, log),
    jobs: deliveryJobs(attempts, deps.settings.attemptTimeoutMs),
    /** GET /v2/webhook_endpoints/{id}/deliveries[/{delivery_id}], POST …/redeliver, POST /v2/webhook_endpoints/{id}/test. */
    routes: (http: { auth: AuthHooks }): FastifyPluginAsync => webhookDeliveriesRoutes({ deliveries, auth: http.auth }),
  };
}

export type WebhookDeliveriesModule = ReturnType<typeof createWebhookDeliveriesModule>;
