import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';

type Task = {
  id: string;
  status: string;
  due_date: string | null;
  definition: { id: string; title: string; type: string; location: { code: string } };
  blocked_by: string[];
  unblocks: { id: string }[];
  criteria_met: { key: string; reason: string }[];
  tags: string[];
  priority: string;
};

describe('tasks', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  const auth = () => bearer(token);
  const list = async (query = '') => json<Task[]>(await t.app.inject({ url: `/tasks${query}`, headers: auth() }));
  const find = async (definitionId: string, region?: string) =>
    (await list()).find((x) => x.definition.id === definitionId && (!region || x.definition.location.code === region));

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        write: (l) => {
          if (l.includes('"level":50')) console.log(l.slice(0, 3000));
        },
      },
    );
    ({ apiKey, token } = await createPlatformWithEntity(t, undefined, {
      user_email: 'cfo@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2019-09-12',
    }));
  });
  afterAll(async () => t.close());

  it('signup alone plans the state of incorporation', async () => {
    const tasks = await list();
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((x) => x.definition.location.code === 'DE')).toBe(true);
    expect(tasks.every((x) => x.criteria_met.length > 0)).toBe(true);
  });

  it('adding locations plans their work, with reasons, unlocks and blocking', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: auth(),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    const qualification = await find('ca-foreign-qualification-corporation');
    expect(qualification).toBeDefined();
    expect(qualification!.criteria_met.map((c) => c.key)).toEqual(['foreign-state', 'entity-type', 'has-employees']);
    expect(qualification!.unblocks.map((u) => u.id)).toContain('ca-statement-of-information-initial-corporation');
    const initial = await find('ca-statement-of-information-initial-corporation');
    expect(initial!.blocked_by).toEqual(['ca-foreign-qualification-corporation']);
    expect(await find('ca-edd-employer-registration')).toBeDefined();
  });

  it('a location without employees gets no employer tasks; unknown settings become questions', async () => {
    await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: auth() });
    const ny = (await list()).filter((x) => x.definition.location.code === 'NY');
    // New York Secure Choice counts employees (10 or more): the head count is asked with the rest.
    expect(ny.map((x) => x.definition.id).sort()).toEqual(['employee-count', 'has-employees', 'has-physical-location']);
    expect(ny.every((x) => x.definition.type === 'criteria-collection')).toBe(true);
  });

  it('answering a question applies the fact and returns what it unlocked', async () => {
    const v2 = json<{ id: string; source: { question_id?: string; regions?: { name: string }[] } }[]>(
      await t.app.inject({ url: '/v2/tasks?region=NY&type=question', headers: auth() }),
    );
    const question = v2.find((x) => x.source.question_id === 'has-employees')!;
    const wrong = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: auth(),
      payload: { answer: '2024-01-01' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(issuesOf(json(wrong))[0]).toMatchObject({ loc: ['body', 'answer'], type: 'value_error' });

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: auth(),
      payload: { answer: true },
    });
    expect(res.statusCode).toBe(200);
    const unlocked = json<{ unlocked_tasks: { source: { requirement_id?: string; question_id?: string } }[] }>(res).unlocked_tasks;
    expect(unlocked.length).toBeGreaterThan(0);
    expect(unlocked.some((u) => u.source.requirement_id?.startsWith('ny-'))).toBe(true);
    const location = json<{ location: { code: string }; config: { has_employees: boolean } }[]>(
      await t.app.inject({ url: '/locations', headers: auth() }),
    ).find((l) => l.location.code === 'NY')!;
    expect(location.config.has_employees).toBe(true);
    const answered = json<{ status: string; source: { answer: string } }>(
      await t.app.inject({ url: `/v2/tasks/${question.id}`, headers: auth() }),
    );
    expect(answered).toMatchObject({ status: 'done', source: { answer: 'true' } });
  });

  it('PATCH /v2/tasks/questions/{id} refuses a registration or start date more than one year ahead (422)', async () => {
    const question = (await list()).find(
      (x) => ['registration-date', 'operations-start-date'].includes(x.definition.id) && x.status === 'todo',
    )!;
    const patch = (answer: string) =>
      t.app.inject({ method: 'PATCH', url: `/v2/tasks/questions/${question.id}`, headers: auth(), payload: { answer } });
    const far = await patch('2031-01-01');
    expect(far.statusCode).toBe(422);
    expect(issuesOf(json(far))[0]).toMatchObject({ loc: ['body', 'answer'], type: 'value_error' });
    expect(JSON.stringify(json(far))).toContain('more than one year in the future');
    expect((await t.app.inject({ url: `/v2/tasks/${question.id}`, headers: auth() })).body).toContain('"status":"todo"');
    // (A date within the year is accepted: test/task-answers.test.ts; answering here would change the later tests' tasks.)
  });

  it('GET /tasks filters by status (repeated), tags (any of), definition and due dates', async () => {
    const all = await list();
    const first = all.find((x) => x.due_date)!;
    expect((await list(`?definition_id=${first.definition.id}`)).every((x) => x.definition.id === first.definition.id)).toBe(true);
    const dated = await list(`?start_date=${first.due_date}&end_date=${first.due_date}`);
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.every((x) => x.due_date === first.due_date)).toBe(true);
    const tagged = await list('?tags=foreign-qualification&tags=registered-agent');
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((x) => x.tags.includes('foreign-qualification') || x.tags.includes('registered-agent'))).toBe(true);
    expect((await list('?status=done')).map((x) => x.status)).toEqual(['done']);
    expect((await list('?status=todo&status=done')).length).toBe(all.length);
    const bad = await t.app.inject({ url: '/tasks?status=finished&start_date=tomorrow', headers: auth() });
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['query', 'start_date'],
      ['query', 'status', 0],
    ]);
  });

  it('GET /tasks is ordered by importance', async () => {
    const tasks = await list();
    const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    const open = tasks.filter((x) => x.status === 'todo' || x.status === 'in-progress');
    const firstClosed = tasks.findIndex((x) => x.status === 'done' || x.status === 'dismissed');
    if (firstClosed >= 0) expect(tasks.slice(firstClosed).every((x) => x.status === 'done' || x.status === 'dismissed')).toBe(true);
    // Among open tasks that are neither overdue nor due soon and block nothing, priority never goes up.
    const calm = open.filter(
      (x) => (!x.due_date || x.due_date > '2027-01-31') && x.unblocks.length === 0 && x.definition.type === 'requirement',
    );
    for (let i = 1; i < calm.length; i++) expect(rank[calm[i]!.priority]!).toBeGreaterThanOrEqual(rank[calm[i - 1]!.priority]!);
    // Requirements that unblock others come before those that do not, at the same urgency (a question always
    // ranks as one others wait for: the requirements it decides).
    const undated = open.filter((x) => !x.due_date && x.definition.type === 'requirement');
    const lastBlocker = undated.map((x) => x.unblocks.length > 0).lastIndexOf(true);
    const firstFree = undated.map((x) => x.unblocks.length > 0).indexOf(false);
    if (lastBlocker >= 0 && firstFree >= 0) expect(lastBlocker).toBeLessThan(firstFree);
  });

  it('GET /locations/{id}/tasks is ordered by due date with undated tasks first', async () => {
    const res = await t.app.inject({ url: '/locations/99be5e8f54c4680d/tasks', headers: auth() });
    expect(res.statusCode).toBe(200);
    const tasks = json<Task[]>(res);
    expect(tasks.every((x) => x.definition.location.code === 'CA')).toBe(true);
    const dates = tasks.map((x) => x.due_date);
    const firstDated = dates.findIndex((d) => d !== null);
    if (firstDated >= 0) {
      expect(dates.slice(firstDated).every((d) => d !== null)).toBe(true);
      const dated = dates.slice(firstDated) as string[];
      expect([...dated].sort()).toEqual(dated);
    }
    expect((await t.app.inject({ url: '/locations/0000000000000000/tasks', headers: auth() })).statusCode).toBe(404);
  });

  it('PATCH /tasks/{id} validates transitions', async () => {
    const task = (await find('ca-registered-agent'))!;
    const patch = (status: string) => t.app.inject({ method: 'PATCH', url: `/tasks/${task.id}`, headers: auth(), payload: { status } });
    expect(json(await patch('in-progress')).status).toBe('in-progress');
    expect(json(await patch('done')).status).toBe('done');
    const illegal = await patch('dismissed');
    expect(illegal.statusCode).toBe(409);
    expect(json(illegal).detail).toMatch(/cannot move from done to dismissed/);
    expect(json(await patch('todo')).status).toBe('todo');
    expect(json(await patch('dismissed')).status).toBe('dismissed');
    const v2 = json<{ status: string }>(await t.app.inject({ url: `/v2/tasks/${task.id}`, headers: auth() }));
    expect(v2.status).toBe('deferred');
    expect((await patch('done')).statusCode).toBe(409);
    expect((await patch('paused')).statusCode).toBe(422);
  });

  it('PATCH /v2/tasks/{id} marks done and returns what it unlocked', async () => {
    const qualification = (await find('ca-foreign-qualification-corporation'))!;
    const res = await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${qualification.id}`, headers: auth(), payload: { status: 'done' } });
    expect(res.statusCode).toBe(200);
    const body = json<{ task: { status: string }; unlocked_tasks: { source: { requirement_id: string; due_date: string | null } }[] }>(res);
    expect(body.task.status).toBe('done');
    const initial = (await find('ca-statement-of-information-initial-corporation'))!;
    expect(initial.blocked_by).toEqual([]);
    expect(initial.due_date).not.toBeNull(); // 90 days after the registration (the day qualification was done)
    const question = (await list()).find((x) => x.definition.id === 'has-employees')!;
    const onQuestion = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${question.id}`,
      headers: auth(),
      payload: { status: 'done' },
    });
    expect(onQuestion.statusCode).toBe(409);
    expect(json(onQuestion)).toMatchObject({ message: 'Conflict' });
    const notAllowed = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${qualification.id}`,
      headers: auth(),
      payload: { status: 'in-progress' },
    });
    expect(notAllowed.statusCode).toBe(422);
  });

  it('GET /v2/tasks paginates with headers', async () => {
    const res = await t.app.inject({ url: '/v2/tasks?page_size=2', headers: auth() });
    const total = Number(res.headers['x-total']);
    expect(total).toBeGreaterThan(2);
    expect(res.headers['x-page-size']).toBe('2');
    expect(res.headers['x-page']).toBe('1');
    expect(res.headers['x-next-page']).toBe('/v2/tasks?page_size=2&page_num=2');
    // The names the reference v2 document gives this operation (List_Tasks_v2_tasks_get's description), same values.
    expect(res.headers['x-mosey-page-size']).toBe('2');
    expect(res.headers['x-mosey-page']).toBe('1');
    expect(res.headers['x-mosey-total']).toBe(String(total));
    expect(res.headers['x-mosey-next-page']).toBe('/v2/tasks?page_size=2&page_num=2');
    expect(json<unknown[]>(res)).toHaveLength(2);
    const last = Math.ceil(total / 2);
    const end = await t.app.inject({ url: `/v2/tasks?page_size=2&page_num=${last}`, headers: auth() });
    expect(end.headers['x-next-page']).toBeUndefined();
    expect(end.headers['x-mosey-next-page']).toBeUndefined();
    expect(end.headers['x-mosey-page']).toBe(String(last));
    const all = json<{ id: string }[]>(await t.app.inject({ url: '/v2/tasks?page_size=500', headers: auth() }));
    expect(new Set(all.map((x) => x.id)).size).toBe(total);
  });

  it("another entity's task is a 404 everywhere", async () => {
    const mine = (await list())[0]!;
    const other = await signupWithToken(t.app, apiKey, {
      user_email: 'o@example.com',
      business_name: 'Other',
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'TX',
      incorporated_date: '2022-02-02',
    });
    const otherToken = bearer(other.token);
    for (const [method, url, payload] of [
      ['GET', `/tasks/${mine.id}`, undefined],
      ['PATCH', `/tasks/${mine.id}`, { status: 'done' }],
      ['GET', `/v2/tasks/${mine.id}`, undefined],
      ['PATCH', `/v2/tasks/${mine.id}`, { status: 'done' }],
      ['PATCH', `/v2/tasks/questions/${mine.id}`, { answer: true }],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: otherToken, ...(payload && { payload }) })).statusCode).toBe(404);
    }
    expect((await list()).find((x) => x.id === mine.id)!.status).toBe(mine.status);
  });

  it('regeneration is idempotent, also under concurrent requests', async () => {
    const before = (await list()).map((x) => x.id).sort();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.app.inject({
          method: 'PATCH',
          url: '/locations/CA',
          headers: auth(),
          payload: { config: { has_physical_location: i % 2 === 0 } },
        }),
      ),
    );
    await t.app.inject({ method: 'PATCH', url: '/locations/CA', headers: auth(), payload: { config: { has_physical_location: true } } });
    const after = await list();
    // Tasks that never depended on the premises keep their ids; those that did (a seller's permit) were removed
    // while the location had none and are back, once each.
    // (A city's question is asked once the rest of its tax's criteria hold: with the premises too.)
    const premises = (x: Task) => x.criteria_met.some((c) => c.key === 'has-physical-location') || x.definition.id === 'in-locality';
    const beforeIds = new Set(before);
    expect(after.filter((x) => !premises(x)).every((x) => beforeIds.has(x.id))).toBe(true);
    expect(after.length).toBe(before.length);
    // One question per locality: its title names the city.
    const keys = after.map((x) => `${x.definition.id}|${x.definition.title}|${x.definition.location.code}|${x.due_date}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a cached list is never stale, even when another process changed the tasks', async () => {
    const first = await list('?status=todo');
    const target = first[0]!;
    expect(await list('?status=todo')).toEqual(first); // served again (from the cache)
    // Another Statehouse process sharing the database changes the task: this process must notice.
    await t.db.updateTable('tasks').set({ status: 'done', updated_at: new Date() }).where('id', '=', target.id).execute();
    expect((await list('?status=todo')).some((x) => x.id === target.id)).toBe(false);
    await t.db.updateTable('tasks').set({ status: 'todo', updated_at: new Date() }).where('id', '=', target.id).execute();
    expect((await list('?status=todo')).some((x) => x.id === target.id)).toBe(true);
  });

  it('tasks that stop applying disappear unless someone acted on them', async () => {
    const edd = (await find('ca-edd-employer-registration'))!;
    await t.app.inject({ method: 'PATCH', url: `/tasks/${edd.id}`, headers: auth(), payload: { status: 'in-progress' } });
    await t.app.inject({ method: 'PATCH', url: '/locations/CA', headers: auth(), payload: { config: { has_employees: false } } });
    const tasks = await list();
    expect(tasks.find((x) => x.id === edd.id)?.status).toBe('in-progress'); // kept: someone acted on it
    expect(tasks.find((x) => x.definition.id === 'ca-new-hire-reporting')).toBeUndefined(); // untouched: gone
    await t.app.inject({ method: 'PATCH', url: '/locations/CA', headers: auth(), payload: { config: { has_employees: true } } });
    expect(await find('ca-new-hire-reporting')).toBeDefined();
    expect((await find('ca-edd-employer-registration'))!.id).toBe(edd.id);
  });
});
