import type { Config } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import { createEventsService } from '../../src/modules/events/events.service.js';
import type { EventType } from '../../src/modules/events/contract.js';
import { createPlatform, createTestApp, json, type TestApp } from './app.js';
import { waitUntil } from './wait.js';
import { startWebhookReceiver } from './webhook-receiver.js';

/** Local receivers allowed, quick retries (100 ms base: 0.1 s, 0.5 s, 3 s, …), never disabled unless a test says so. */
export const TEST_WEBHOOKS: Config['webhooks'] = {
  allowPrivate: true,
  attemptTimeoutMs: 10_000,
  retryBaseMs: 100,
  maxAttempts: 4,
  disableAfterHours: 72,
  disableAfterFailures: 1000,
};

export interface DeliveryView {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  created_at: string;
  attempts?: {
    attempted_at: string;
    trigger: string;
    status_code: number | null;
    error: string | null;
    latency_ms: number;
    response_excerpt: string | null;
  }[];
}

/** Records one event the way every module does: in a transaction of its own change (here, nothing else). */
export async function recordEvent(
  db: Db,
  platformId: string,
  type: EventType = 'legal_entity.updated',
  object: Record<string, unknown> = { id: 'le_test' },
) {
  await db
    .transaction()
    .execute((trx) => createEventsService().record(trx, { type, platformId, legalEntityId: null, data: { object, changed: ['name'] } }));
  const row = await db
    .selectFrom('events')
    .select(['id'])
    .where('platform_id', '=', platformId)
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An app with the real job queue and fan-out, a platform, and a verifying receiver on 127.0.0.1. */
export async function startWebhooksFixture(webhooks: Partial<Config['webhooks']> = {}, t?: TestApp) {
  const app = t ?? (await createTestApp({ webhooks: { ...TEST_WEBHOOKS, ...webhooks } }, undefined, { jobs: true }));
  const platform = await createPlatform(app.db);
  const receiver = await startWebhookReceiver();
  const key = { authorization: platform.apiKey };
  const get = async (url: string) => {
    const res = await app.app.inject({ url, headers: key });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };

  return {
    t: app,
    platform,
    receiver,
    key,
    /** A webhook endpoint at the receiver (the receiver verifies with its secret). */
    async addEndpoint(body: Record<string, unknown> = {}) {
      const res = await app.app.inject({
        method: 'POST',
        url: '/v2/webhook_endpoints',
        headers: key,
        payload: { url: receiver.url, ...body },
      });
      if (res.statusCode !== 201) throw new Error(`POST /v2/webhook_endpoints: ${res.statusCode} ${res.body}`);
      const endpoint = json<{ id: string; secret: string }>(res);
      receiver.setSecret(endpoint.secret);
      return endpoint;
    },
    deliveries: async (endpointId: string, query = '') =>
      json<DeliveryView[]>(await get(`/v2/webhook_endpoints/${endpointId}/deliveries${query}`)),
    delivery: async (endpointId: string, deliveryId: string) =>
      json<DeliveryView>(await get(`/v2/webhook_endpoints/${endpointId}/deliveries/${deliveryId}`)),
    /** Polls the delivery (with its attempts) until `done` holds. */
    async waitForDelivery(endpointId: string, eventId: string, done: (d: DeliveryView) => boolean, what: string) {
      let last: DeliveryView | undefined;
      try {
        return await waitUntil(
          async () => {
            const found = (await this.deliveries(endpointId, '?limit=250')).find((d) => d.event_id === eventId);
            last = found && (await this.delivery(endpointId, found.id));
            return last && done(last) && last;
          },
          what,
          { timeoutMs: 90_000, intervalMs: 100 },
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; last: ${JSON.stringify(last)}`);
      }
    },
    async close() {
      await receiver.close();
      if (!t) await app.close();
    },
  };
}
