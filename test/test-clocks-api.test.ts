import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, toIso } from '../src/engine/dates.js';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';

/** A Texas LLC: one franchise tax report a year (due May 15th), planned 12 months ahead. */
const LONE_STAR = {
  user_email: 'o@example.com',
  business_name: 'Lone Star LLC',
  entity_type: 'llc',
  tax_class: 'disregarded',
  incorporation_region: 'TX',
  incorporated_date: '2021-04-01',
};

interface Task {
  id: string;
  status: string;
  source: { requirement_id?: string; due_date?: string | null };
}

describe('test clocks through the API', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  let entityId: string;

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, key = apiKey) =>
    t.app.inject({ method, url, headers: { authorization: key }, ...(payload !== undefined && { payload: payload as object }) });
  const tasks = async (bearerToken = token) =>
    json<Task[]>(await t.app.inject({ url: '/v2/tasks?page_size=500', headers: bearer(bearerToken) }));
  const franchise = async (bearerToken = token) =>
    (await tasks(bearerToken))
      .filter((x) => x.source.requirement_id === 'tx-franchise-tax-report')
      .map((x) => x.source.due_date!)
      .sort();

  beforeAll(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 86_400 * 2000 });
    ({ apiKey, token, entityId } = await createPlatformWithEntity(t, undefined, LONE_STAR));
  });
  afterAll(async () => t.close());

  it('creates one clock per entity, reads and lists it, and refuses a second (409)', async () => {
    const frozen = new Date(Date.now() + 3_600_000).toISOString();
    const created = await api('POST', '/v2/test_clocks', { legal_entity_id: entityId, frozen_time: frozen });
    expect(created.statusCode).toBe(201);
    const clock = json(created);
    expect(clock).toEqual({
      id: expect.stringMatching(/^clock_/),
      legal_entity_id: entityId,
      frozen_time: frozen,
      status: 'ready',
      created_at: expect.any(String),
    });
    expect(json(await api('GET', `/v2/test_clocks/${clock.id}`))).toEqual(clock);
    expect(json(await api('GET', '/v2/test_clocks'))).toEqual({ data: [clock] });
    const second = await api('POST', '/v2/test_clocks', { legal_entity_id: entityId });
    expect(second.statusCode).toBe(409);
    expect(json(second).detail).toMatch(/already has a test clock/);
    expect((await api('DELETE', `/v2/test_clocks/${clock.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/v2/test_clocks/${clock.id}`)).statusCode).toBe(404);
  });

  it('moves forward only, at most 24 months a call (422 in the pydantic shape)', async () => {
    const clock = json(await api('POST', '/v2/test_clocks', { legal_entity_id: entityId }));
    const back = await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to: toIso(addDaysTo(new Date(), -3)) });
    expect(back.statusCode).toBe(422);
    expect(json(back).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'to'] });
    const far = await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to: addMonths(toIso(new Date()), 25) });
    expect(far.statusCode).toBe(422);
    expect(json(far).detail[0].msg).toMatch(/at most 24 months/);
    const garbage = await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to: 'next tuesday' });
    expect(garbage.statusCode).toBe(422);
    const missing = await api('POST', `/v2/test_clocks/${clock.id}/advance`, {});
    expect(missing.statusCode).toBe(422);
    expect((await api('DELETE', `/v2/test_clocks/${clock.id}`)).statusCode).toBe(204);
  });

  it('advancing passes due dates, runs the roll-forward for the days crossed, and DELETE brings real time back', async () => {
    const [due] = await franchise();
    expect(due).toBeDefined();
    const clock = json(await api('POST', '/v2/test_clocks', { legal_entity_id: entityId }));
    // Past the report's due date, and far enough that the next year's report is in the 12-month window.
    const to = `${addDays(due!, 40)}T09:00:00.000Z`;
    const advanced = await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to });
    expect(advanced.statusCode).toBe(200);
    expect(json(advanced)).toMatchObject({ id: clock.id, frozen_time: to });
    // The roll-forward ran at the entity's time: next year's report is planned.
    expect(await franchise()).toEqual([due, addMonths(due!, 12)]);
    // Overdue: the open report now comes first among the entity's tasks (GET /v2/tasks orders overdue work first).
    const list = await tasks();
    expect(list[0]).toMatchObject({ status: 'todo', source: { requirement_id: 'tx-franchise-tax-report', due_date: due } });
    // The task.created of the next report went out through the event log, with its real creation time.
    const events = json<{ created_at: string; data: { object: Task } }[]>(await api('GET', '/v2/events?type=task.created&limit=1000'));
    const next = events.find((e) => e.data.object.source.due_date === addMonths(due!, 12));
    expect(next).toBeDefined();
    expect(Math.abs(Date.parse(next!.created_at) - Date.now())).toBeLessThan(600_000);
    // Any re-planning of the entity reads its clock: a status change (which re-plans) keeps the entity's window.
    const other = list.find(
      (x) => !!x.source.requirement_id && x.source.requirement_id !== 'tx-franchise-tax-report' && x.status === 'todo',
    )!;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${other.id}`,
      headers: bearer(token),
      payload: { status: 'done' },
    });
    expect(patched.statusCode).toBe(200);
    expect(await franchise()).toEqual([due, addMonths(due!, 12)]);

    expect((await api('DELETE', `/v2/test_clocks/${clock.id}`)).statusCode).toBe(204);
    // Real time again: the report is no longer overdue, so it is not forced to the front by lateness.
    expect(json(await api('GET', '/v2/test_clocks'))).toEqual({ data: [] });
    expect(await franchise()).toContain(due);
  });

  it('a clock on entity A does not move entity B; another platform can neither see nor use it', async () => {
    const other = await signupWithToken(t.app, apiKey, { ...LONE_STAR, business_name: 'Second LLC' });
    const before = await franchise(other.token);
    const created = await api('POST', '/v2/test_clocks', { legal_entity_id: entityId });
    expect(created.statusCode).toBe(201);
    const clock = json(created);
    const [due] = await franchise();
    expect((await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to: addDays(due!, 40) })).statusCode).toBe(200);
    expect(await franchise(other.token)).toEqual(before);

    const stranger = await createPlatform(t.db, 'Stranger Payroll');
    expect((await api('GET', `/v2/test_clocks/${clock.id}`, undefined, stranger.apiKey)).statusCode).toBe(404);
    expect(json(await api('GET', '/v2/test_clocks', undefined, stranger.apiKey))).toEqual({ data: [] });
    expect((await api('POST', `/v2/test_clocks/${clock.id}/advance`, { to: addDays(due!, 60) }, stranger.apiKey)).statusCode).toBe(404);
    expect((await api('DELETE', `/v2/test_clocks/${clock.id}`, undefined, stranger.apiKey)).statusCode).toBe(404);
    // Nor make one for an entity that is not its own.
    expect((await api('POST', '/v2/test_clocks', { legal_entity_id: entityId }, stranger.apiKey)).statusCode).toBe(404);
    expect((await api('DELETE', `/v2/test_clocks/${clock.id}`)).statusCode).toBe(204);
  });

  it('needs the platform key', async () => {
    expect((await t.app.inject({ url: '/v2/test_clocks' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v2/test_clocks', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('is in /openapi.json', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v2/test_clocks', '/v2/test_clocks/{id}', '/v2/test_clocks/{id}/advance']),
    );
  });
});

describe('test clocks in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ environment: 'production' });
  });
  afterAll(async () => t.close());

  it('are refused with 403 and a reason', async () => {
    const { apiKey } = await createPlatform(t.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v2/test_clocks',
      headers: { authorization: apiKey },
      payload: { legal_entity_id: 'le_x' },
    });
    expect(response.statusCode).toBe(403);
    expect(json(response).detail).toMatch(/refused in production/);
    expect((await t.app.inject({ url: '/v2/test_clocks', headers: { authorization: apiKey } })).statusCode).toBe(403);
  });
});

function addDaysTo(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
