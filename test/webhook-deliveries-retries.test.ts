import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent, startWebhooksFixture } from './helpers/webhook-deliveries.js';
import type { ReceiverBehaviour } from './helpers/webhook-receiver.js';

/**
 * Each failure a receiver can produce is recorded with its reason and tried again on the schedule (a 100 ms base
 * here), with the same `webhook-id` and a fresh signature; when attempts run out the delivery is failed, and a
 * manual redelivery makes one more attempt.
 */
describe('webhook deliveries: failed attempts are recorded and retried', { timeout: 180_000 }, () => {
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  let endpointId: string;
  const script = new Map<string, ReceiverBehaviour[]>();
  const seen = new Map<string, number>();

  beforeAll(async () => {
    f = await startWebhooksFixture({ maxAttempts: 5, attemptTimeoutMs: 1500 });
    // Scripted by the event's object id (known before the event exists), attempt after attempt.
    f.receiver.answer(({ body }) => {
      const marker = (JSON.parse(body) as { data: { object: { id: string } } }).data.object.id;
      const n = seen.get(marker) ?? 0;
      seen.set(marker, n + 1);
      return script.get(marker)?.[n] ?? { kind: 'ok' };
    });
    endpointId = (await f.addEndpoint()).id;
  });
  afterAll(() => f.close());

  it('500, timeout, dropped connection and 302 each fail an attempt; the fifth succeeds', async () => {
    const before = await recordEventScripted([
      { kind: 'error', status: 500, body: 'database on fire' },
      { kind: 'hang' },
      { kind: 'destroy' },
      { kind: 'redirect', location: 'http://elsewhere.example/hooks' },
    ]);
    const delivery = await f.waitForDelivery(endpointId, before, (d) => d.status === 'succeeded', 'the fifth attempt to succeed');
    expect(delivery.attempt_count).toBe(5);
    expect(delivery.next_attempt_at).toBeNull();
    const attempts = delivery.attempts!;
    expect(attempts.map((a) => [a.trigger, a.status_code])).toEqual([
      ['automatic', 500],
      ['automatic', null],
      ['automatic', null],
      ['automatic', 302],
      ['automatic', 204],
    ]);
    expect(attempts[0]).toMatchObject({ error: 'HTTP 500', response_excerpt: 'database on fire' });
    expect(attempts[1]!.error).toBe('timed out after 1500 ms');
    expect(attempts[1]!.latency_ms).toBeGreaterThanOrEqual(1400);
    expect(attempts[2]!.error).toMatch(/socket hang up|ECONNRESET/);
    expect(attempts[3]!.error).toBe('HTTP 302: redirects are not followed (to http://elsewhere.example/hooks)');
    expect(attempts[4]!.error).toBeNull();
    // Each retry waited at least its pause (0.1 s, 0.5 s, 3 s after the attempt before it).
    const times = attempts.map((a) => Date.parse(a.attempted_at));
    expect(times[4]! - times[3]!).toBeGreaterThanOrEqual(2_500);

    // Every request carried the event's id, the same each time, and a signature that verified.
    const requests = f.receiver.received.filter((r) => r.headers['webhook-id'] === before);
    expect(requests).toHaveLength(5);
    for (const r of requests) {
      expect(r.verified.ok).toBe(true);
      expect(r.headers['user-agent']).toBe('Statehouse-Webhooks/1');
      expect(r.headers['content-type']).toBe('application/json');
    }
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  });

  it('fails the delivery when every attempt fails, and a manual redelivery then succeeds', async () => {
    const eventId = await recordEventScripted(Array.from({ length: 5 }, () => ({ kind: 'error' as const, status: 503, body: 'down' })));
    // While attempts remain (the last ones are seconds apart) a redelivery is refused.
    const pending = await f.waitForDelivery(
      endpointId,
      eventId,
      (d) => d.status === 'pending' && d.attempt_count >= 1,
      'a first failed attempt',
    );
    const refused = await redeliver(pending.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'Conflict',
      detail: expect.stringMatching(/^The delivery is still being attempted \(next attempt at /),
    });
    const failed = await f.waitForDelivery(endpointId, eventId, (d) => d.status === 'failed', 'attempts to run out');
    expect(failed.attempt_count).toBe(5);
    expect(failed.attempts!.every((a) => a.status_code === 503 && a.trigger === 'automatic')).toBe(true);
    expect(failed.next_attempt_at).toBeNull();

    const accepted = await redeliver(failed.id);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toMatchObject({ id: failed.id, event_id: eventId });
    const redelivered = await f.waitForDelivery(endpointId, eventId, (d) => d.status === 'succeeded', 'the manual attempt');
    expect(redelivered.attempts!.map((a) => a.trigger)).toEqual([...Array(5).fill('automatic'), 'manual']);
    expect(redelivered.attempts!.at(-1)!.status_code).toBe(204);
    expect(f.receiver.received.filter((r) => r.headers['webhook-id'] === eventId && r.verified.ok)).toHaveLength(6);
  });

  it('redelivers a delivery that succeeded (the receiver lost it), as a manual attempt', async () => {
    const eventId = await recordEventScripted([]);
    const delivered = await f.waitForDelivery(endpointId, eventId, (d) => d.status === 'succeeded', 'the delivery');
    expect((await redeliver(delivered.id)).statusCode).toBe(202);
    const again = await f.waitForDelivery(endpointId, eventId, (d) => d.attempt_count === 2, 'the manual attempt');
    expect(again.status).toBe('succeeded');
    expect(again.attempts!.map((a) => a.trigger)).toEqual(['automatic', 'manual']);
  });

  async function recordEventScripted(behaviours: ReceiverBehaviour[]) {
    const marker = `le_scripted_${script.size}`;
    script.set(marker, behaviours);
    return recordEvent(f.t.db, f.platform.platformId, 'legal_entity.updated', { id: marker });
  }

  const redeliver = (deliveryId: string) =>
    f.t.app.inject({ method: 'POST', url: `/v2/webhook_endpoints/${endpointId}/deliveries/${deliveryId}/redeliver`, headers: f.key });
});
