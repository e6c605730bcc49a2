import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';

// Mail security scanners (and link previews, prefetchers) fetch a link before its person does. Opening a hosted
// link therefore only shows a page naming the platform and what the link opens; its button, a same-origin POST
// of the token, is what uses the link up.
describe('hosted links survive mail scanners: GET shows a confirmation, only its POST uses the link', () => {
  const ORIGIN = 'http://statehouse.test';
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ token } = await createPlatformWithEntity(t, 'Acme Payroll'));
  });
  afterAll(async () => t.close());

  const newLink = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = json<{ url: string }>(res).url;
    return { url, path: new URL(url).pathname, secret: new URL(url).pathname.split('/').at(-1)! };
  };
  const confirm = (secret: string, headers: Record<string, string> = { origin: ORIGIN }) =>
    t.app.inject({
      method: 'POST',
      url: '/hosted/s',
      payload: new URLSearchParams({ token: secret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('a GET shows the platform, what the link opens and one button; another GET still works; nothing is signed in', async () => {
    const link = await newLink();
    for (let i = 0; i < 2; i++) {
      const page = await t.app.inject({ url: link.path });
      expect(page.statusCode).toBe(200);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['x-robots-tag']).toBe('noindex');
      expect(page.headers['content-security-policy']).toContain("form-action 'self'");
      expect(page.body).toContain('<h1>Your compliance tasks</h1>');
      expect(page.body).toContain('Acme Payroll sent you this link for');
      expect(page.body).toContain('<form method="post" action="/hosted/s">');
      expect(page.body).toContain(`<input type="hidden" name="token" value="${link.secret}">`);
      expect(page.body).toContain('<button type="submit">Continue to your compliance tasks</button>');
    }
    const { response, browser } = await openLink(t.app, link.url);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/hosted/tasks');
    expect((await browser!.get('/hosted/tasks')).statusCode).toBe(200);
  });

  it("a scanner's GET, HEAD and prefetch leave the link usable", async () => {
    const link = await newLink();
    const scanner = { 'user-agent': 'Mozilla/5.0 (compatible; SafeLinks)', purpose: 'prefetch', 'sec-purpose': 'prefetch' };
    expect((await t.app.inject({ method: 'HEAD', url: link.path, headers: scanner })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: link.path, headers: scanner })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${link.path}?utm_source=scan`, headers: scanner })).statusCode).toBe(200);
    const { response } = await openLink(t.app, link.url);
    expect(response.statusCode).toBe(303);
  });

  it('the POST uses the link up: a session cookie and a clean URL; a second POST is 410 and the link then shows the expired page', async () => {
    const link = await newLink();
    const first = await confirm(link.secret);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/hosted/tasks');
    expect(String(first.headers['set-cookie'])).toMatch(/^statehouse_session=[A-Za-z0-9_-]{40,}; Path=\/hosted; HttpOnly; SameSite=Lax/);
    expect(first.headers['cache-control']).toBe('no-store');

    const second = await confirm(link.secret);
    expect(second.statusCode).toBe(410);
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(second.body).toContain('This link has expired');
    const reopened = await t.app.inject({ url: link.path });
    expect(reopened.statusCode).toBe(410);
    expect(reopened.body).toContain('This link has expired');
    expect(reopened.body).not.toContain('name="token"');
  });

  it('a POST from another site is refused (403) and does not use the link; from our own page (Origin: null, same-origin) it does', async () => {
    const link = await newLink();
    const foreign = await confirm(link.secret, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const crossSite = await confirm(link.secret, { origin: 'null', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    // Our pages send no referrer, so a browser posts the confirmation with Origin: null and Sec-Fetch-Site.
    const ours = await confirm(link.secret, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(ours.statusCode).toBe(303);
  });

  it('an unknown link is a 404 page, by GET or POST; a POST without a token or with an over-long one is a 404 too', async () => {
    const unknown = 'A'.repeat(43);
    const page = await t.app.inject({ url: `/hosted/s/${unknown}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('This link has expired');
    expect((await confirm(unknown)).statusCode).toBe(404);
    expect((await confirm('x'.repeat(5000))).statusCode).toBe(404);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/hosted/s',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: '',
    });
    expect(empty.statusCode).toBe(404);
  });

  it('each purpose names what it opens (signup, documents, accounts)', async () => {
    const cases = [
      { url: '/v2/documents/manage/session', heading: 'Your mail', button: 'Continue to your mail' },
      { url: '/v2/accounts/manage/session', heading: 'Your agency accounts', button: 'Continue to your agency accounts' },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: c.url,
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      });
      const page = await t.app.inject({ url: new URL(json<{ url: string }>(res).url).pathname });
      expect(page.body).toContain(`<h1>${c.heading}</h1>`);
      expect(page.body).toContain(`>${c.button}</button>`);
    }
  });

  // Moves the app's clock: last.
  it('an expired link shows the expired page (410) by GET and by POST', async () => {
    const link = await newLink();
    t.advance(2 * 3600_000);
    expect((await t.app.inject({ url: link.path })).statusCode).toBe(410);
    expect((await confirm(link.secret)).statusCode).toBe(410);
  });
});
