import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { createOperatorKey } from './helpers/back-office.js';
import { openLink } from './helpers/hosted.js';
import { solidPng } from './helpers/images.js';

// A platform's branding through the operator API, and every hosted page wearing it.
describe('platform branding: operator API and the hosted pages', () => {
  let t: TestApp;
  let operatorKey: string;
  let platformId: string;
  let token: string;
  let platformKey: string;
  let entityId: string;
  const logo = solidPng(160, 48);
  const logoSha = createHash('sha256').update(logo).digest('hex');

  beforeAll(async () => {
    t = await createTestApp();
    operatorKey = (await createOperatorKey(t.db, 'brand desk')).key;
    ({
      platformId,
      token,
      apiKey: platformKey,
      entityId,
    } = await createPlatformWithEntity(t, 'Acme Payroll Inc.', { business_name: 'Rose & Thorn Florists' }));
  });
  afterAll(async () => t.close());

  const branding = (id = platformId) => `/operator/v1/platforms/${id}/branding`;
  const put = (payload: unknown, id = platformId) =>
    t.app.inject({ method: 'PUT', url: branding(id), headers: bearer(operatorKey), payload: payload as object });
  const rowCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('platform_brands')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tasksPage = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    const url = json<{ url: string }>(res).url;
    const confirm = await t.app.inject({ url: new URL(url).pathname });
    const { browser } = await openLink(t.app, url);
    return { confirm, list: await browser!.get('/hosted/tasks') };
  };

  it('an unbranded platform: GET answers nulls, and the pages show the platform name and the default look', async () => {
    const res = await t.app.inject({ url: branding(), headers: bearer(operatorKey) });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ platform_id: platformId, display_name: null, accent_color: null, logo: null, updated_at: null });
    const { list } = await tasksPage();
    expect(list.body).toContain('<span class="brand">Acme Payroll Inc.</span>');
    expect(list.body).not.toContain('/hosted/assets/accent/');
    expect(list.body).not.toContain('class="logo"');
  });

  it('PUT sets name, accent and logo (audited); every hosted page, and the link page, wears them', async () => {
    const res = await put({ display_name: '  Acme  ', accent_color: '#0B5FFF', logo_base64: logo.toString('base64') });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({
      platform_id: platformId,
      display_name: 'Acme',
      accent_color: '#0b5fff',
      logo: { content_type: 'image/png', size_bytes: logo.length, sha256: logoSha },
      updated_at: expect.any(String),
    });
    expect(json(await t.app.inject({ url: branding(), headers: bearer(operatorKey) }))).toEqual(json(res));

    const trail = json(await t.app.inject({ url: '/operator/v1/audit-events?subject_type=platform', headers: bearer(operatorKey) }));
    expect(trail.events[0]).toMatchObject({
      operator: { name: 'brand desk' },
      action: 'platform.branding_update',
      subject: { type: 'platform', id: platformId },
      details: {
        fields: ['accent_color', 'display_name', 'logo_base64'],
        display_name: 'Acme',
        accent_color: '#0b5fff',
        logo_sha256: logoSha,
      },
    });
    expect(JSON.stringify(trail)).not.toContain(logo.toString('base64').slice(0, 40));

    const { confirm, list } = await tasksPage();
    for (const page of [confirm, list]) {
      expect(page.body).toContain('<link rel="stylesheet" href="/hosted/assets/accent/0b5fff.css">');
      expect(page.body).toContain(`<img class="logo" src="/hosted/assets/logos/${logoSha}" alt=""><span class="brand">Acme</span>`);
      expect(page.body).not.toContain('Acme Payroll Inc.');
    }
    expect(confirm.body).toContain('Acme sent you this link for Rose &amp; Thorn Florists');
  });

  it('every kind of hosted page wears it: signup, documents, accounts, payroll consent', async () => {
    const apiKey = platformKey;
    const signup = json<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/accounts/signup/sessions',
        headers: { authorization: apiKey },
        payload: { business_name: 'Fern & Frond', user_email: 'f@example.com', callback_url: 'https://platform.example/welcome' },
      }),
    ).url;
    const session = async (url: string) =>
      json<{ url: string }>(
        await t.app.inject({ method: 'POST', url, headers: bearer(token), payload: { callback_url: 'https://platform.example/back' } }),
      ).url;
    const payroll = json<{ url: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/v2/auth/payroll',
        headers: { authorization: apiKey },
        payload: { legal_entity_id: entityId, authorization_callback_url: 'https://platform.example/payroll' },
      }),
    ).url;
    const pages: [string, string][] = [
      [signup, '/hosted/signup/welcome'],
      [await session('/v2/documents/manage/session'), '/hosted/documents'],
      [await session('/v2/accounts/manage/session'), '/hosted/accounts'],
      [payroll, '/hosted/payroll'],
    ];
    for (const [url, path] of pages) {
      const { browser } = await openLink(t.app, url);
      const page = await browser!.get(path);
      expect(page.statusCode, path).toBe(200);
      expect(page.body, path).toContain('<link rel="stylesheet" href="/hosted/assets/accent/0b5fff.css">');
      expect(page.body, path).toContain(`<img class="logo" src="/hosted/assets/logos/${logoSha}" alt=""><span class="brand">Acme</span>`);
    }
  });

  it('serves the accent stylesheet and the logo from our origin, cached for good; anything else is a 404', async () => {
    const css = await t.app.inject({ url: '/hosted/assets/accent/0b5fff.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.body).toContain(':root { --accent: #0b5fff; }');
    expect(css.body).toContain('outline-color: var(--accent)');
    const image = await t.app.inject({ url: `/hosted/assets/logos/${logoSha}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.rawPayload.equals(logo)).toBe(true);
    for (const url of [
      '/hosted/assets/accent/0b5fff',
      '/hosted/assets/accent/red.css',
      '/hosted/assets/accent/0B5FFF.css',
      `/hosted/assets/logos/${'0'.repeat(64)}`,
      '/hosted/assets/logos/not-a-digest',
    ]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('refuses an accent below 4.5:1 against white with a clear 422 naming a shade that passes; nothing changes', async () => {
    const before = json(await t.app.inject({ url: branding(), headers: bearer(operatorKey) }));
    const res = await put({ accent_color: '#7fb2ff' });
    expect(res.statusCode).toBe(422);
    const [issue] = json(res).detail;
    expect(issue).toMatchObject({ loc: ['body', 'accent_color'], input: '#7fb2ff' });
    expect(issue.msg).toMatch(
      /#7fb2ff reaches only 2\.\d\d:1 against white; buttons \(white text\) and links need 4\.5:1\. The nearest darker shade that does is (#[0-9a-f]{6})/,
    );
    const shade = /is (#[0-9a-f]{6})/.exec(issue.msg)![1]!;
    expect(json(await t.app.inject({ url: branding(), headers: bearer(operatorKey) }))).toEqual(before);
    // The suggestion is accepted as it is.
    expect((await put({ accent_color: shade })).statusCode).toBe(200);
    expect((await put({ accent_color: '#0b5fff' })).statusCode).toBe(200);
  });

  it('reports every refusal of one update together, and writes none of it', async () => {
    const before = json(await t.app.inject({ url: branding(), headers: bearer(operatorKey) }));
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
    const res = await put({ display_name: '   ', accent_color: 'blue', logo_base64: svg });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((d: { loc: string[]; msg: string }) => [d.loc.join('.'), d.msg])).toEqual([
      ['body.display_name', 'Value error, A display name must have 1 to 100 characters'],
      ['body.accent_color', 'Value error, An accent colour is a hex colour such as #0b5fff'],
      ['body.logo_base64', 'Value error, SVG logos are not accepted (an SVG can carry scripts): upload a PNG or JPEG'],
    ]);
    expect(JSON.stringify(json(res))).not.toContain(svg.slice(0, 30));
    expect(json(await t.app.inject({ url: branding(), headers: bearer(operatorKey) }))).toEqual(before);

    const tooLarge = await put({ logo_base64: Buffer.concat([logo, Buffer.alloc(110 * 1024)]).toString('base64') });
    expect(tooLarge.statusCode).toBe(422);
    expect(json(tooLarge).detail[0].msg).toMatch(/^Value error, A logo may be at most 100 KB; this one is 1\d\d KB$/);
    const notBase64 = await put({ logo_base64: 'not base64!' });
    expect(notBase64.statusCode).toBe(422);
    expect(json(notBase64).detail[0].loc).toEqual(['body', 'logo_base64']);
  });

  it('null removes a field and an absent one keeps it; the pages go back to the default look', async () => {
    const res = await put({ logo_base64: null, accent_color: null });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ display_name: 'Acme', accent_color: null, logo: null });
    const { list } = await tasksPage();
    expect(list.body).toContain('<span class="brand">Acme</span>');
    expect(list.body).not.toContain('/hosted/assets/accent/');
    expect(list.body).not.toContain('class="logo"');
    expect((await put({ display_name: null })).statusCode).toBe(200);
    expect((await tasksPage()).list.body).toContain('<span class="brand">Acme Payroll Inc.</span>');
  });

  it('an unknown platform is a 404 and writes nothing; no operator key is a 401, a platform key too', async () => {
    const rows = await rowCount();
    expect((await put({ accent_color: '#000000' }, 'plt_nope')).statusCode).toBe(404);
    expect((await t.app.inject({ url: branding('plt_nope'), headers: bearer(operatorKey) })).statusCode).toBe(404);
    expect(await rowCount()).toBe(rows);
    expect((await t.app.inject({ method: 'PUT', url: branding(), payload: { accent_color: '#000000' } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: branding(), headers: bearer(token) })).statusCode).toBe(401);
  });
});
