import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/app-http.js';
import { operatorCookie } from '../src/modules/operators/back-office.http.js';
import { createAuditModule } from '../src/modules/audit/index.js';
import { createOperatorsModule } from '../src/modules/operators/index.js';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { COOKIE, cookieSet, createOperatorKey, operatorBrowser, ORIGIN, signIn } from './helpers/back-office.js';
import { openLink } from './helpers/hosted.js';

describe('back office sign-in (/operator)', () => {
  let t: TestApp;
  let key: string;
  let apiKey: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await createOperatorKey(t.db, 'ops team')).key;
    ({ apiKey, token } = await createPlatformWithEntity(t));
  });
  afterAll(() => t.close());

  const linkFor = (name: string) =>
    createOperatorsModule({
      db: t.db,
      audit: createAuditModule({ db: t.db }).audit,
      publicBaseUrl: ORIGIN,
      now: () => new Date(Date.now()),
    }).sessions.issueLink(name);

  it("shows the sign-in form under the pages' strict policy", async () => {
    const res = await t.app.inject({ url: '/operator/sign-in' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<form method="post" action="/operator/sign-in"');
    expect(res.body).not.toContain('<script');
  });

  it('exchanges a live operator key for an HttpOnly, SameSite=Strict cookie stored only as its hash', async () => {
    const { response, browser } = await signIn(t.app, key);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/operator');
    const set = cookieSet(response)!;
    expect(set.pair).toMatch(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{40,}$`));
    expect(set.attributes).toBe('Path=/; HttpOnly; SameSite=Strict; Max-Age=43200');
    const queue = await browser!.get('/operator');
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain('Work queue');
    expect(queue.body).toContain('Signed in as ops team');
    const cookieToken = set.pair.split('=')[1]!;
    const rows = await t.db.selectFrom('operator_sessions').select(['token_hash']).execute();
    expect(rows.map((r) => r.token_hash.toString('hex'))).toContain(createHash('sha256').update(cookieToken).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(cookieToken);
  });

  it('refuses a wrong key, a revoked key and a platform key, without a cookie', async () => {
    const revoked = await createOperatorKey(t.db, 'gone');
    await createOperatorsService(t.db).revokeKey(revoked.id);
    for (const typed of ['sh_op_not-a-real-key', revoked.key, apiKey, token]) {
      const { response } = await signIn(t.app, typed);
      expect(response.statusCode, typed.slice(0, 8)).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.body).toContain('That is not a live operator key');
    }
    const { response } = await signIn(t.app, '');
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('Enter your operator key');
  });

  it('refuses a sign-in posted from another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/operator/sign-in',
      payload: `key=${encodeURIComponent(key)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('opens no page for platform credentials, operator keys in a header or hosted-page cookies; the operator cookie opens no platform route', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: { authorization: apiKey },
      payload: { ...VALID_SIGNUP_V2, authorization_callback_url: undefined },
    });
    const { browser: hosted } = await openLink(t.app, json<{ url: string }>(signup).url);
    expect(hosted).not.toBeNull();
    const credentials: Record<string, string>[] = [
      { authorization: apiKey },
      bearer(apiKey),
      bearer(token),
      bearer(key),
      { cookie: hosted!.cookie },
      { cookie: `${COOKIE}=${hosted!.cookie.split('=')[1]}` },
    ];
    for (const headers of credentials) {
      const page = await t.app.inject({ url: '/operator', headers });
      expect(page.statusCode, JSON.stringify(headers).slice(0, 40)).toBe(303);
      expect(page.headers.location).toBe('/operator/sign-in');
      const post = await t.app.inject({
        method: 'POST',
        url: '/operator/automations/aut_x/cancel',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        payload: 'reason=x',
      });
      expect(post.statusCode).toBe(401);
      expect(post.body).toContain('You are signed out');
    }
    const { browser } = await signIn(t.app, key);
    for (const url of ['/legal_entity', '/v2/tasks', '/operator/v1/audit-events']) {
      expect((await t.app.inject({ url, headers: { cookie: browser!.cookie } })).statusCode, url).toBe(401);
    }
  });

  it("refuses a form post without the session's CSRF token or from another origin", async () => {
    const { browser } = await signIn(t.app, key);
    await browser!.get('/operator');
    expect(browser!.csrf).toBeTruthy();
    expect((await browser!.post('/operator/sign-out', {}, { csrf: null })).statusCode).toBe(403);
    expect((await browser!.post('/operator/sign-out', {}, { csrf: 'forged' })).statusCode).toBe(403);
    expect((await browser!.post('/operator/sign-out', {}, { origin: 'https://evil.example' })).statusCode).toBe(403);
    // Another session's token is not this session's.
    const { browser: other } = await signIn(t.app, key);
    await other!.get('/operator');
    expect((await browser!.post('/operator/sign-out', {}, { csrf: other!.csrf })).statusCode).toBe(403);
    expect((await browser!.get('/operator')).statusCode).toBe(200);
  });

  it('signs out: the cookie is cleared and the session is gone; signing in and out are in the audit trail', async () => {
    const { browser } = await signIn(t.app, key);
    await browser!.get('/operator');
    const out = await browser!.post('/operator/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/operator/sign-in?notice=signed-out');
    expect(cookieSet(out)!.attributes).toContain('Max-Age=0');
    const after = await browser!.get('/operator');
    expect(after.statusCode).toBe(303);
    const trail = json<{ events: { action: string; subject: { id: string }; details: Record<string, unknown> }[] }>(
      await t.app.inject({ url: '/operator/v1/audit-events?subject_type=operator_session&limit=2', headers: bearer(key) }),
    );
    expect(trail.events.map((e) => e.action)).toEqual(['session.sign_out', 'session.sign_in']);
    expect(trail.events[0]!.subject.id).toBe(trail.events[1]!.subject.id);
    expect(trail.events[1]!.details).toEqual({ via: 'key' });
  });

  it('ends every session of a key when the key is revoked', async () => {
    const temp = await createOperatorKey(t.db, 'temp');
    const { browser } = await signIn(t.app, temp.key);
    expect((await browser!.get('/operator')).statusCode).toBe(200);
    await createOperatorsService(t.db).revokeKey(temp.id);
    expect((await browser!.get('/operator')).statusCode).toBe(303);
  });

  const confirmLink = (token: string, origin = ORIGIN) =>
    t.app.inject({
      method: 'POST',
      url: '/operator/link',
      payload: new URLSearchParams({ token }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    });

  it('signs a browser in once with a one-time link: opening it only shows whom it signs in, its button uses it up', async () => {
    const link = await linkFor('ops team');
    expect(link.url).toMatch(new RegExp(`^${ORIGIN}/operator/link/[A-Za-z0-9_-]{40,}$`));
    const path = new URL(link.url).pathname;
    const token = path.split('/').at(-1)!;
    // A mail scanner's GET, HEAD and prefetch: nothing is signed in, nothing used up.
    for (const method of ['GET', 'HEAD'] as const) {
      const seen = await t.app.inject({ method, url: path, headers: { purpose: 'prefetch', 'user-agent': 'SafeLinks scanner' } });
      expect(seen.statusCode).toBe(200);
      expect(seen.headers['set-cookie']).toBeUndefined();
      expect(seen.headers['x-robots-tag']).toBe('noindex');
      expect(seen.headers['cache-control']).toBe('no-store');
    }
    const page = await t.app.inject({ url: path });
    expect(page.body).toContain('as <strong>ops team</strong>');
    expect(page.body).toContain('<form method="post" action="/operator/link">');
    expect(page.body).toContain(`name="token" value="${token}"`);

    expect((await confirmLink(token, 'https://evil.example')).statusCode).toBe(403);
    const opened = await confirmLink(token);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/operator');
    const browser = operatorBrowser(t.app, cookieSet(opened)!.pair);
    expect((await browser.get('/operator')).statusCode).toBe(200);
    const again = await confirmLink(token);
    expect(again.statusCode).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('This link cannot be used');
    expect((await t.app.inject({ url: path })).statusCode).toBe(401);
  });

  it('over https the cookie is Secure with the __Host- prefix; sign-in links never reach a log line', () => {
    expect(operatorCookie(true, 'tok', 60)).toBe('__Host-statehouse_operator=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure');
    expect(redactUrl('/operator/link/Xq3secret?x=1')).toBe('/operator/link/[redacted]?x=1');
  });

  // These move the app's clock: they come last.
  it('refuses a link after 10 minutes', async () => {
    const link = await linkFor('ops team');
    t.advance(10 * 60_000 + 1000);
    const res = await t.app.inject({ url: new URL(link.url).pathname });
    expect(res.statusCode).toBe(401);
    expect((await confirmLink(new URL(link.url).pathname.split('/').at(-1)!)).statusCode).toBe(401);
  });

  it('signs out a session idle for more than 30 minutes', async () => {
    const { browser } = await signIn(t.app, key);
    t.advance(29 * 60_000);
    expect((await browser!.get('/operator')).statusCode).toBe(200);
    t.advance(29 * 60_000);
    expect((await browser!.get('/operator')).statusCode).toBe(200);
    t.advance(31 * 60_000);
    const idle = await browser!.get('/operator');
    expect(idle.statusCode).toBe(303);
    expect(idle.headers.location).toBe('/operator/sign-in');
  });
});
