import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, json, signupWithToken } from './helpers/app.js';
import { waitUntil } from './helpers/wait.js';
import { recordEvent, startWebhooksFixture, type DeliveryView } from './helpers/webhook-deliveries.js';

/**
 * Events of a real API flow reach the endpoint signed (Standard Webhooks, verified by the receiver), as the same
 * object the event log holds; the deliveries API lists them newest first in pages, filters them, shows each with
 * its attempts, and stays within the platform.
 */
describe('webhook deliveries: delivered and listed', { timeout: 180_000 }, () => {
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  let endpointId: string;
  beforeAll(async () => {
    f = await startWebhooksFixture();
    endpointId = (await f.addEndpoint()).id;
  });
  afterAll(() => f.close());

  const eventsOfPlatform = () =>
    f.t.db
      .selectFrom('events')
      .select(['id', 'type', 'created_at', 'legal_entity_id', 'data'])
      .where('platform_id', '=', f.platform.platformId)
      .orderBy('seq')
      .execute();

  it("delivers every event of a signup, each verified, with the event's id as webhook-id", async () => {
    const { entityId } = await signupWithToken(f.t.app, f.platform.apiKey);
    const events = await eventsOfPlatform();
    expect(events.length).toBeGreaterThan(0);
    await waitUntil(
      () => {
        const arrived = new Set(f.receiver.verified().map((p) => p.id));
        return events.every((e) => arrived.has(e.id));
      },
      'every event of the signup at the receiver',
      { timeoutMs: 90_000, intervalMs: 100 },
    );

    expect(f.receiver.received.every((r) => r.verified.ok)).toBe(true);
    for (const event of events) {
      const request = f.receiver.received.find((r) => r.headers['webhook-id'] === event.id)!;
      expect(JSON.parse(request.body)).toEqual({
        id: event.id,
        type: event.type,
        created_at: event.created_at.toISOString(),
        legal_entity_id: event.legal_entity_id,
        data: event.data,
      });
      expect(request.headers['user-agent']).toBe('Statehouse-Webhooks/1');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    }
    expect(events.some((e) => e.legal_entity_id === entityId)).toBe(true);

    // Each recorded as succeeded with one automatic attempt.
    const [newest] = await f.deliveries(endpointId, '?limit=1');
    // The receiver has answered; the attempt is recorded right after.
    const detail = await f.waitForDelivery(endpointId, newest!.event_id, (d) => d.status === 'succeeded', 'the attempt recorded');
    expect(detail).toMatchObject({ endpoint_id: endpointId, status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    expect(detail.attempts).toEqual([
      {
        attempted_at: detail.last_attempt_at,
        trigger: 'automatic',
        status_code: 204,
        error: null,
        latency_ms: expect.any(Number),
        response_excerpt: null,
      },
    ]);
  });

  it('lists deliveries newest first, page by page through X-Next-Page, without gaps or repeats', async () => {
    for (let i = 0; i < 5; i++) await recordEvent(f.t.db, f.platform.platformId);
    const total = (await eventsOfPlatform()).length;
    await waitUntil(async () => {
      const all = await f.deliveries(endpointId, '?limit=250');
      return all.length === total && all.every((d) => d.status === 'succeeded');
    }, 'a delivery per event, each succeeded');

    const seen: DeliveryView[] = [];
    let next: string | undefined = `/v2/webhook_endpoints/${endpointId}/deliveries?limit=3`;
    while (next) {
      const res = await f.t.app.inject({ url: next, headers: f.key });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-page-size']).toBe('3');
      seen.push(...json<DeliveryView[]>(res));
      next = res.headers['x-next-page'] as string | undefined;
      if (next) expect(res.headers.link).toBe(`<${next}>; rel="next"`);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((d) => d.id)).size).toBe(total);
    const order = seen.map((d) => `${d.created_at} ${d.id}`);
    expect([...order].sort().reverse()).toEqual(order);

    expect(await f.deliveries(endpointId, '?status=pending')).toEqual([]);
    expect((await f.deliveries(endpointId, '?status=succeeded')).length).toBe(total);
  });

  it("refuses a bad cursor or status (422) and hides other platforms' endpoints and deliveries (404)", async () => {
    const badCursor = await f.t.app.inject({
      url: `/v2/webhook_endpoints/${endpointId}/deliveries?starting_after=whd_nope`,
      headers: f.key,
    });
    expect(badCursor.statusCode).toBe(422);
    expect(badCursor.json().detail[0]).toMatchObject({ loc: ['query', 'starting_after'] });
    const badStatus = await f.t.app.inject({ url: `/v2/webhook_endpoints/${endpointId}/deliveries?status=lost`, headers: f.key });
    expect(badStatus.statusCode).toBe(422);
    expect(badStatus.json().detail[0].loc).toEqual(['query', 'status']);

    const [delivery] = await f.deliveries(endpointId, '?limit=1');
    const other = await createPlatform(f.t.db, 'Nosy Payroll');
    const as = { authorization: other.apiKey };
    for (const [method, url] of [
      ['GET', `/v2/webhook_endpoints/${endpointId}/deliveries`],
      ['GET', `/v2/webhook_endpoints/${endpointId}/deliveries/${delivery!.id}`],
      ['POST', `/v2/webhook_endpoints/${endpointId}/deliveries/${delivery!.id}/redeliver`],
    ] as const) {
      const res = await f.t.app.inject({ method, url, headers: as });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ message: expect.any(String), detail: expect.any(String) });
    }
    expect((await f.t.app.inject({ url: `/v2/webhook_endpoints/${endpointId}/deliveries/whd_nope`, headers: f.key })).statusCode).toBe(404);
    expect((await f.t.app.inject({ url: `/v2/webhook_endpoints/${endpointId}/deliveries` })).statusCode).toBe(401);
  });
});
