import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { createDb, type Db } from '../src/db/database.js';
import { startJobQueue, type JobQueue } from '../src/jobs/queue.js';
import { createTestApp, TEST_VAULT_KEY, type TestApp } from './helpers/app.js';
import { recordEvent, startWebhooksFixture, TEST_WEBHOOKS } from './helpers/webhook-deliveries.js';

/**
 * The destination guard applies to every attempt, not only when the endpoint is saved: an endpoint at 127.0.0.1
 * (saved while private destinations were allowed) is never contacted by a server without the allow flag, and the
 * refusal is recorded as the attempt's error.
 */
describe('webhook deliveries: no delivery to a forbidden address without the allow flag', { timeout: 120_000 }, () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  let strict: { app: FastifyInstance; db: Db; queue: JobQueue; stopFanOut: () => Promise<void> };
  beforeAll(async () => {
    // This app saves the endpoint (allowed) and runs no queue; a second app on the same database runs the
    // fan-out and the deliveries without the flag, one attempt per delivery.
    t = await createTestApp({ webhooks: TEST_WEBHOOKS });
    f = await startWebhooksFixture({}, t);
    const db = createDb(t.url, 3);
    const queue = await startJobQueue(t.url, () => {});
    const app = await buildApp({
      config: { ...t.config, webhooks: { ...TEST_WEBHOOKS, allowPrivate: false, maxAttempts: 1 } },
      db,
      logger: false,
      vaultKeys: [TEST_VAULT_KEY],
      jobs: queue,
    });
    await queue.work(app.services.jobDefinitions);
    strict = { app, db, queue, stopFanOut: app.services.webhookDeliveries.startFanOut(() => {}) };
  });
  afterAll(async () => {
    await strict.stopFanOut();
    await strict.app.close();
    await strict.queue.stop();
    await strict.db.destroy();
    await f.close();
    await t.close();
  });

  it("records the guard's refusal and never reaches the receiver", async () => {
    const { id: endpointId } = await f.addEndpoint();
    const eventId = await recordEvent(t.db, f.platform.platformId);
    const failed = await f.waitForDelivery(endpointId, eventId, (d) => d.status === 'failed', 'the refused attempt');
    expect(failed.attempts).toHaveLength(1);
    expect(failed.attempts![0]).toMatchObject({ trigger: 'automatic', status_code: null, response_excerpt: null });
    // The guard's own reason (the same words a 422 gives when such a URL is saved without the flag).
    expect(failed.attempts![0]!.error).toMatch(/loopback/);
    expect(f.receiver.received).toHaveLength(0);
  });
});
