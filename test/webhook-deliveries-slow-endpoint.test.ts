import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { waitUntil } from './helpers/wait.js';
import { recordEvent, startWebhooksFixture } from './helpers/webhook-deliveries.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

/**
 * An endpoint that accepts connections and never answers holds its attempts open until the attempt time limit
 * (two minutes here, so they are all still open while the test looks): another endpoint of the same platform
 * still gets every event, and the API still answers.
 */
describe('webhook deliveries: a hanging endpoint blocks neither other endpoints nor requests', { timeout: 300_000 }, () => {
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  let fast: WebhookReceiver;

  beforeAll(async () => {
    f = await startWebhooksFixture({ attemptTimeoutMs: 120_000 });
    f.receiver.answer(() => ({ kind: 'hang' }));
    fast = await startWebhookReceiver();
  });
  afterAll(async () => {
    await fast?.close();
    await f?.close();
  });

  it('every event reaches the answering endpoint while the hanging one still holds its attempts', async () => {
    const slow = await f.addEndpoint();
    const res = await f.t.app.inject({ method: 'POST', url: '/v2/webhook_endpoints', headers: f.key, payload: { url: fast.url } });
    expect(res.statusCode).toBe(201);
    fast.setSecret(json<{ secret: string }>(res).secret);

    const eventIds: string[] = [];
    for (let n = 0; n < 12; n++) eventIds.push(await recordEvent(f.t.db, f.platform.platformId, 'legal_entity.updated', { id: `le_${n}` }));

    await waitUntil(
      () => eventIds.every((id) => fast.received.some((r) => r.headers['webhook-id'] === id && r.verified.ok)),
      'every event at the answering endpoint',
      { timeoutMs: 100_000 },
    );
    // The hanging endpoint was being tried all along, and none of its attempts has ended yet.
    expect(f.receiver.received.length).toBeGreaterThan(0);
    const slowDeliveries = await f.deliveries(slow.id, '?limit=250');
    expect(slowDeliveries.every((d) => d.status === 'pending' && d.attempt_count === 0)).toBe(true);

    // Requests are served meanwhile.
    const events = await f.t.app.inject({ url: '/v2/events?limit=5', headers: f.key });
    expect(events.statusCode).toBe(200);
  });
});
