import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackOrigins } from '../src/modules/platforms/callback-origins.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';

// The session operations share one helper (hosted-sessions' issueForCallback): each checks the platform's
// callback origins on its own field, issues no link when refused, and gives links the configured lifetime.
describe('session operations: callback origin, then a link of HOSTED_SESSION_TTL_SECONDS', () => {
  const TTL_SECONDS = 900;
  const ALLOWED = 'https://app.strict.example/back';
  const REFUSED = 'https://evil.example/back';
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ hostedSessionTtlSeconds: TTL_SECONDS });
    let platformId: string;
    ({ apiKey, platformId, entityId, token } = await createPlatformWithEntity(t, 'Strict Payroll'));
    await createCallbackOrigins(t.db).add(platformId, 'https://app.strict.example');
  });
  afterAll(async () => t.close());

  const links = async () =>
    Number(
      (
        await t.db
          .selectFrom('hosted_sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const operations = [
    { url: '/tasks/sessions', body: (cb: string) => ({ callback_url: cb }) },
    { url: '/v2/tasks/manage/session', body: (cb: string) => ({ callback_url: cb, task_type: 'requirement' }) },
    { url: '/v2/documents/manage/session', body: (cb: string) => ({ callback_url: cb }) },
    { url: '/v2/accounts/manage/session', body: (cb: string) => ({ callback_url: cb }) },
  ];

  for (const op of operations) {
    it(`POST ${op.url}: a refused callback is a 422 on body.callback_url and issues no link; an allowed one a link`, async () => {
      const before = await links();
      const refused = await t.app.inject({ method: 'POST', url: op.url, headers: bearer(token), payload: op.body(REFUSED) });
      expect(refused.statusCode).toBe(422);
      expect(issuesOf(json(refused))).toEqual([
        expect.objectContaining({ type: 'value_error', loc: ['body', 'callback_url'], input: REFUSED }),
      ]);
      expect(await links()).toBe(before);

      const allowed = await t.app.inject({ method: 'POST', url: op.url, headers: bearer(token), payload: op.body(ALLOWED) });
      expect(allowed.statusCode, allowed.body).toBe(200);
      const link = json(allowed);
      expect(Object.keys(link).sort()).toEqual(['created_at', 'expires_at', 'url']);
      expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(TTL_SECONDS * 1000);
      expect(await links()).toBe(before + 1);
    });
  }

  it('POST /v2/tasks/manage/session refuses a callback in the PlatformHttpException shape of its other 422s', async () => {
    const payload = { callback_url: REFUSED, task_type: 'requirement' };
    const refused = json(await t.app.inject({ method: 'POST', url: '/v2/tasks/manage/session', headers: bearer(token), payload }));
    expect(refused).toMatchObject({
      message: 'Validation error',
      detail: expect.stringMatching(/^body\.callback_url: Value error, /),
      errors: [{ loc: ['body', 'callback_url'] }],
    });
  });

  it('POST /v2/auth/payroll checks authorization_callback_url', async () => {
    const before = await links();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/payroll',
      headers: { authorization: apiKey },
      payload: { legal_entity_id: entityId, authorization_callback_url: REFUSED },
    });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'authorization_callback_url'], input: REFUSED });
    expect(await links()).toBe(before);
  });
});
