import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../src/db/database.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

/** Where the wrapped clients put what they send (null: nowhere). */
let sink: string[] | null = null;
const wrapped = new WeakSet<pg.PoolClient>();
const wrap = (client: pg.PoolClient | undefined) => {
  if (client && !wrapped.has(client)) {
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text) sink?.push(text);
      return query(...args);
    };
  }
  return client;
};

/** Every statement the app sends to PostgreSQL while `work` runs (each client of the test app's pool, wrapped). */
async function statementsDuring(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const pool = poolOf(t.db)!;
  type Callback = (error: Error | undefined, client?: pg.PoolClient, done?: unknown) => void;
  const connect = pool.connect.bind(pool) as (callback?: Callback) => unknown;
  // pool.query connects with a callback, Kysely with a promise.
  pool.connect = ((callback?: Callback) =>
    callback
      ? connect((error, client, done) => callback(error, wrap(client), done))
      : (connect() as Promise<pg.PoolClient>).then(wrap)) as typeof pool.connect;
  const seen: string[] = [];
  sink = seen;
  try {
    await work();
  } finally {
    sink = null;
    pool.connect = connect as typeof pool.connect;
  }
  return seen;
}

const planningLocks = (statements: string[]) => statements.filter((s) => s.includes('pg_advisory_xact_lock'));
/** A read of one task by its id (the tasks repository's findTask). */
const taskReads = (statements: string[]) => statements.filter((s) => /^select \* from "tasks" where .*"id" = \$/.test(s));
/** A read of all of an entity's tasks. */
const listReads = (statements: string[]) =>
  statements.filter((s) => /^select \* from "tasks" where "legal_entity_id" (= \$1|in \([$\d, ]+\))$/.test(s));

describe('a task status change (PATCH /tasks/{id}, PATCH /v2/tasks/{id})', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ token } = await createPlatformWithEntity(t, undefined, {
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
    }));
  });
  afterAll(() => t.close());

  const todoRequirement = async () => {
    const tasks = json<{ id: string; status: string; definition: { type: string } }[]>(
      await t.app.inject({ url: '/tasks?status=todo', headers: bearer(token) }),
    ).filter((x) => x.definition.type === 'requirement');
    expect(tasks.length).toBeGreaterThan(0);
    return tasks[0]!.id;
  };

  it('takes the entity planning lock once and reads the task once', async () => {
    const id = await todoRequirement();
    let status = 0;
    const statements = await statementsDuring(t, async () => {
      status = (await t.app.inject({ method: 'PATCH', url: `/tasks/${id}`, headers: bearer(token), payload: { status: 'in-progress' } }))
        .statusCode;
    });
    expect(status).toBe(200);
    expect(planningLocks(statements)).toHaveLength(1);
    expect(taskReads(statements)).toHaveLength(1);
    // The re-planning's read of the entity's tasks; the change reads no list of its own.
    expect(listReads(statements)).toHaveLength(1);
  });

  it('the v2 operation too, and answers the task as changed', async () => {
    const id = await todoRequirement();
    let body: { task: { id: string; status: string } } | undefined;
    const statements = await statementsDuring(t, async () => {
      body = json(await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${id}`, headers: bearer(token), payload: { status: 'done' } }));
    });
    expect(body?.task).toMatchObject({ id, status: 'done' });
    expect(planningLocks(statements)).toHaveLength(1);
    expect(taskReads(statements)).toHaveLength(1);
  });
});
