import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';

describe('hosted signup link', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({ signupSessionTtlSeconds: 3600 });
    ({ apiKey } = await createPlatform(t.db, 'Acme <Payroll>'));
  });
  afterAll(async () => t.close());

  async function session(callback = 'https://platform.example/welcome?ref=abc') {
    const res = await t.app.inject({
      method: 'POST', url: '/accounts/signup/sessions', headers: { authorization: apiKey },
      payload: { business_name: 'Rose & Thorn <Florists>', user_email: 'r@example.com', callback_url: callback },
    });
    const body = json(res);
    return { path: new URL(body.url).pathname, entityId: body.legal_entity_id as string };
  }

  const status = async (id: string) =>
    (await t.db.selectFrom('legal_entities').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('shows a confirmation page with safe headers and escaped content', async () => {
    const { path } = await session();
    const res = await t.app.inject({ url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain('form-action \'self\' https://platform.example');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('Rose &amp; Thorn &lt;Florists&gt;');
    expect(res.body).toContain('Acme &lt;Payroll&gt;');
    expect(res.body).not.toContain('<Florists>');
    expect(res.body).toContain(`<form method="post" action="${path}">`);
  });

  it('confirming activates the entity and redirects to the callback with the entity id', async () => {
    const { path, entityId } = await session();
    expect(await status(entityId)).toBe('inactive');
    const res = await t.app.inject({ method: 'POST', url: path });
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe('https://platform.example/welcome');
    expect(Object.fromEntries(location.searchParams)).toEqual({ ref: 'abc', legal_entity_id: entityId, status: 'complete' });
    expect(await status(entityId)).toBe('active');
  });

  it('the link is single-use: reopening or resubmitting shows the expired page (410)', async () => {
    const { path } = await session();
    await t.app.inject({ method: 'POST', url: path });
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: path });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('This link has expired');
      expect(res.body).toContain('Ask your platform for a new one');
    }
  });

  it('the link expires', async () => {
    const { path, entityId } = await session();
    t.advance(3_601_000);
    expect((await t.app.inject({ url: path })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'POST', url: path })).statusCode).toBe(410);
    expect(await status(entityId)).toBe('inactive');
  });

  it('an unknown link is 404 and shows no data', async () => {
    const res = await t.app.inject({ url: '/hosted/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('This link has expired');
  });

  it('two simultaneous confirmations activate once and one of them sees the expired page', async () => {
    const { path } = await session();
    const results = await Promise.all([t.app.inject({ method: 'POST', url: path }), t.app.inject({ method: 'POST', url: path })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 410]);
  });

  it('a new session for the same entity works after an earlier link expired', async () => {
    const first = await session();
    t.advance(3_601_000);
    const again = json(await t.app.inject({
      method: 'POST', url: '/v2/signup/sessions', headers: { authorization: apiKey },
      payload: { business_name: 'Rose', user_email: 'r@example.com', callback_url: 'https://platform.example/cb', legal_entity_id: first.entityId },
    }));
    expect((await t.app.inject({ method: 'POST', url: new URL(again.url).pathname })).statusCode).toBe(303);
    expect(await status(first.entityId)).toBe('active');
  });

  it('without a callback the user sees a completion page', async () => {
    const res = json(await t.app.inject({
      method: 'POST', url: '/v2/signup', headers: { authorization: apiKey },
      payload: { user_email: 'n@example.com', business_name: 'No Callback LLC', entity_type: 'llc', tax_class: 'disregarded', incorporation_region: 'OH', incorporated_date: '2021-01-01' },
    }));
    const done = await t.app.inject({ method: 'POST', url: new URL(res.url).pathname });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Signup complete');
  });

  it('serves its stylesheet', async () => {
    const res = await t.app.inject({ url: '/hosted/assets/statehouse.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/css');
  });
});
