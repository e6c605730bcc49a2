import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackOrigins } from '../src/modules/platforms/callback-origins.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';
import { tinyPdf } from './helpers/pdf.js';

describe('documents hosted page (POST /v2/documents/manage/session)', () => {
  let t: TestApp;
  let dataDir: string;
  let platformId: string;
  let entityA: string;
  let entityB: string;
  let tokenA: string;
  let tokenB: string;
  const ids: Record<string, string> = {};
  const pdfs: Record<string, Buffer> = {};
  const session = (token: string, payload: unknown, query = '') =>
    t.app.inject({ method: 'POST', url: `/v2/documents/manage/session${query}`, headers: bearer(token), payload: payload as object });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'statehouse-docs-'));
    t = await createTestApp({ dataDir });
    let apiKey: string;
    ({ apiKey, platformId, entityId: entityA, token: tokenA } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Rose & Thorn Florists' }));
    ({ entityId: entityB, token: tokenB } = await signupWithToken(t.app, apiKey, { business_name: 'Empty Shelf LLC' }));
    const mail = t.app.services.mail;
    for (const [name, input] of [
      ['edd', { regionCode: 'CA', type: 'external-mail', receivedOn: '2025-03-04', sender: 'California EDD <Employment Development Dept.>' }],
      ['sos', { regionCode: 'NY', receivedOn: '2025-04-10', sender: 'NY Department of State' }],
      ['irs', { receivedOn: '2025-01-02' }],
    ] as const) {
      pdfs[name] = tinyPdf(name);
      ids[name] = (await mail.ingest({ legalEntityId: entityA, ...input, bytes: pdfs[name]! })).id;
    }
  });
  afterAll(async () => {
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('returns a single-use link with its times', async () => {
    const response = await session(tokenA, { callback_url: 'https://platform.example/back' });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'url']);
    expect(body.url).toMatch(/^http:\/\/statehouse\.test\/hosted\/s\/\S+$/);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(t.config.hostedSessionTtlSeconds * 1000);
    const { response: opened } = await openLink(t.app, body.url);
    expect(opened.headers.location).toBe('/hosted/documents');
    expect((await t.app.inject({ url: new URL(body.url).pathname })).statusCode).toBe(410);
  });

  it('401 without a token; 422 for a missing or invalid callback_url; 404 for another entity in the scope parameters', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/v2/documents/manage/session', payload: { callback_url: 'https://platform.example/back' } });
    expect(none.statusCode).toBe(401);
    const missing = await session(tokenA, {});
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail).toEqual([{ type: 'missing', loc: ['body', 'callback_url'], msg: 'Field required', input: {} }]);
    const noBody = await t.app.inject({ method: 'POST', url: '/v2/documents/manage/session', headers: bearer(tokenA) });
    expect(json(noBody).detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
    const scheme = await session(tokenA, { callback_url: 'ftp://platform.example/back' });
    expect(json(scheme).detail[0]).toMatchObject({ type: 'url_scheme', loc: ['body', 'callback_url'] });
    expect((await session(tokenA, { callback_url: 'https://platform.example/back' }, `?legal_entity_public_id=${entityA}`)).statusCode).toBe(200);
    expect((await session(tokenA, { callback_url: 'https://platform.example/back' }, `?legal_entity_public_id=${entityB}`)).statusCode).toBe(404);
    expect((await session(tokenA, { callback_url: 'https://platform.example/back' }, '?platform_public_id=plt_other')).statusCode).toBe(404);
  });

  it('a platform that lists callback origins may only use those', async () => {
    const origins = createCallbackOrigins(t.db);
    await origins.add(platformId, 'https://app.acme.example');
    try {
      const refused = await session(tokenA, { callback_url: 'https://evil.example/back' });
      expect(refused.statusCode).toBe(422);
      expect(json(refused).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'callback_url'] });
      expect((await session(tokenA, { callback_url: 'https://app.acme.example/documents/done' })).statusCode).toBe(200);
    } finally {
      await origins.remove(platformId, 'https://app.acme.example');
    }
  });

  it('the page lists the entity’s mail, newest first, with working download links and the way back', async () => {
    const { browser } = await openLink(t.app, json(await session(tokenA, { callback_url: 'https://platform.example/back?x=1' })).url);
    const page = await browser!.get('/hosted/documents');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const html = page.body;
    expect(html).toContain('<h1>Documents</h1>');
    expect(html).toContain('Rose &amp; Thorn Florists');
    expect(html).toContain('3 documents');
    // Escaped, in order (newest received first), with type, sender, date and state.
    expect(html).toContain('Mail from California EDD &lt;Employment Development Dept.&gt;');
    expect(html).not.toContain('<Employment');
    const order = [ids.sos, ids.edd, ids.irs].map((id) => html.indexOf(`/files/mail/${id}?`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('Registered agent mail from NY Department of State');
    expect(html).toContain('<time datetime="2025-03-04">March 4, 2025</time>');
    expect(html).toContain('California');
    expect(html).toContain('New York');
    expect(html).toContain('href="https://platform.example/back?x=1"');

    const links = [...html.matchAll(/href="(http:\/\/statehouse\.test\/files\/mail\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(links).toHaveLength(3);
    for (const [i, name] of (['sos', 'edd', 'irs'] as const).entries()) {
      const url = new URL(links[i]!);
      // Followed without the hosted cookie or a token: the signed link alone is enough.
      const download = await t.app.inject({ url: `${url.pathname}${url.search}` });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.rawPayload).toEqual(pdfs[name]);
    }
  });

  it('another entity’s page shows none of them: an empty state', async () => {
    const { browser } = await openLink(t.app, json(await session(tokenB, { callback_url: 'https://platform.example/back' })).url);
    const page = await browser!.get('/hosted/documents');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No documents yet.');
    expect(page.body).toContain('Empty Shelf LLC');
    expect(page.body).not.toContain('/files/mail/');
    for (const id of Object.values(ids)) expect(page.body).not.toContain(id);
  });

  it('needs a documents session: none, or one of another purpose, is a 401 page', async () => {
    expect((await t.app.inject({ url: '/hosted/documents' })).statusCode).toBe(401);
    const tasks = await t.app.inject({ method: 'POST', url: '/tasks/sessions', headers: bearer(tokenA), payload: { callback_url: 'https://platform.example/back' } });
    const { browser } = await openLink(t.app, json(tasks).url);
    const page = await browser!.get('/hosted/documents');
    expect(page.statusCode).toBe(401);
    expect(page.body).not.toContain('/files/mail/');
  });
});
