import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobSender } from '../src/jobs/queue.js';
import { createEventsService } from '../src/modules/events/events.service.js';
import { createPlatform, createTestApp, type TestApp } from './helpers/app.js';
import { TEST_WEBHOOKS } from './helpers/webhook-deliveries.js';
import { waitUntil } from './helpers/wait.js';

/**
 * The fan-out (outbox → deliveries) run directly, with a queue that records what it is given: events committed
 * late are never skipped, the cursor follows (xid, seq), and fan-outs running at once make each delivery once.
 */
describe('webhook deliveries: the fan-out', { timeout: 120_000 }, () => {
  let t: TestApp;
  const sent: { name: string; data: Record<string, unknown> }[] = [];
  const jobs: JobSender = {
    send: async (name, data) => void sent.push({ name, data }),
    sendMany: async (name, list) => void sent.push(...list.map((data) => ({ name, data }))),
  };
  let platformId: string;
  let endpointId: string;
  const events = createEventsService();
  const record = (db: TestApp['db'], marker: string) =>
    events.record(db, { type: 'legal_entity.updated', platformId, legalEntityId: null, data: { object: { id: marker } } });
  const eventIdOf = async (marker: string) =>
    (await t.db.selectFrom('events').select(['id', 'data']).where('platform_id', '=', platformId).execute()).find(
      (e) => (e.data as { object: { id: string } }).object.id === marker,
    )!.id;
  const deliveredEvents = async () =>
    (await t.db.selectFrom('webhook_deliveries').select('event_id').where('endpoint_id', '=', endpointId).execute()).map((d) => d.event_id);

  /**
   * Runs the fan-out until it has taken `events` events, adding up what each run took. The cursor reads below
   * the oldest transaction running anywhere on the server, and the test databases share one server: another
   * test file's open transaction can hold a run back for a moment, never make it skip or repeat.
   */
  async function runUntil(events: number, first: { events: number; deliveries: number }[] = []) {
    const total = { events: 0, deliveries: 0 };
    const add = (r: { events: number; deliveries: number }) => {
      total.events += r.events;
      total.deliveries += r.deliveries;
    };
    first.forEach(add);
    await waitUntil(
      async () => total.events >= events || (add(await t.app.services.webhookDeliveries.fanOut.run()), total.events >= events),
      `${events} events fanned out`,
    );
    return total;
  }

  beforeAll(async () => {
    t = await createTestApp({ webhooks: TEST_WEBHOOKS }, undefined, { jobs });
    const platform = await createPlatform(t.db);
    platformId = platform.platformId;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/webhook_endpoints',
      headers: { authorization: platform.apiKey },
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(res.statusCode).toBe(201);
    endpointId = res.json().id;
  });
  afterAll(() => t.close());

  it('waits for an event whose transaction began earlier and committed later, then sends both in (xid, seq) order', async () => {
    const fanOut = t.app.services.webhookDeliveries.fanOut;
    await t.db.transaction().execute(async (early) => {
      await record(early, 'early'); // this transaction now has the smaller xid
      await t.db.transaction().execute((late) => record(late, 'late')); // committed first
      await fanOut.run();
      // The late event is committed, but a transaction older than it is still open: not yet.
      expect(await deliveredEvents()).toEqual([]);
    });
    expect(await runUntil(2)).toEqual({ events: 2, deliveries: 2 });
    const [early, late] = [await eventIdOf('early'), await eventIdOf('late')];
    const delivered = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id'])
      .where('endpoint_id', '=', endpointId)
      .execute();
    const byEvent = new Map(delivered.map((d) => [d.event_id, d.id]));
    expect(sent.map((s) => s.data)).toEqual([
      { deliveryId: byEvent.get(early), attempt: 1 },
      { deliveryId: byEvent.get(late), attempt: 1 },
    ]);
    expect(sent.every((s) => s.name === 'webhooks.deliver')).toBe(true);
    expect(await fanOut.run()).toEqual({ events: 0, deliveries: 0 });
  });

  it('makes each delivery once when several fan-outs run at once (batches of 500)', async () => {
    sent.length = 0;
    const markers = Array.from({ length: 1_234 }, (_, i) => `le_bulk_${i}`);
    await t.db.transaction().execute((trx) =>
      events.record(
        trx,
        markers.map((id) => ({ type: 'legal_entity.updated' as const, platformId, legalEntityId: null, data: { object: { id } } })),
      ),
    );
    const fanOut = t.app.services.webhookDeliveries.fanOut;
    const total = await runUntil(1_234, await Promise.all([fanOut.run(), fanOut.run(), fanOut.run()]));
    expect(total).toEqual({ events: 1_234, deliveries: 1_234 });
    const delivered = await deliveredEvents();
    expect(delivered).toHaveLength(1_236);
    expect(new Set(delivered).size).toBe(1_236);
    expect(sent).toHaveLength(1_234);
    expect(new Set(sent.map((s) => s.data.deliveryId)).size).toBe(1_234);
  });

  it("delivers nothing to another platform's endpoint", async () => {
    const other = await createPlatform(t.db, 'Other Payroll');
    const before = (await deliveredEvents()).length;
    await t.db.transaction().execute((trx) =>
      events.record(trx, {
        type: 'legal_entity.updated',
        platformId: other.platformId,
        legalEntityId: null,
        data: { object: { id: 'le_other' } },
      }),
    );
    expect(await runUntil(1)).toEqual({ events: 1, deliveries: 0 });
    expect(await deliveredEvents()).toHaveLength(before);
  });
});
