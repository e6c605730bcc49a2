import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, json } from './helpers/app.js';
import { waitUntil } from './helpers/wait.js';
import { startWebhooksFixture, type DeliveryView } from './helpers/webhook-deliveries.js';

/**
 * "Send a test event": POST /v2/webhook_endpoints/{id}/test delivers one signed `webhook_endpoint.test` event to that
 * endpoint only, through the normal delivery path; it is listed in the endpoint's deliveries, not in the event log.
 */
describe('webhook endpoints: send a test event', { timeout: 180_000 }, () => {
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  beforeAll(async () => {
    f = await startWebhooksFixture();
  });
  afterAll(() => f.close());

  const sendTest = (endpointId: string, authorization = f.platform.apiKey) =>
    f.t.app.inject({ method: 'POST', url: `/v2/webhook_endpoints/${endpointId}/test`, headers: { authorization } });

  it('delivers one signed test event to that endpoint only, listed in its deliveries and nowhere in the log', async () => {
    const endpoint = await f.addEndpoint();
    // A second endpoint of the same platform, subscribed to everything, must receive nothing.
    const other = json<{ id: string }>(
      await f.t.app.inject({ method: 'POST', url: '/v2/webhook_endpoints', headers: f.key, payload: { url: `${f.receiver.url}/other` } }),
    );
    const answer = await sendTest(endpoint.id);
    expect(answer.statusCode, answer.body).toBe(202);
    const delivery = json<DeliveryView>(answer);
    expect(delivery).toMatchObject({ endpoint_id: endpoint.id, event_type: 'webhook_endpoint.test', status: 'pending', attempt_count: 0 });
    expect(delivery.event_id).toMatch(/^evt_/);

    const arrived = await waitUntil(
      () => f.receiver.received.find((r) => r.headers['webhook-id'] === delivery.event_id),
      'the test event at the receiver',
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    expect(arrived.verified).toMatchObject({
      ok: true,
      payload: {
        id: delivery.event_id,
        type: 'webhook_endpoint.test',
        legal_entity_id: null,
        data: { object: { id: endpoint.id, url: f.receiver.url } },
      },
    });
    expect(arrived.headers['user-agent']).toBe('Statehouse-Webhooks/1');

    const done = await f.waitForDelivery(endpoint.id, delivery.event_id, (d) => d.status === 'succeeded', 'the test delivery recorded');
    expect(done).toMatchObject({ id: delivery.id, event_type: 'webhook_endpoint.test', attempt_count: 1 });
    expect(done.attempts).toEqual([expect.objectContaining({ trigger: 'automatic', status_code: 204 })]);
    expect((await f.deliveries(endpoint.id)).map((d) => d.id)).toEqual([delivery.id]);
    expect(await f.deliveries(other.id)).toEqual([]);
    expect(f.receiver.received.filter((r) => r.headers['webhook-id'] === delivery.event_id)).toHaveLength(1);

    // Not in the platform's event log.
    const events = json<{ data: { id: string }[] } | { id: string }[]>(await f.t.app.inject({ url: '/v2/events', headers: f.key }));
    const listed = Array.isArray(events) ? events : events.data;
    expect(listed.some((e) => e.id === delivery.event_id)).toBe(false);

    // A redelivery of it sends the same event again (trigger manual).
    const again = await f.t.app.inject({
      method: 'POST',
      url: `/v2/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
      headers: f.key,
    });
    expect(again.statusCode, again.body).toBe(202);
    await waitUntil(
      () => f.receiver.received.filter((r) => r.headers['webhook-id'] === delivery.event_id).length === 2,
      'the redelivered test event',
      { timeoutMs: 60_000, intervalMs: 50 },
    );
  });

  it("refuses a disabled endpoint (409), another platform's or an unknown one (404), and a missing key (401)", async () => {
    const endpoint = await f.addEndpoint();
    const disabled = await f.t.app.inject({
      method: 'PATCH',
      url: `/v2/webhook_endpoints/${endpoint.id}`,
      headers: f.key,
      payload: { status: 'disabled' },
    });
    expect(disabled.statusCode).toBe(200);
    const conflict = await sendTest(endpoint.id);
    expect(conflict.statusCode).toBe(409);
    expect(json(conflict).detail).toContain('disabled');

    const stranger = await createPlatform(f.t.db, 'Stranger Payroll');
    expect((await sendTest(endpoint.id, stranger.apiKey)).statusCode).toBe(404);
    expect((await sendTest('we_nope')).statusCode).toBe(404);
    expect((await f.t.app.inject({ method: 'POST', url: `/v2/webhook_endpoints/${endpoint.id}/test` })).statusCode).toBe(401);
    expect(await f.deliveries(endpoint.id)).toEqual([]);
  });
});
