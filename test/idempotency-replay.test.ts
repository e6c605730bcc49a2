import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createTestApp, json, signupWithToken, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { entityCount, keyRows, todoRequirement, withKey } from './helpers/idempotency.js';
import { issuesOf } from './helpers/errors.js';

describe('Idempotency-Key: the same request again gets the stored response', () => {
  let t: TestApp;
  let platform: Awaited<ReturnType<typeof createPlatform>>;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    platform = await createPlatform(t.db);
    ({ token } = await signupWithToken(t.app, platform.apiKey));
  });
  afterAll(async () => t.close());

  const signup = (key: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: { ...withKey({ authorization: platform.apiKey }, key), 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('a second POST /v2/signup with the key replays the first answer byte for byte and creates no second entity', async () => {
    const before = await entityCount(t.db, platform.platformId);
    const first = await signup('signup-1', { ...VALID_SIGNUP_V2, business_name: 'Replay Widgets Inc' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await entityCount(t.db, platform.platformId)).toBe(before + 1);

    // The same members in another order and spacing are the same request.
    const reordered = Object.fromEntries(Object.entries({ ...VALID_SIGNUP_V2, business_name: 'Replay Widgets Inc' }).reverse());
    const again = await signup('signup-1', JSON.stringify(reordered, null, 2));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await entityCount(t.db, platform.platformId)).toBe(before + 1);

    // Another key is another request: a second entity.
    const other = await signup('signup-2', { ...VALID_SIGNUP_V2, business_name: 'Replay Widgets Inc' });
    expect(json(other).legal_entity_id).not.toBe(json(first).legal_entity_id);
    expect(await entityCount(t.db, platform.platformId)).toBe(before + 2);
  });

  it("the key with another body is a 422 on the header, in the operation's usual shape", async () => {
    await signup('signup-3', { ...VALID_SIGNUP_V2, business_name: 'First Body Inc' });
    const before = await entityCount(t.db, platform.platformId);
    const changed = await signup('signup-3', { ...VALID_SIGNUP_V2, business_name: 'Second Body Inc' });
    expect(changed.statusCode).toBe(422);
    expect(json(changed)).toEqual({
      message: 'Validation error',
      detail: [
        expect.objectContaining({
          type: 'value_error',
          loc: ['header', 'idempotency-key'],
          input: 'signup-3',
          msg: expect.stringContaining('different request'),
        }),
      ],
      body: { ...VALID_SIGNUP_V2, business_name: 'Second Body Inc' },
    });
    expect(await entityCount(t.db, platform.platformId)).toBe(before);

    // Same body, another operation (a query parameter changes the answer): also another request.
    const verbose = await t.app.inject({
      method: 'POST',
      url: '/v2/signup?verbose=true',
      headers: withKey({ authorization: platform.apiKey }, 'signup-3'),
      payload: { ...VALID_SIGNUP_V2, business_name: 'First Body Inc' },
    });
    expect(verbose.statusCode).toBe(422);
  });

  it('PATCH: the replay answers as the first time and does not apply the change again', async () => {
    const taskId = await todoRequirement(t.app, token);
    const patch = (status: string, key?: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/v2/tasks/${taskId}`,
        headers: key ? withKey(bearer(token), key) : bearer(token),
        payload: { status },
      });
    const done = await patch('done', 'patch-1');
    expect(done.statusCode).toBe(200);
    expect(json(done).task.status).toBe('done');
    // Reopened by a later request; the retried "done" must not close it again.
    expect((await patch('todo')).statusCode).toBe(200);
    const replay = await patch('done', 'patch-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.rawPayload.equals(done.rawPayload)).toBe(true);
    const task = json(await t.app.inject({ url: `/v2/tasks/${taskId}`, headers: bearer(token) }));
    expect(task.status).toBe('todo');
    // The same key on the same route for another task is another request.
    const otherTask = await todoRequirement(t.app, token, [taskId]);
    const elsewhere = await t.app.inject({
      method: 'PATCH',
      url: `/v2/tasks/${otherTask}`,
      headers: withKey(bearer(token), 'patch-1'),
      payload: { status: 'done' },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(issuesOf(json(elsewhere))[0]!.loc).toEqual(['header', 'idempotency-key']);
  });

  it('a refusal by the operation itself (404) is stored and replayed too', async () => {
    const missing = () =>
      t.app.inject({
        method: 'PATCH',
        url: '/v2/tasks/tsk_missing',
        headers: withKey(bearer(token), 'missing-1'),
        payload: { status: 'done' },
      });
    const first = await missing();
    expect(first.statusCode).toBe(404);
    const again = await missing();
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('stores the response sealed, never in clear', async () => {
    const rows = await keyRows(t.db, 'signup-1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ scope: `platform:${platform.platformId}`, state: 'complete', response_status: 200 });
    expect(rows[0]!.response_body!.toString('latin1')).not.toContain('legal_entity_id');
  });

  it('requests without the header store nothing', async () => {
    const stored = (await keyRows(t.db)).length;
    await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: platform.apiKey }, payload: VALID_SIGNUP_V2 });
    await t.app.inject({ method: 'PATCH', url: '/v2/tasks/tsk_missing', headers: bearer(token), payload: { status: 'done' } });
    expect(await keyRows(t.db)).toHaveLength(stored);
  });
});
