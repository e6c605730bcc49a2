import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/modules/events/contract.js';
import { bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { eventsUntil, listAllEvents } from './helpers/events.js';

/** GET /v2/events: order, paging, filters, tenancy and refusals. */
describe('events log: GET /v2/events', () => {
  let t: TestApp;
  let apiKey: string;
  let otherKey: string;
  const entities: { entityId: string; token: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
    ({ apiKey: otherKey } = await createPlatform(t.db, 'Other Payroll'));
    // Enough real changes for hundreds of events: each region adds a location and plans its tasks.
    for (const name of ['Alpha Inc', 'Beta Inc', 'Gamma Inc', 'Delta Inc', 'Epsilon Inc', 'Zeta Inc', 'Eta Inc']) {
      const entity = await signupWithToken(t.app, apiKey, { business_name: name });
      entities.push(entity);
      for (const region of ['CA', 'NY', 'TX', 'WA']) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/v2/regions/${region}`,
          headers: bearer(entity.token),
          payload: { employee_count: 3 },
        });
        expect(put.statusCode).toBe(200);
      }
    }
    await signupWithToken(t.app, otherKey, { business_name: 'Elsewhere Inc' });
  }, 120_000);
  afterAll(async () => t.close());

  const allOf = (key: string) =>
    eventsUntil(
      t.app,
      key,
      (events) =>
        events.some(
          (e) => e.type === 'location.updated' && e.legal_entity_id === entities.at(-1)?.entityId && e.data.object.location.code === 'WA',
        ) || key === otherKey,
    );

  it('pages through every event once, oldest first, with the /v2 paging headers', async () => {
    const everything = await allOf(apiKey);
    expect(everything.length).toBeGreaterThanOrEqual(250);
    const paged = await listAllEvents(t.app, apiKey, '', 37);
    expect(paged.events.map((e) => e.id)).toEqual(everything.map((e) => e.id));
    expect(new Set(paged.events.map((e) => e.id)).size).toBe(paged.events.length);
    expect(paged.pages.slice(0, -1).every((n) => n === 37)).toBe(true);

    const first = await t.app.inject({ url: '/v2/events?limit=37', headers: { authorization: apiKey } });
    expect(first.headers['x-page-size']).toBe('37');
    const next = first.headers['x-next-page'] as string;
    expect(next).toBe(`/v2/events?limit=37&starting_after=${json(first)[36].id}`);
    expect(first.headers.link).toBe(`<${next}>; rel="next"`);
    const last = await t.app.inject({ url: `/v2/events?starting_after=${everything.at(-1)!.id}`, headers: { authorization: apiKey } });
    expect(json(last)).toEqual([]);
    expect(last.headers['x-next-page']).toBeUndefined();
    expect(last.headers.link).toBeUndefined();

    // Each entity's story starts with its tasks, and its first location is announced with them.
    const ofAlpha = everything.filter((e) => e.legal_entity_id === entities[0]!.entityId);
    expect(ofAlpha[0]!.type).toBe('task.created');
    expect(ofAlpha.filter((e) => e.type === 'location.updated').map((e) => e.data.object.location.code)).toEqual(['CA', 'NY', 'TX', 'WA']);
    expect(everything.every((e) => /^evt_/.test(e.id) && !Number.isNaN(Date.parse(e.created_at)))).toBe(true);
  });

  it('filters by type (repeated) and by legal entity', async () => {
    const everything = await allOf(apiKey);
    const locations = (await listAllEvents(t.app, apiKey, 'type=location.updated')).events;
    expect(locations.map((e) => e.id)).toEqual(everything.filter((e) => e.type === 'location.updated').map((e) => e.id));
    expect(locations).toHaveLength(4 * entities.length);
    const two = (await listAllEvents(t.app, apiKey, 'type=location.updated&type=task.created', 50)).events;
    expect(two.map((e) => e.id)).toEqual(everything.filter((e) => ['location.updated', 'task.created'].includes(e.type)).map((e) => e.id));
    const beta = (await listAllEvents(t.app, apiKey, `legal_entity_id=${entities[1]!.entityId}`, 20)).events;
    expect(beta.length).toBeGreaterThan(0);
    expect(beta.map((e) => e.id)).toEqual(everything.filter((e) => e.legal_entity_id === entities[1]!.entityId).map((e) => e.id));
  });

  it('a platform sees only its own events', async () => {
    const mine = await allOf(apiKey);
    const theirs = await eventsUntil(t.app, otherKey, (events) => events.length > 0);
    expect(theirs.length).toBeGreaterThan(0);
    const ours = new Set(entities.map((e) => e.entityId));
    expect(theirs.some((e) => ours.has(e.legal_entity_id!))).toBe(false);
    expect(mine.some((e) => theirs.some((x) => x.id === e.id))).toBe(false);
    // Another platform's event id is not a cursor here, nor its entity a filter.
    const foreignCursor = await t.app.inject({ url: `/v2/events?starting_after=${theirs[0]!.id}`, headers: { authorization: apiKey } });
    expect(foreignCursor.statusCode).toBe(422);
    const theirEntity = theirs[0]!.legal_entity_id!;
    const foreignEntity = await t.app.inject({ url: `/v2/events?legal_entity_id=${theirEntity}`, headers: { authorization: apiKey } });
    expect(foreignEntity.statusCode).toBe(404);
    expect(json(foreignEntity)).toEqual({ detail: `Legal entity '${theirEntity}' not found` });
  });

  it('refuses bad input with 422 and an entity token as other API-key operations do', async () => {
    const badCursor = await t.app.inject({ url: '/v2/events?starting_after=evt_nope', headers: { authorization: apiKey } });
    expect(badCursor.statusCode).toBe(422);
    expect(json(badCursor).detail[0]).toMatchObject({ loc: ['query', 'starting_after'], input: 'evt_nope' });
    const badType = await t.app.inject({ url: '/v2/events?type=task.exploded', headers: { authorization: apiKey } });
    expect(badType.statusCode).toBe(422);
    expect(json(badType).detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'type', 0], input: 'task.exploded' });
    expect(json(badType).detail[0].msg).toContain(EVENT_TYPES[0]);
    for (const limit of ['0', '10001', 'many']) {
      const bad = await t.app.inject({ url: `/v2/events?limit=${limit}`, headers: { authorization: apiKey } });
      expect(bad.statusCode, limit).toBe(422);
      expect(json(bad).detail[0].loc).toEqual(['query', 'limit']);
    }
    const withToken = await t.app.inject({ url: '/v2/events', headers: bearer(entities[0]!.token) });
    const authWithToken = await t.app.inject({
      method: 'POST',
      url: '/v2/auth',
      headers: bearer(entities[0]!.token),
      payload: { legal_entity_id: entities[0]!.entityId },
    });
    expect(withToken.statusCode).toBe(authWithToken.statusCode);
    expect(json(withToken)).toEqual(json(authWithToken));
    expect((await t.app.inject({ url: '/v2/events' })).statusCode).toBe(401);
  });
});
