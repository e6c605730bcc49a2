import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackOrigins } from '../src/modules/platforms/callback-origins.js';
import {
  bearer,
  createPlatformWithEntity,
  createTestApp,
  json,
  VALID_SIGNUP_EMBEDDED,
  VALID_SIGNUP_V2,
  type TestApp,
} from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';
import { finishSignup } from './helpers/hosted.js';

// A mobile app's deep link as callback URL on every callback operation of the reference
// (docs/decisions/0076-reference-valid-requests.md): accepted where the platform registered its scheme, and in
// development where nothing is registered; javascript:, data:, vbscript:, file: and relative URLs never.
const DEEP_LINK = 'myapp://tasks';

type Who = { apiKey: string; entityId: string; token: string };
interface Operation {
  url: string | ((who: Who) => string);
  field?: string;
  key?: boolean;
  body?: (who: Who) => Record<string, unknown>;
  /** Operations on an id the test does not make: the callback passes validation, then the id is not found. */
  notFound?: boolean;
}

const signupBody = { business_name: 'Deep Link Co', user_email: 'owner@deeplink.example' };
const OPERATIONS: Operation[] = [
  { url: '/accounts/signup', key: true, field: 'authorization_callback_url', body: () => ({ ...VALID_SIGNUP_EMBEDDED }) },
  { url: '/v2/signup', key: true, field: 'authorization_callback_url', body: () => ({ ...VALID_SIGNUP_V2 }) },
  { url: '/accounts/signup/sessions', key: true, body: () => signupBody },
  { url: '/v2/signup/sessions', key: true, body: () => signupBody },
  { url: '/v2/signup/session', key: true, body: () => signupBody },
  { url: '/v2/auth/payroll', key: true, field: 'authorization_callback_url', body: (w) => ({ legal_entity_id: w.entityId }) },
  { url: '/tasks/sessions' },
  { url: '/v2/tasks/manage/session', body: () => ({ task_type: 'requirement' }) },
  { url: '/v2/handbook/automate/sessions' },
  { url: '/v2/handbook/session' },
  { url: '/v2/accounts/manage/session' },
  { url: '/v2/documents/manage/session' },
  { url: '/tasks/t_unknown/automate/sessions', notFound: true },
  { url: '/v2/tasks/t_unknown/session', notFound: true },
  { url: '/logins/lg_unknown/sessions', notFound: true },
  { url: '/v2/logins/lg_unknown/session', notFound: true },
];

const call = (t: TestApp, op: Operation, who: Who, callback: string) => {
  const field = op.field ?? 'callback_url';
  return t.app.inject({
    method: 'POST',
    url: typeof op.url === 'string' ? op.url : op.url(who),
    headers: op.key ? { authorization: who.apiKey } : bearer(who.token),
    payload: { ...(op.body?.(who) ?? {}), [field]: callback },
  });
};

describe('callback URLs: a mobile app deep link', () => {
  let t: TestApp;
  let open: Who;
  let registered: Who & { platformId: string };
  let webOnly: Who;

  beforeAll(async () => {
    t = await createTestApp();
    open = await createPlatformWithEntity(t, 'Open Payroll');
    registered = await createPlatformWithEntity(t, 'App Payroll');
    await createCallbackOrigins(t.db).add(registered.platformId, 'myapp://');
    const web = await createPlatformWithEntity(t, 'Web Payroll');
    await createCallbackOrigins(t.db).add(web.platformId, 'https://app.web.example');
    webOnly = web;
  });
  afterAll(async () => t.close());

  for (const op of OPERATIONS) {
    const name = `POST ${typeof op.url === 'string' ? op.url : 'op'}`;
    it(`${name}: ${DEEP_LINK} is served where nothing is registered and where myapp:// is; refused where only https is`, async () => {
      for (const who of [open, registered]) {
        const res = await call(t, op, who, DEEP_LINK);
        expect(res.statusCode, res.body).toBe(op.notFound ? 404 : 200);
      }
      const refused = await call(t, op, webOnly, DEEP_LINK);
      if (op.notFound) expect(refused.statusCode).toBe(404);
      else {
        expect(refused.statusCode, refused.body).toBe(422);
        expect(issuesOf(json(refused))[0]).toMatchObject({
          loc: ['body', op.field ?? 'callback_url'],
          input: DEEP_LINK,
          msg: expect.stringContaining('myapp:// is not among'),
        });
      }
    });

    it(`${name}: javascript:, data:, vbscript:, file: and relative URLs are refused, saying why`, async () => {
      for (const bad of ['javascript:alert(1)', 'JavaScript://%0aalert(1)', 'data:text/html,hi', 'vbscript:msgbox', 'file:///etc/passwd']) {
        const res = await call(t, op, registered, bad);
        expect(res.statusCode, bad).toBe(422);
        const scheme = bad.split(':')[0]!.toLowerCase();
        expect(issuesOf(json(res))[0]).toMatchObject({
          type: 'url_scheme',
          loc: ['body', op.field ?? 'callback_url'],
          msg: expect.stringContaining(`cannot use the '${scheme}:' scheme`),
        });
      }
      for (const relative of ['/done', 'done', '//evil.example/x']) {
        const res = await call(t, op, registered, relative);
        expect(res.statusCode, relative).toBe(422);
        expect(issuesOf(json(res))[0]).toMatchObject({ type: 'url_parsing', msg: expect.stringContaining('must be absolute') });
      }
    });
  }

  it('the hosted signup redirects to the deep link when done (303, the result in its query)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/signup/sessions',
      headers: { authorization: registered.apiKey },
      payload: { ...signupBody, callback_url: DEEP_LINK },
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = await finishSignup(t.app, json(res).url);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`myapp://tasks?legal_entity_id=${json(res).legal_entity_id}&status=complete`);
  });
});

describe('callback URLs in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ environment: 'production' });
  });
  afterAll(async () => t.close());

  it('a deep link is accepted only once its scheme is registered (statehouse platforms callbacks add … myapp://)', async () => {
    const who = await createPlatformWithEntity(t, 'Prod Payroll');
    const op = OPERATIONS.find((o) => o.url === '/v2/tasks/manage/session')!;
    const before = await call(t, op, who, DEEP_LINK);
    expect(before.statusCode).toBe(422);
    expect(issuesOf(json(before))[0]!.msg).toContain('statehouse platforms callbacks add');
    await createCallbackOrigins(t.db).add(who.platformId, 'myapp:');
    expect((await call(t, op, who, DEEP_LINK)).statusCode).toBe(200);
    expect((await call(t, op, who, 'otherapp://tasks')).statusCode).toBe(422);
  });
});
