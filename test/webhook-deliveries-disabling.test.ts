import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { waitUntil } from './helpers/wait.js';
import { recordEvent, startWebhooksFixture } from './helpers/webhook-deliveries.js';

/**
 * An endpoint that keeps failing is disabled (small thresholds here: failing for any time and 3 failed attempts),
 * with the reason on GET of the endpoint; what was still pending for it is not attempted any more.
 */
describe('webhook deliveries: an endpoint that keeps failing is disabled', { timeout: 180_000 }, () => {
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  beforeAll(async () => {
    // Attempts at 0 s, 0.2 s and 1.2 s: the first two rounds of two deliveries make 4 failures, the third round
    // comes a second after the endpoint was disabled.
    f = await startWebhooksFixture({ disableAfterHours: 0, disableAfterFailures: 3, maxAttempts: 3, retryBaseMs: 200 });
    f.receiver.answer(() => ({ kind: 'error', status: 500, body: 'still broken' }));
  });
  afterAll(() => f.close());

  it('disables it with the reason, stops attempting, and refuses redelivery', async () => {
    const { id: endpointId } = await f.addEndpoint({ event_types: ['legal_entity.updated'] });
    const events = [await recordEvent(f.t.db, f.platform.platformId), await recordEvent(f.t.db, f.platform.platformId)];
    const failed = await Promise.all(
      events.map((eventId) => f.waitForDelivery(endpointId, eventId, (d) => d.status === 'failed', 'the delivery to fail')),
    );

    const endpoint = json(await f.t.app.inject({ url: `/v2/webhook_endpoints/${endpointId}`, headers: f.key }));
    expect(endpoint.status).toBe('disabled');
    expect(endpoint.disabled_reason).toMatch(/no successful delivery since .*\(3 attempts failed.*HTTP 500/);
    expect(endpoint.disabled_at).not.toBeNull();
    // Whatever was due after the disabling was recorded as not attempted (and the receiver never saw it).
    const notAttempted = failed.flatMap((d) => d.attempts!).filter((a) => a.error === 'Not attempted: the endpoint is disabled or deleted');
    expect(notAttempted.length).toBeGreaterThanOrEqual(1);
    expect(notAttempted.every((a) => a.status_code === null && a.latency_ms === 0)).toBe(true);
    const attempted = failed.flatMap((d) => d.attempts!).length - notAttempted.length;
    expect(f.receiver.received).toHaveLength(attempted);

    // A new event reaches an enabled endpoint (the fan-out has passed it) but no delivery is made to the disabled one.
    const witness = await f.addEndpoint({ event_types: ['legal_entity.updated'] });
    const later = await recordEvent(f.t.db, f.platform.platformId);
    await waitUntil(async () => (await f.deliveries(witness.id)).some((d) => d.event_id === later), 'the fan-out to pass the new event');
    expect((await f.deliveries(endpointId)).map((d) => d.event_id).sort()).toEqual([...events].sort());

    // Redelivery to a disabled endpoint is a conflict.
    const refused = await f.t.app.inject({
      method: 'POST',
      url: `/v2/webhook_endpoints/${endpointId}/deliveries/${failed[0]!.id}/redeliver`,
      headers: f.key,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/disabled/);
  });
});
