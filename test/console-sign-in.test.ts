import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/app-http.js';
import { consoleCookie } from '../src/modules/console/console.http.js';
import { createPlatform, createTestApp, type TestApp } from './helpers/app.js';
import { cookieSet } from './helpers/back-office.js';
import { runCli } from './helpers/cli.js';
import { acceptInvite, CONSOLE_COOKIE, consoleSignIn, inviteLink, ORIGIN, PASSWORD } from './helpers/console.js';

describe('console sign-in (/console)', () => {
  let t: TestApp;
  let platformId: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ platformId, apiKey } = await createPlatform(t.db, 'Acme Payroll'));
  });
  afterAll(() => t.close());

  it('the first admin: a one-time invitation link, a password stored only as a scrypt hash, then a session', async () => {
    const invite = await inviteLink(t.db, platformId, 'ada@acme.example');
    expect(invite.url).toMatch(new RegExp(`^${ORIGIN}/console/invite/[A-Za-z0-9_-]{40,}$`));
    expect(invite.role).toBe('admin');
    const token = invite.url.split('/').at(-1)!;
    const stored = await t.db.selectFrom('console_invites').select(['token_hash']).execute();
    expect(stored.map((r) => r.token_hash.toString('hex'))).toContain(createHash('sha256').update(token).digest('hex'));

    // Opening the link spends nothing (mail scanners open links); a too-short password is asked again.
    expect((await t.app.inject({ url: `/console/invite/${token}` })).statusCode).toBe(200);
    const short = await t.app.inject({
      method: 'POST',
      url: '/console/invite',
      payload: new URLSearchParams({ token, password: 'short', confirm: 'short' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('Use at least 12 characters');

    const { response, browser } = await acceptInvite(t.app, invite.url);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/console');
    const set = cookieSet(response)!;
    expect(set.pair).toMatch(new RegExp(`^${CONSOLE_COOKIE}=[A-Za-z0-9_-]{40,}$`));
    expect(set.attributes).toBe('Path=/; HttpOnly; SameSite=Lax; Max-Age=43200');
    const home = await browser!.get('/console');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Acme Payroll');
    expect(home.body).toContain('ada@acme.example (Admin)');

    const [user] = await t.db.selectFrom('console_users').selectAll().where('email', '=', 'ada@acme.example').execute();
    expect(user!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(user!.password_hash).not.toContain(PASSWORD);

    // The link worked once.
    expect((await acceptInvite(t.app, invite.url)).response.statusCode).toBe(401);
  });

  it('signs in with e-mail and password; every refusal is the same generic 401 without a cookie', async () => {
    const ok = await consoleSignIn(t.app, 'ADA@acme.example');
    expect(ok.response.statusCode).toBe(303);
    for (const [email, password] of [
      ['ada@acme.example', 'wrong password here'],
      ['nobody@acme.example', PASSWORD],
      ['ada@acme.example', apiKey],
    ] as const) {
      const { response } = await consoleSignIn(t.app, email, password);
      expect(response.statusCode).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.body).toContain('That e-mail and password do not match an account');
    }
    expect((await consoleSignIn(t.app, '', '')).response.statusCode).toBe(422);
  });

  it('refuses a sign-in from another origin, and form posts without the CSRF token or from another origin', async () => {
    expect((await consoleSignIn(t.app, 'ada@acme.example', PASSWORD, 'https://evil.example')).response.statusCode).toBe(403);
    const { browser } = await consoleSignIn(t.app, 'ada@acme.example');
    await browser!.get('/console/api-keys');
    expect((await browser!.post('/console/api-keys', {}, { csrf: null })).statusCode).toBe(403);
    expect((await browser!.post('/console/api-keys', {}, { csrf: 'forged' })).statusCode).toBe(403);
    expect((await browser!.post('/console/api-keys', {}, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await browser!.post('/console/api-keys', {})).statusCode).toBe(200);
  });

  it('opens nothing without the cookie: pages go to sign-in, posts are 401; an API key is not a console credential', async () => {
    const page = await t.app.inject({ url: '/console/api-keys', headers: { authorization: `Bearer ${apiKey}` } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/console/sign-in');
    const post = await t.app.inject({
      method: 'POST',
      url: '/console/api-keys',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, authorization: `Bearer ${apiKey}` },
      payload: '',
    });
    expect(post.statusCode).toBe(401);
  });

  it('signs out: the session is gone, the cookie cleared, and the sign-out is audited', async () => {
    const { browser } = await consoleSignIn(t.app, 'ada@acme.example');
    await browser!.get('/console');
    const out = await browser!.post('/console/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/console/sign-in?notice=signed-out');
    expect(cookieSet(out)!.attributes).toContain('Max-Age=0');
    expect((await browser!.get('/console')).statusCode).toBe(303);
    const actions = await t.db.selectFrom('console_audit_events').select('action').where('platform_id', '=', platformId).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['console_user.join', 'session.sign_in', 'session.sign_out']));
  });

  it('CLI: `console invite` prints a one-time link for the first admin (refusing an unknown role)', async () => {
    const env = { DATABASE_URL: t.url, PUBLIC_BASE_URL: ORIGIN };
    const invited = await runCli(['console', 'invite', '--platform', platformId, '--email', 'cli@acme.example'], env);
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stderr).toContain('(admin); it works once');
    const url = invited.stdout.trim();
    expect(url).toMatch(/^http:\/\/statehouse\.test\/console\/invite\/[A-Za-z0-9_-]{40,}$/);
    expect((await acceptInvite(t.app, url)).response.statusCode).toBe(303);
    expect((await runCli(['console', 'invite', '--platform', platformId, '--email', 'y@acme.example', '--role', 'owner'], env)).code).toBe(
      2,
    );
  });

  it('over https the cookie is Secure with the __Host- prefix; invitation links never reach a log line', () => {
    expect(consoleCookie(true, 'tok', 60)).toBe('__Host-statehouse_console=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure');
    expect(redactUrl('/console/invite/Xq3secret?x=1')).toBe('/console/invite/[redacted]?x=1');
  });

  // Moves the app's clock: it comes last.
  it('an invitation expires after 24 hours, and a session after 30 minutes idle', async () => {
    const invite = await inviteLink(t.db, platformId, 'late@acme.example', 'developer');
    const { browser } = await consoleSignIn(t.app, 'ada@acme.example');
    expect((await browser!.get('/console')).statusCode).toBe(200);
    t.advance(31 * 60_000);
    expect((await browser!.get('/console')).statusCode).toBe(303);
    t.advance(24 * 3_600_000);
    expect((await acceptInvite(t.app, invite.url)).response.statusCode).toBe(401);
  });
});
