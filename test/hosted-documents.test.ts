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
    ({
      apiKey,
      platformId,
      entityId: entityA,
      token: tokenA,
    } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Rose & Thorn Florists' }));
    ({ entityId: entityB, token: tokenB } = await signupWithToken(t.app, apiKey, { business_name: 'Empty Shelf LLC' }));
    const mail = t.app.services.mail;
    for (const [name, input] of [
      [
        'edd',
        {
          regionCode: 'CA',
          type: 'external-mail',
          receivedOn: '2025-03-04',
          sender: 'California EDD <Employment Development Dept.>',
          subject: 'Notice of <employer> account number',
        },
      ],
      ['sos', { regionCode: 'NY', receivedOn: '2025-04-10', sender: 'NY Department of State', subject: 'Biennial statement due' }],
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
    const none = await t.app.inject({
      method: 'POST',
      url: '/v2/documents/manage/session',
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(none.statusCode).toBe(401);
    const missing = await session(tokenA, {});
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail).toEqual([{ type: 'missing', loc: ['body', 'callback_url'], msg: 'Field required', input: {} }]);
    const noBody = await t.app.inject({ method: 'POST', url: '/v2/documents/manage/session', headers: bearer(tokenA) });
    expect(json(noBody).detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
    const scheme = await session(tokenA, { callback_url: 'javascript:alert(1)' });
    expect(json(scheme).detail[0]).toMatchObject({ type: 'url_scheme', loc: ['body', 'callback_url'] });
    expect(
      (await session(tokenA, { callback_url: 'https://platform.example/back' }, `?legal_entity_public_id=${entityA}`)).statusCode,
    ).toBe(200);
    expect(
      (await session(tokenA, { callback_url: 'https://platform.example/back' }, `?legal_entity_public_id=${entityB}`)).statusCode,
    ).toBe(404);
    expect((await session(tokenA, { callback_url: 'https://platform.example/back' }, '?platform_public_id=plt_other')).statusCode).toBe(
      404,
    );
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

  it('the page lists the entity’s mail, newest first: subject, sender, date, state, new, and the way back', async () => {
    const { browser } = await openLink(t.app, json(await session(tokenA, { callback_url: 'https://platform.example/back?x=1' })).url);
    const page = await browser!.get('/hosted/documents');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const html = page.body;
    expect(html).toContain('<h1>Documents</h1>');
    expect(html).toContain('Rose &amp; Thorn Florists');
    expect(html).toContain('3 documents, 3 new');
    // Escaped, in order (newest received first): the subject (or the kind when none was recorded), sender, date and state.
    const headings = [...html.matchAll(/<h2>([^<]*)(?: <span class="badge new">New<\/span>)?<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['Biennial statement due', 'Notice of &lt;employer&gt; account number', 'Registered agent mail']);
    expect(html).toContain('<dt>From</dt><dd>California EDD &lt;Employment Development Dept.&gt;</dd>');
    expect(html).not.toContain('<Employment');
    expect(html).toContain('Sender not recorded');
    expect(html).toContain('<time datetime="2025-03-04">March 4, 2025</time>');
    expect(html).toContain('Mail · California');
    expect(html).toContain('Registered agent mail · New York');
    expect((html.match(/<span class="badge new">New<\/span>/g) ?? []).length).toBe(3);
    expect(html).toContain('href="https://platform.example/back?x=1"');
    const order = [ids.sos, ids.edd, ids.irs].map((id) => html.indexOf(`/hosted/documents/${id}/open`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('opening a document serves its PDF through a signed link and it is no longer new; the others stay new', async () => {
    const { browser } = await openLink(t.app, json(await session(tokenA, { callback_url: 'https://platform.example/back' })).url);
    await browser!.get('/hosted/documents');
    const opened = await browser!.get(`/hosted/documents/${ids.edd}/open`);
    expect(opened.statusCode).toBe(303);
    const url = new URL(opened.headers.location as string);
    expect(url.pathname).toBe(`/files/mail/${ids.edd}`);
    // Followed without the hosted cookie or a token: the signed link alone is enough.
    const download = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload).toEqual(pdfs.edd);

    const after = (await browser!.get('/hosted/documents')).body;
    expect(after).toContain('3 documents, 2 new');
    expect(after).toContain('<h2>Notice of &lt;employer&gt; account number</h2>');
    expect(after).toContain('<h2>Biennial statement due <span class="badge new">New</span></h2>');
    // Opening it again keeps the first opening; a new session (a later visit) still sees it as seen.
    expect((await browser!.get(`/hosted/documents/${ids.edd}/open`)).statusCode).toBe(303);
    const later = await openLink(t.app, json(await session(tokenA, { callback_url: 'https://platform.example/back' })).url);
    expect((await later.browser!.get('/hosted/documents')).body).toContain('3 documents, 2 new');
    // The operator sees when it was first opened.
    const row = await t.db.selectFrom('mail_items').select(['opened_at', 'subject']).where('id', '=', ids.edd!).executeTakeFirstOrThrow();
    expect(row.opened_at).toBeInstanceOf(Date);
    expect(row.subject).toBe('Notice of <employer> account number');
  });

  it('a document of another entity, or an unknown one, is a 404 and is not marked opened', async () => {
    const { browser } = await openLink(t.app, json(await session(tokenB, { callback_url: 'https://platform.example/back' })).url);
    const other = await browser!.get(`/hosted/documents/${ids.sos}/open`);
    expect(other.statusCode).toBe(404);
    expect(other.headers.location).toBeUndefined();
    expect(other.body).toContain('Document not found');
    expect((await browser!.get('/hosted/documents/mail_nope/open')).statusCode).toBe(404);
    const row = await t.db.selectFrom('mail_items').select('opened_at').where('id', '=', ids.sos!).executeTakeFirstOrThrow();
    expect(row.opened_at).toBeNull();
    expect((await t.app.inject({ url: `/hosted/documents/${ids.sos}/open` })).statusCode).toBe(401);
  });

  it('a subject that is too long or holds control characters is refused at intake, naming the field', async () => {
    const mail = t.app.services.mail;
    await expect(mail.ingest({ legalEntityId: entityA, subject: 'x'.repeat(201), bytes: tinyPdf('long') })).rejects.toMatchObject({
      path: ['subject'],
    });
    await expect(mail.ingest({ legalEntityId: entityA, subject: 'a\u0007b', bytes: tinyPdf('bell') })).rejects.toMatchObject({
      path: ['subject'],
    });
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
    const tasks = await t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(tokenA),
      payload: { callback_url: 'https://platform.example/back' },
    });
    const { browser } = await openLink(t.app, json(tasks).url);
    const page = await browser!.get('/hosted/documents');
    expect(page.statusCode).toBe(401);
    expect(page.body).not.toContain('/files/mail/');
  });
});
