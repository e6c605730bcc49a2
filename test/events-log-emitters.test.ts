import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createTestApp, json, signupWithToken, VALID_SIGNUP_HOSTED, type TestApp } from './helpers/app.js';
import { eventsUntil, type ListedEvent } from './helpers/events.js';
import { connectPayroll, finishSignup } from './helpers/hosted.js';

type V2Task = { id: string; status: string; source: { type: string; question_id?: string; answer?: unknown; due_date?: string | null } };

/** Real API flows, read back through GET /v2/events: each committed change recorded with its payload, a refused one not at all. */
describe('events log: what the changes record', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  const ofEntity = (entityId: string, done: (events: ListedEvent[]) => boolean) =>
    eventsUntil(t.app, apiKey, done, `legal_entity_id=${entityId}`);

  it('signup plans tasks (task.created with the v2 task); the hosted wizard changes the profile and completes (legal_entity.updated, then signup_completed)', async () => {
    // A hosted signup session with little known: the owner's wizard steps fill the profile in.
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v2/signup/sessions',
      headers: { authorization: apiKey },
      payload: VALID_SIGNUP_HOSTED,
    });
    expect(signup.statusCode).toBe(200);
    const { legal_entity_id: entityId, url } = json(signup);
    expect((await finishSignup(t.app, url)).statusCode).toBeLessThan(400);
    const events = await ofEntity(entityId, (e) => e.some((x) => x.type === 'legal_entity.signup_completed'));
    const created = events.filter((e) => e.type === 'task.created');
    expect(created.length, JSON.stringify(events.map((e) => [e.type, e.data.changed]))).toBeGreaterThan(0);
    const token = json(
      await t.app.inject({
        method: 'POST',
        url: '/accounts/auth',
        headers: { authorization: apiKey },
        payload: { legal_entity_id: entityId },
      }),
    ).access_token;
    // Every payload is the v2 task as the API shows it (planning builds them from the inserted rows, not read back).
    // Compared with the task now, so only tasks no later event changed; a later step may update or delete some.
    let compared = 0;
    for (const event of created) {
      const later = events.filter((e) => e.type !== 'task.created' && e.data.object?.id === event.data.object.id);
      if (later.length > 0) continue;
      expect(json(await t.app.inject({ url: `/v2/tasks/${event.data.object.id}`, headers: bearer(token) }))).toEqual(event.data.object);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(0);
    const updated = events.filter((e) => e.type === 'legal_entity.updated');
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.flatMap((e) => e.data.changed)).toContain('business_name');
    const completed = events.filter((e) => e.type === 'legal_entity.signup_completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data.object).toEqual(json(await t.app.inject({ url: '/v2/legal_entity', headers: bearer(token) })));
    expect(events.indexOf(completed[0]!)).toBeGreaterThan(events.indexOf(updated.at(-1)!));
  });

  it('a whole v2 task payload is stored inline and uncompressed (migration 20261128130000: no pglz on a first planning)', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { business_name: 'Inline Payloads Inc' });
    expect((await t.app.inject({ method: 'PUT', url: '/locations/CA', headers: bearer(token) })).statusCode).toBe(200);
    await ofEntity(entityId, (e) => e.some((x) => x.type === 'task.created'));
    const { rows } = await sql<{ bytes: number; compression: string | null }>`
      select pg_column_size(data) as bytes, pg_column_compression(data) as compression
        from events where legal_entity_id = ${entityId} and type = 'task.created'`.execute(t.db);
    // Under PostgreSQL's default rule every payload over ~2 kB would be compressed; these stay as written.
    expect(rows.filter((r) => r.bytes > 2100).length, JSON.stringify(rows.map((r) => r.bytes))).toBeGreaterThan(0);
    expect(rows.filter((r) => r.compression !== null)).toEqual([]);
  });

  it('a status change and an answer record task.updated (and the location it sets, location.updated) in their transaction', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { business_name: 'Status Inc' });
    expect((await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: bearer(token) })).statusCode).toBe(200);
    const tasks = json<V2Task[]>(await t.app.inject({ url: '/v2/tasks?page_size=500', headers: bearer(token) }));
    const requirement = tasks.find((x) => x.source.type === 'requirement')!;
    const question = tasks.find((x) => x.source.question_id === 'has-employees')!;
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${requirement.id}`, headers: bearer(token), payload: { status: 'done' } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/v2/tasks/questions/${question.id}`,
          headers: bearer(token),
          payload: { answer: true },
        })
      ).statusCode,
    ).toBe(200);

    const events = await ofEntity(entityId, (e) => e.some((x) => x.type === 'task.updated' && x.data.object.id === question.id));
    const added = events.find((e) => e.type === 'location.updated' && e.data.changed!.includes('location'))!;
    expect(added.data.object).toEqual({
      location: expect.objectContaining({ code: 'NY' }),
      config: { has_employees: null, has_physical_location: null, employee_count: null },
    });
    const done = events.find((e) => e.type === 'task.updated' && e.data.object.id === requirement.id)!;
    expect(done.data.changed).toEqual(['status']);
    expect(done.data.object.status).toBe('done');
    const answered = events.find((e) => e.type === 'task.updated' && e.data.object.id === question.id)!;
    // The re-planning the answer causes may change the task too (its reasons): one event lists both.
    expect(answered.data.changed!.slice(0, 2)).toEqual(['answer', 'status']);
    expect(answered.data.object.source.answer).toBe('true');
    const fact = events.filter((e) => e.type === 'location.updated').at(-1)!;
    expect(fact.data).toEqual({
      object: { location: expect.objectContaining({ code: 'NY' }), config: expect.objectContaining({ has_employees: true }) },
      changed: ['has_employees'],
    });
    // The answer, its location fact and the tasks they planned: one transaction, so adjacent in the log.
    const at = events.indexOf(answered);
    expect(events.slice(events.indexOf(fact), at + 1).every((e) => e.type === 'location.updated' || e.type.startsWith('task.'))).toBe(true);
    // Setting the status a task already has changes nothing and records nothing.
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${requirement.id}`, headers: bearer(token), payload: { status: 'done' } }))
        .statusCode,
    ).toBe(200);
    const sentinel = await t.app.inject({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(token), payload: { employee_count: 1 } });
    expect(sentinel.statusCode).toBe(200);
    const after = await ofEntity(entityId, (e) => e.some((x) => x.type === 'location.updated' && x.data.object.location.code === 'CA'));
    expect(after.filter((e) => e.type === 'task.updated' && e.data.object.id === requirement.id)).toHaveLength(1);
  });

  it('a refused change records nothing; payroll connects and disconnects once each', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { business_name: 'Locked Inc' });
    expect((await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: bearer(token) })).statusCode).toBe(200);
    const question = json<V2Task[]>(await t.app.inject({ url: '/v2/tasks?region=NY&type=question', headers: bearer(token) })).find(
      (x) => x.source.question_id === 'has-employees',
    )!;
    await connectPayroll(t.app, apiKey, entityId);
    const before = await ofEntity(entityId, (e) => e.some((x) => x.type === 'payroll.connected'));
    // The answer is stored, then the payroll lock refuses the location fact: the transaction rolls back, events too.
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: bearer(token),
      payload: { answer: true },
    });
    expect(refused.statusCode).toBe(409);
    const disconnect = { method: 'DELETE' as const, url: '/v2/auth/payroll', headers: bearer(token) };
    expect((await t.app.inject(disconnect)).statusCode).toBe(200);
    expect((await t.app.inject(disconnect)).statusCode).toBe(200);
    const after = await ofEntity(entityId, (e) => e.some((x) => x.type === 'payroll.disconnected'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((e) => e.type)).toEqual(['payroll.disconnected']);
    expect(after.find((e) => e.type === 'payroll.connected')!.data.object).toEqual({
      legal_entity_id: entityId,
      connected: true,
      last_payroll_update: null,
    });
    expect(after.at(-1)!.data.object).toEqual({ legal_entity_id: entityId, connected: false, last_payroll_update: null });
  });

  it('a payroll report records the locations it adds or changes and the tasks they plan', async () => {
    const { entityId, token } = await signupWithToken(t.app, apiKey, { business_name: 'Synced Inc' });
    await connectPayroll(t.app, apiKey, entityId);
    const report = await t.app.inject({
      method: 'PUT',
      url: '/v2/payroll/employees',
      headers: bearer(token),
      payload: { regions: [{ region: 'WA', employee_count: 4 }] },
    });
    expect(report.statusCode).toBe(200);
    const events = await ofEntity(entityId, (e) => e.some((x) => x.type === 'location.updated'));
    const location = events.find((e) => e.type === 'location.updated')!;
    expect(location.data).toEqual({
      object: {
        location: expect.objectContaining({ code: 'WA' }),
        config: { has_employees: true, has_physical_location: null, employee_count: 4 },
      },
      changed: ['location', 'has_employees', 'employee_count'],
    });
    const planned = events.slice(events.indexOf(location) + 1).filter((e) => e.type === 'task.created');
    expect(planned.some((e) => e.data.object.source.region?.name === 'Washington')).toBe(true);
  });
});
