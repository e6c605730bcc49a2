import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { createMailModule } from '../src/modules/mail/index.js';
import { createLocalFileStorage, type FileStorage } from '../src/modules/mail/file-storage.js';
import { createFileLinks } from '../src/modules/mail/file-links.js';
import { createMailService } from '../src/modules/mail/mail.service.js';
import { createVault } from '../src/modules/accounts/vault.js';
import { createInstanceKeys } from '../src/modules/system/instance-keys.js';
import { TEST_VAULT_KEY, accessToken, bearer, createPlatform, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { tinyPdf } from './helpers/pdf.js';

const CA_ID = '99be5e8f54c4680d';
const NY_ID = '5894aa7b4729ed13';
const MAX_BYTES = 4096;
const EXPIRED = 'This download link has expired; list the mail again for a fresh link';

const isoDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const pathOf = (url: string) => { const u = new URL(url); return `${u.pathname}${u.search}`; };

describe('mail', () => {
  let t: TestApp;
  let dataDir: string;
  let opKey: string;
  let apiKey: string;
  let apiKeyB: string;
  let entityA: string;
  let entityB: string;
  let tokenA: string;
  let tokenB: string;
  const ids: Record<string, string> = {};
  const pdfs: Record<string, Buffer> = {};

  const upload = (entity: string, body: Buffer | string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST', url: `/operator/v1/legal_entities/${entity}/mail?${new URLSearchParams(query)}`, payload: body,
      headers: { authorization: `Bearer ${opKey}`, 'content-type': 'application/pdf', ...headers },
    });
  const get = (url: string, token = tokenA) => t.app.inject({ url, headers: bearer(token) });
  const mailCount = async () => Number((await t.db.selectFrom('mail_items').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'statehouse-mail-'));
    t = await createTestApp({ dataDir, mailMaxBytes: MAX_BYTES });
    opKey = (await createOperatorsService(t.db).createKey('ops')).key;
    ({ apiKey } = await createPlatform(t.db, 'Platform A'));
    const other = await createPlatform(t.db, 'Platform B');
    entityA = await signupEntity(t.app, apiKey);
    apiKeyB = other.apiKey;
    entityB = await signupEntity(t.app, other.apiKey, { business_name: 'Other Co' });
    tokenA = await accessToken(t.app, apiKey, entityA);
    tokenB = await accessToken(t.app, other.apiKey, entityB);

    // Entity A: CA on two days, NY, one without a state. Entity B: one CA item.
    const items: [string, string, Record<string, string>][] = [
      ['caOld', entityA, { region: 'CA', received: '2025-01-10', sender: 'California EDD', type: 'external-mail', file_name: 'EDD notice.pdf' }],
      ['caNew', entityA, { region: 'CA', received: '2025-03-01', sender: 'California Franchise Tax Board' }],
      ['ny', entityA, { region: 'NY', received: '2025-02-15' }],
      ['none', entityA, { received: '2025-02-01', sender: 'IRS' }],
      ['b', entityB, { region: 'CA', received: '2025-02-20', sender: 'Secret sender of B' }],
    ];
    for (const [name, entity, query] of items) {
      pdfs[name] = tinyPdf(`item ${name}`);
      const response = await upload(entity, pdfs[name]!, query);
      if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
      ids[name] = json(response).id;
    }
  });
  afterAll(async () => {
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  describe('operator upload', () => {
    it('stores the PDF at its content address and answers 201 with the item', async () => {
      const bytes = tinyPdf('fresh upload');
      const response = await upload(entityA, bytes, { region: 'CA', type: 'external-mail', received: '2025-04-02', sender: 'CA EDD', file_name: 'rate.pdf' });
      expect(response.statusCode).toBe(201);
      const sha = createHash('sha256').update(bytes).digest('hex');
      expect(json(response)).toEqual({
        id: expect.stringMatching(/^mail_[0-9a-z]+$/), legal_entity_id: entityA, region: 'CA', type: 'external-mail', received: '2025-04-02',
        sender: 'CA EDD', file_name: 'rate.pdf', file_sha256: sha, file_size: bytes.length, created_at: expect.any(String),
        file_url: expect.stringMatching(/^http:\/\/statehouse\.test\/files\/mail\/mail_[0-9a-z]+\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/),
      });
      expect(await readFile(path.join(dataDir, 'files', 'sha256', sha.slice(0, 2), sha))).toEqual(bytes);
      // No temporary files are left beside it.
      expect(await readdir(path.join(dataDir, 'files', 'sha256', sha.slice(0, 2)))).toEqual([sha]);
      // Its bytes come back through the signed link, with no bearer token.
      const download = await t.app.inject({ url: pathOf(json(response).file_url) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(bytes);
      await t.db.deleteFrom('mail_items').where('id', '=', json(response).id).execute();
    });

    it('defaults: type registered-agent, received today (UTC), no region or sender', async () => {
      const before = await mailCount();
      const response = await upload(entityA, tinyPdf('defaults'));
      expect(response.statusCode).toBe(201);
      expect(json(response)).toMatchObject({ type: 'registered-agent', received: isoDay(), region: null, sender: null, file_name: null });
      expect(await mailCount()).toBe(before + 1);
      await t.db.deleteFrom('mail_items').where('id', '=', json(response).id).execute();
    });

    it('the same bytes twice are two items sharing one stored file', async () => {
      const bytes = tinyPdf('twice');
      const first = json(await upload(entityA, bytes, { received: '2024-01-01' }));
      const second = json(await upload(entityA, bytes, { received: '2024-01-02' }));
      expect(first.id).not.toBe(second.id);
      expect(first.file_sha256).toBe(second.file_sha256);
      expect(await readdir(path.join(dataDir, 'files', 'sha256', first.file_sha256.slice(0, 2)))).toEqual([first.file_sha256]);
      await t.db.deleteFrom('mail_items').where('id', 'in', [first.id, second.id]).execute();
    });

    it('refuses what is not a PDF (422) and a truncated PDF (422), storing nothing', async () => {
      const before = await mailCount();
      const notPdf = await upload(entityA, 'hello, I am text');
      expect(notPdf.statusCode).toBe(422);
      expect(json(notPdf).detail[0]).toMatchObject({ type: 'value_error', loc: ['body'], msg: expect.stringContaining('not a PDF') });

      const whole = tinyPdf('cut short');
      const truncated = await upload(entityA, whole.subarray(0, whole.length - 20));
      expect(truncated.statusCode).toBe(422);
      expect(json(truncated).detail[0].msg).toContain('%%EOF');

      const empty = await upload(entityA, '');
      expect(empty.statusCode).toBe(422);
      expect(json(empty).detail[0].msg).toContain('empty');
      expect(await mailCount()).toBe(before);
      const sha = createHash('sha256').update(whole.subarray(0, whole.length - 20)).digest('hex');
      expect(await createLocalFileStorage(path.join(dataDir, 'files')).exists(sha)).toBe(false);
    });

    it('a body over MAIL_MAX_BYTES is a 413 naming the limit', async () => {
      const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(MAX_BYTES, 0x20), Buffer.from('\n%%EOF\n')]);
      const response = await upload(entityA, big);
      expect(response.statusCode).toBe(413);
      expect(json(response)).toEqual({ detail: `The file is larger than the limit of ${MAX_BYTES} bytes` });
    });

    it('other content types are a 415', async () => {
      for (const contentType of ['application/json', 'text/plain', 'application/octet-stream']) {
        const response = await upload(entityA, '{}', {}, { 'content-type': contentType });
        expect(response.statusCode, contentType).toBe(415);
        expect(json(response).detail).toContain('Content-Type: application/pdf');
      }
      const none = await t.app.inject({ method: 'POST', url: `/operator/v1/legal_entities/${entityA}/mail`, headers: { authorization: `Bearer ${opKey}` } });
      expect(none.statusCode).toBe(415);
    });

    it('needs an operator key: none, a platform API key or an access token is a 401', async () => {
      for (const authorization of [undefined, apiKey, `Bearer ${apiKey}`, `Bearer ${tokenA}`, 'Bearer sh_op_nope']) {
        const response = await t.app.inject({
          method: 'POST', url: `/operator/v1/legal_entities/${entityA}/mail`, payload: tinyPdf('unauthorised'),
          headers: { 'content-type': 'application/pdf', ...(authorization && { authorization }) },
        });
        expect(response.statusCode, String(authorization)).toBe(401);
      }
      // Authentication comes before the content type and the size.
      const response = await t.app.inject({ method: 'POST', url: `/operator/v1/legal_entities/${entityA}/mail`, payload: Buffer.alloc(MAX_BYTES + 10), headers: { 'content-type': 'text/plain' } });
      expect(response.statusCode).toBe(401);
    });

    it('unknown entity → 404; bad region, type or date → 422; future dates → 422', async () => {
      const unknown = await upload('le_nope', tinyPdf('x'));
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toEqual({ detail: "Legal entity 'le_nope' not found" });

      const region = await upload(entityA, tinyPdf('x'), { region: 'ZZ' });
      expect(region.statusCode).toBe(422);
      expect(json(region).detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'region'] });
      const type = await upload(entityA, tinyPdf('x'), { type: 'spam' });
      expect(json(type).detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'type'] });
      const date = await upload(entityA, tinyPdf('x'), { received: '2025-02-30' });
      expect(json(date).detail[0]).toMatchObject({ type: 'date_from_datetime_parsing', loc: ['query', 'received'] });

      const future = await upload(entityA, tinyPdf('x'), { received: isoDay(3) });
      expect(future.statusCode).toBe(422);
      expect(json(future).detail[0]).toMatchObject({ type: 'value_error', loc: ['query', 'received'], msg: expect.stringContaining('future') });
      // Today anywhere in the US is accepted (tomorrow UTC at most).
      const tomorrow = await upload(entityA, tinyPdf('x'), { received: isoDay(1) });
      expect(tomorrow.statusCode).toBe(201);
      await t.db.deleteFrom('mail_items').where('id', '=', json(tomorrow).id).execute();
    });

    it('operators list an entity’s mail', async () => {
      const response = await t.app.inject({ url: `/operator/v1/legal_entities/${entityA}/mail`, headers: { authorization: `Bearer ${opKey}` } });
      expect(response.statusCode).toBe(200);
      expect(json(response).map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.ny, ids.none, ids.caOld]);
      expect(json(response)[0]).toMatchObject({ legal_entity_id: entityA, file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await t.app.inject({ url: `/operator/v1/legal_entities/${entityA}/mail` })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/operator/v1/legal_entities/le_nope/mail', headers: { authorization: `Bearer ${opKey}` } })).statusCode).toBe(404);
    });

    it('the PDF parser is this route’s only: other routes still treat application/pdf as any other body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v2/auth', headers: { authorization: apiKey, 'content-type': 'application/pdf' }, payload: tinyPdf('x') });
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].type).toBe('model_attributes_type');
      // And the larger limit is this route's only.
      const big = await t.app.inject({ method: 'POST', url: '/v2/auth', headers: { authorization: apiKey, 'content-type': 'application/json' }, payload: `{"x":"${'a'.repeat(1_100_000)}"}` });
      expect(big.statusCode).toBe(413);
    });

    it('the service itself ingests too (what the CLI uses)', async () => {
      // The CLI's service, with the test app's vault key (the instance keys are sealed with it).
      const { mail } = createMailModule({ config: t.config, db: t.db, instanceKeys: createInstanceKeys(t.db, createVault([TEST_VAULT_KEY])) });
      const item = await mail.ingest({ legalEntityId: entityB, regionCode: 'ny', receivedOn: '2025-01-05', bytes: tinyPdf('service') });
      expect(item).toMatchObject({ region: { code: 'NY' }, type: 'registered-agent', receivedOn: '2025-01-05' });
      const listed = json(await get('/v2/mail', tokenB));
      expect(listed.map((m: { id: string }) => m.id)).toContain(item.id);
      await expect(mail.ingest({ legalEntityId: entityB, regionCode: 'XX', bytes: tinyPdf('s') })).rejects.toMatchObject({ path: ['region'] });
      await expect(mail.ingest({ legalEntityId: entityB, bytes: Buffer.alloc(MAX_BYTES + 1) })).rejects.toMatchObject({ status: 413 });
      await t.db.deleteFrom('mail_items').where('id', '=', item.id).execute();
    });
  });

  describe('listings', () => {
    it('GET /mail: unversioned shape, newest received first', async () => {
      const response = await get('/mail');
      expect(response.statusCode).toBe(200);
      const list = json(response);
      expect(list.map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.ny, ids.none, ids.caOld]);
      expect(list[3]).toEqual({
        id: ids.caOld, location_id: CA_ID, type: 'external-mail', received: '2025-01-10', sender: 'California EDD', file_url: expect.stringContaining(`/files/mail/${ids.caOld}?`),
      });
      expect(list[2]).toMatchObject({ location_id: null, sender: 'IRS', type: 'registered-agent' });
    });

    it('date filters are inclusive on the received day', async () => {
      const idsOf = async (query: string, url = '/mail') => json(await get(`${url}?${query}`)).map((m: { id: string }) => m.id);
      expect(await idsOf('start_date=2025-02-01&end_date=2025-02-15')).toEqual([ids.ny, ids.none]);
      expect(await idsOf('start_date=2025-03-01')).toEqual([ids.caNew]);
      expect(await idsOf('end_date=2025-01-10')).toEqual([ids.caOld]);
      expect(await idsOf('start_date=2025-01-11&end_date=2025-01-31')).toEqual([]);
      expect(await idsOf('start_date=2025-02-15&end_date=2025-02-15', '/v2/mail')).toEqual([ids.ny]);
      expect(await idsOf('start_date=2025-01-01&end_date=2025-12-31', `/locations/${CA_ID}/mail`)).toEqual([ids.caNew, ids.caOld]);
    });

    it('bad dates and start after end are 422s', async () => {
      const bad = await get('/mail?start_date=yesterday');
      expect(bad.statusCode).toBe(422);
      expect(json(bad).detail[0]).toMatchObject({ loc: ['query', 'start_date'], type: 'date_from_datetime_parsing' });
      for (const url of ['/mail', '/v2/mail', '/locations/CA/mail']) {
        const reversed = await get(`${url}?start_date=2025-03-01&end_date=2025-02-01`);
        expect(reversed.statusCode, url).toBe(422);
        expect(json(reversed).detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'end_date'], input: '2025-02-01' })]);
      }
    });

    it('GET /locations/{id}/mail takes the location id or the code; unknown is a 404', async () => {
      const byId = json(await get(`/locations/${CA_ID}/mail`));
      const byCode = json(await get('/locations/ca/mail'));
      expect(byId.map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.caOld]);
      expect(byCode.map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.caOld]);
      expect(json(await get(`/locations/${NY_ID}/mail`)).map((m: { id: string }) => m.id)).toEqual([ids.ny]);
      expect(json(await get('/locations/TX/mail'))).toEqual([]);
      const unknown = await get('/locations/ZZ/mail');
      expect(unknown.statusCode).toBe(404);
      expect(json(unknown)).toEqual({ detail: "Location 'ZZ' not found" });
    });

    it('GET /v2/mail: v2 shape, region filter, scope parameters', async () => {
      const all = json(await get('/v2/mail'));
      expect(all.map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.ny, ids.none, ids.caOld]);
      expect(all[0]).toEqual({
        id: ids.caNew, region: 'CA', type: 'registered-agent', received: '2025-03-01', sender: 'California Franchise Tax Board', file_url: expect.any(String),
      });
      expect(all[2].region).toBeNull();
      expect(json(await get('/v2/mail?region=NY')).map((m: { id: string }) => m.id)).toEqual([ids.ny]);
      expect(json(await get('/v2/mail?region=TX'))).toEqual([]);
      expect(json(await get('/v2/mail?region=ZZ')).detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'region'] });
      expect((await get(`/v2/mail?legal_entity_public_id=${entityA}`)).statusCode).toBe(200);
      expect((await get(`/v2/mail?legal_entity_public_id=${entityB}`)).statusCode).toBe(404);
      expect((await get('/v2/mail?platform_public_id=plt_other')).statusCode).toBe(404);
    });

    it('every listing needs a bearer token', async () => {
      for (const url of ['/mail', '/v2/mail', '/locations/CA/mail']) {
        const response = await t.app.inject({ url });
        expect(response.statusCode, url).toBe(401);
        expect(response.headers['www-authenticate']).toBe('Bearer');
      }
      expect((await t.app.inject({ url: '/mail', headers: { authorization: `Bearer ${opKey}` } })).statusCode).toBe(401);
    });

    it("another entity's token never lists A's mail", async () => {
      for (const url of ['/mail', '/v2/mail', '/locations/CA/mail', '/v2/mail?region=CA']) {
        const list = json(await get(url, tokenB));
        expect(list.map((m: { id: string }) => m.id), url).toEqual([ids.b]);
      }
    });
  });

  describe('signed file links', () => {
    const linkOf = async (name: string, token = tokenA) => {
      const list = json(await get('/v2/mail', token));
      return new URL(list.find((m: { id: string }) => m.id === ids[name]).file_url);
    };

    it('download: 200 application/pdf, inline with a safe name, not cached, bytes round-trip', async () => {
      const response = await t.app.inject({ url: pathOf((await linkOf('caOld')).href) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('inline; filename="EDD notice.pdf"');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.rawPayload).toEqual(pdfs.caOld);
      const unnamed = await t.app.inject({ url: pathOf((await linkOf('ny')).href) });
      expect(unnamed.headers['content-disposition']).toBe(`inline; filename="${ids.ny}.pdf"`);
      expect(unnamed.rawPayload).toEqual(pdfs.ny);
    });

    it('a tampered signature, expiry or mail id is a 403', async () => {
      const link = await linkOf('caNew');
      const signature = link.searchParams.get('signature')!;
      const expires = link.searchParams.get('expires')!;
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const cases = [
        `/files/mail/${ids.caNew}?expires=${expires}&signature=${flip(signature, 0)}`,
        `/files/mail/${ids.caNew}?expires=${expires}&signature=${flip(signature, signature.length - 1)}`,
        `/files/mail/${ids.caNew}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `/files/mail/${ids.caNew}?expires=0${expires}&signature=${signature}`,
        `/files/mail/${ids.caNew}?expires=${expires}`,
        `/files/mail/${ids.caNew}?signature=${signature}`,
        `/files/mail/${ids.caNew}`,
        `/files/mail/${ids.caOld}?expires=${expires}&signature=${signature}`, // another of A's items
      ];
      for (const url of cases) {
        const response = await t.app.inject({ url });
        expect(response.statusCode, url).toBe(403);
        expect(json(response)).toEqual({ detail: 'This download link is not valid' });
      }
    });

    it("A's link cannot be altered to fetch B's file", async () => {
      const link = await linkOf('caNew');
      const response = await t.app.inject({ url: `/files/mail/${ids.b}${link.search}` });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('%PDF');
      // B's own link works for B's file.
      const own = await t.app.inject({ url: pathOf((await linkOf('b', tokenB)).href) });
      expect(own.statusCode).toBe(200);
      expect(own.rawPayload).toEqual(pdfs.b);
    });

    it('an unknown mail id is a 404', async () => {
      const link = await linkOf('caNew');
      const response = await t.app.inject({ url: `/files/mail/mail_doesnotexist${link.search}` });
      expect(response.statusCode).toBe(404);
    });

    it('a link expires after FILE_URL_TTL_SECONDS (410); listing again gives a fresh one', async () => {
      const link = await linkOf('none');
      expect(Number(link.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(t.config.fileUrlTtlSeconds - 5);
      t.advance((t.config.fileUrlTtlSeconds - 30) * 1000);
      expect((await t.app.inject({ url: pathOf(link.href) })).statusCode).toBe(200);
      t.advance(60_000);
      const expired = await t.app.inject({ url: pathOf(link.href) });
      expect(expired.statusCode).toBe(410);
      expect(json(expired)).toEqual({ detail: EXPIRED });
      // A forged link stays a 403 even when its expiry has passed: the signature is checked first.
      expect((await t.app.inject({ url: `/files/mail/${ids.none}?expires=${link.searchParams.get('expires')}&signature=${'A'.repeat(43)}` })).statusCode).toBe(403);
      const fresh = await linkOf('none', await accessToken(t.app, apiKey, entityA));
      const response = await t.app.inject({ url: pathOf(fresh.href) });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(pdfs.none);
    });
  });

  it('the OpenAPI document describes the mail operations, not the hosted page', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    for (const [p, method] of [['/mail', 'get'], ['/locations/{region_platform_public_id}/mail', 'get'], ['/v2/mail', 'get'], ['/files/mail/{mail_id}', 'get'],
      ['/v2/documents/manage/session', 'post'], ['/operator/v1/legal_entities/{legal_entity_id}/mail', 'post']] as const) {
      expect(doc.paths[p]?.[method]?.operationId, p).toEqual(expect.any(String));
    }
    expect(doc.paths['/files/mail/{mail_id}'].get.responses['200'].content).toHaveProperty('application/pdf');
    expect(doc.paths['/hosted/documents']).toBeUndefined();
  });

  describe('CLI', () => {
    it('mail upload and mail list go through the same service and file store', async () => {
      const file = path.join(dataDir, 'Notice of Levy.pdf');
      const bytes = tinyPdf('from the CLI');
      await writeFile(file, bytes);
      const env = { DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dataDir, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') };
      const result = await runCli(['mail', 'upload', '--entity', entityB, '--file', file, '--region', 'TX', '--type', 'external-mail', '--sender', 'Texas Workforce Commission', '--received', '2025-05-05', '--json'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const item = JSON.parse(result.stdout);
      expect(item).toMatchObject({ legal_entity_id: entityB, region: 'TX', type: 'external-mail', received: '2025-05-05', sender: 'Texas Workforce Commission', file_name: 'Notice of Levy.pdf', file_size: bytes.length });

      // A fresh token: an earlier test moved the app's clock past the first one's expiry.
      const listed = json(await get('/v2/mail?region=TX', await accessToken(t.app, apiKeyB, entityB)));
      expect(listed.map((m: { id: string }) => m.id)).toEqual([item.id]);
      const download = await t.app.inject({ url: pathOf(listed[0].file_url) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload).toEqual(bytes);

      const list = await runCli(['mail', 'list', '--entity', entityB, '--json'], env);
      expect(JSON.parse(list.stdout).map((m: { id: string }) => m.id)).toContain(item.id);
      const text = await runCli(['mail', 'list', '--entity', entityB], env);
      expect(text.stdout).toContain(item.id);

      // Rule violations are reported in the CLI's words, and nothing is recorded.
      const notPdf = path.join(dataDir, 'notes.txt');
      await writeFile(notPdf, 'just text');
      const refused = await runCli(['mail', 'upload', '--entity', entityB, '--file', notPdf], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--file: the file is not a PDF');
      const missing = await runCli(['mail', 'upload', '--entity', 'le_nope', '--file', file], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Legal entity 'le_nope' not found");
      const usage = await runCli(['mail', 'upload', '--file', file], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--entity');
    }, 60_000);

    it('mail gc removes only old files no item refers to, and interrupted writes', async () => {
      const storage = createLocalFileStorage(path.join(dataDir, 'files'));
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      const referenced = (await t.db.selectFrom('mail_items').select('file_sha256').distinct().execute()).map((r) => r.file_sha256);
      for (const sha of referenced) await utimes(path.join(dataDir, 'files', 'sha256', sha.slice(0, 2), sha), hoursAgo(5), hoursAgo(5));
      const oldOrphan = await storage.put(tinyPdf('orphan from a crash'));
      await utimes(path.join(dataDir, 'files', 'sha256', oldOrphan.sha256.slice(0, 2), oldOrphan.sha256), hoursAgo(2), hoursAgo(2));
      const newOrphan = await storage.put(tinyPdf('an upload in flight'));
      const leftover = path.join(dataDir, 'files', 'sha256', oldOrphan.sha256.slice(0, 2), `.${oldOrphan.sha256}.abc.tmp`);
      await writeFile(leftover, 'half a file');
      await utimes(leftover, hoursAgo(2), hoursAgo(2));

      let stored = 0;
      for await (const _ of storage.list()) stored++;
      const result = await runCli(['mail', 'gc', '--json'], { DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ checked: stored, removed: 1, leftovers: 1 });
      expect(await storage.exists(oldOrphan.sha256)).toBe(false);
      expect(await storage.exists(newOrphan.sha256)).toBe(true);
      for (const sha of referenced) expect(await storage.exists(sha)).toBe(true);
      // Every item still downloads.
      const listed = json(await get('/v2/mail', await accessToken(t.app, apiKeyB, entityB)));
      for (const item of listed) expect((await t.app.inject({ url: pathOf(item.file_url) })).statusCode).toBe(200);
    }, 60_000);

    it('an upload racing garbage collection never loses its file', async () => {
      const real = createLocalFileStorage(path.join(dataDir, 'files'));
      // The upload pauses between storing its file and committing its row, while collection runs.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let stored!: () => void;
      const fileStored = new Promise<void>((resolve) => (stored = resolve));
      const paused: FileStorage = { ...real, put: async (bytes) => { const result = await real.put(bytes); stored(); await gate; return result; } };
      const links = createFileLinks({ key: async () => Buffer.alloc(32, 1), publicBaseUrl: t.config.publicBaseUrl, ttlSeconds: 60, now: () => new Date() });
      const uploads = createMailService({ db: t.db, storage: paused, links, maxBytes: MAX_BYTES, now: () => new Date() });
      const collector = createMailService({ db: t.db, storage: real, links, maxBytes: MAX_BYTES, now: () => new Date() });

      // The same bytes already lie in the store, unreferenced (an earlier crash), when they are uploaded again.
      const bytes = tinyPdf('uploaded again after a crash');
      await real.put(bytes);
      const upload = uploads.ingest({ legalEntityId: entityB, bytes });
      await fileStored;
      const collection = collector.collectGarbage(0);
      await new Promise((resolve) => setTimeout(resolve, 300)); // collection has listed the file and is deciding
      release();
      const [item] = await Promise.all([upload, collection]);
      expect(await real.exists(item.fileSha256)).toBe(true);
    });
  });
});
