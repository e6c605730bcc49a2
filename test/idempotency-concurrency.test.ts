import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { keyRows, todoRequirement, withKey } from './helpers/idempotency.js';
import { waitUntil } from './helpers/wait.js';
import { issuesOf } from './helpers/errors.js';

describe('Idempotency-Key: two requests with one key at once', () => {
  let t: TestApp;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ entityId, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  const markDone = (taskId: string, key: string) =>
    t.app.inject({ method: 'PATCH', url: `/v2/tasks/${taskId}`, headers: withKey(bearer(token), key), payload: { status: 'done' } });
  const stateOf = async (key: string) => (await keyRows(t.db, key))[0]?.state;

  /**
   * Holds the entity's planning lock from the test's own connection (the lock every task change takes first),
   * so the first request is deterministically still running when the second arrives.
   */
  async function whilePlanningLocked<T>(work: () => Promise<T>): Promise<T> {
    return t.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(hashtextextended(${entityId}, 7))`.execute(connection);
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(hashtextextended(${entityId}, 7))`.execute(connection);
      }
    });
  }

  it('the second gets 409 with Retry-After while the first runs; after it, a replay', async () => {
    const taskId = await todoRequirement(t.app, token);
    // Wrapped: a promise returned as such would be awaited while the lock is still held.
    const { running } = await whilePlanningLocked(async () => {
      const running = markDone(taskId, 'race-1');
      await waitUntil(async () => (await stateOf('race-1')) === 'in_flight', 'the first request to claim the key');
      const second = await markDone(taskId, 'race-1');
      expect(second.statusCode).toBe(409);
      expect(second.headers['retry-after']).toBe('1');
      expect(json(second)).toEqual({ message: 'Conflict', detail: expect.stringContaining('still in progress') });
      return { running };
    });
    const first = await running;
    expect(first.statusCode).toBe(200);
    expect(json(first).task.status).toBe('done');
    expect(await stateOf('race-1')).toBe('complete');
    const third = await markDone(taskId, 'race-1');
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('fired together without a hold: exactly one runs, the other is a 409 or a replay', async () => {
    const taskId = await todoRequirement(t.app, token);
    const outcomes = await Promise.all([markDone(taskId, 'race-2'), markDone(taskId, 'race-2')]);
    const ran = outcomes.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    const other = outcomes.find((r) => r !== ran[0])!;
    expect(other.statusCode === 409 || other.headers['idempotent-replayed'] === 'true').toBe(true);
  });

  it('a claim whose process died is taken over once its lock has lapsed, not before', async () => {
    const taskId = await todoRequirement(t.app, token);
    const done = await markDone(taskId, 'dead-1');
    expect(done.statusCode).toBe(200);
    // What a process that died mid-request leaves behind: the key claimed, no response, the lock still running.
    await sql`update idempotency_keys set state = 'in_flight', response_status = null, response_headers = null, response_body = null,
      response_iv = null, response_tag = null, response_key_id = null, locked_until = now() + interval '1 minute' where key = 'dead-1'`.execute(
      t.db,
    );
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${taskId}`, headers: bearer(token), payload: { status: 'todo' } })).statusCode,
    ).toBe(200);

    expect((await markDone(taskId, 'dead-1')).statusCode).toBe(409);
    await sql`update idempotency_keys set locked_until = now() - interval '1 second' where key = 'dead-1'`.execute(t.db);
    const retried = await markDone(taskId, 'dead-1');
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(json(retried).task.status).toBe('done');
    expect(await stateOf('dead-1')).toBe('complete');
  });

  it('a lapsed claim is not taken over by a different request: that is still a 422', async () => {
    const taskId = await todoRequirement(t.app, token);
    expect((await markDone(taskId, 'dead-2')).statusCode).toBe(200);
    await sql`update idempotency_keys set state = 'in_flight', locked_until = now() - interval '1 second' where key = 'dead-2'`.execute(
      t.db,
    );
    const other = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${taskId}`,
      headers: withKey(bearer(token), 'dead-2'),
      payload: { status: 'todo' },
    });
    expect(other.statusCode).toBe(422);
    expect(issuesOf(json(other))[0]!.loc).toEqual(['header', 'idempotency-key']);
  });
});
