/**
 * Mail, operator upload and listings: an operator uploads PDFs for an entity (content-addressed, validated,
 * limited to MAIL_MAX_BYTES); the entity lists its mail on /mail, /locations/{id}/mail and /v2/mail, never
 * another entity's. Links and the CLI: mail-links-cli.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsService } from '../src/modules/events/index.js';
import { createMailModule } from '../src/modules/mail/index.js';
import { createLocalFileStorage } from '../src/modules/mail/file-storage.js';
import { createVault } from '../src/crypto/vault.js';
import { createInstanceKeys } from '../src/modules/system/instance-keys.js';
import { TEST_VAULT_KEY, json } from './helpers/app.js';
import { tinyPdf } from './helpers/pdf.js';
import { CA_ID, NY_ID, MAX_BYTES, isoDay, pathOf, startMailFixture, type MailFixture } from './helpers/mail.js';

describe('mail: operator upload and listings', () => {
  let fixture: MailFixture;
  let t: MailFixture['t'];
  let dataDir: MailFixture['dataDir'];
  let opKey: MailFixture['opKey'];
  let apiKey: MailFixture['apiKey'];
  let entityA: MailFixture['entityA'];
  let entityB: MailFixture['entityB'];
  let tokenA: MailFixture['tokenA'];
  let tokenB: MailFixture['tokenB'];
  let ids: MailFixture['ids'];
  let upload: MailFixture['upload'];
  let get: MailFixture['get'];
  let mailCount: MailFixture['mailCount'];

  beforeAll(async () => {
    fixture = await startMailFixture();
    ({ t, dataDir, opKey, apiKey, entityA, entityB, tokenA, tokenB, ids, upload, get, mailCount } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  describe('operator upload', () => {
    it('stores the PDF at its content address and answers 201 with the item', async () => {
      const bytes = tinyPdf('fresh upload');
      const response = await upload(entityA, bytes, {
        region: 'CA',
        type: 'external-mail',
        received: '2025-04-02',
        sender: 'CA EDD',
        subject: 'Your new UI rate',
        file_name: 'rate.pdf',
      });
      expect(response.statusCode).toBe(201);
      const sha = createHash('sha256').update(bytes).digest('hex');
      expect(json(response)).toEqual({
        id: expect.stringMatching(/^mail_[0-9a-z]+$/),
        legal_entity_id: entityA,
        region: 'CA',
        type: 'external-mail',
        received: '2025-04-02',
        sender: 'CA EDD',
        file_name: 'rate.pdf',
        subject: 'Your new UI rate',
        opened_at: null,
        file_sha256: sha,
        file_size: bytes.length,
        created_at: expect.any(String),
        file_url: expect.stringMatching(
          /^http:\/\/statehouse\.test\/files\/mail\/mail_[0-9a-z]+\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/,
        ),
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
      const sha = createHash('sha256')
        .update(whole.subarray(0, whole.length - 20))
        .digest('hex');
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
      const none = await t.app.inject({
        method: 'POST',
        url: `/operator/v1/legal_entities/${entityA}/mail`,
        headers: { authorization: `Bearer ${opKey}` },
      });
      expect(none.statusCode).toBe(415);
    });

    it('needs an operator key: none, a platform API key or an access token is a 401', async () => {
      for (const authorization of [undefined, apiKey, `Bearer ${apiKey}`, `Bearer ${tokenA}`, 'Bearer sh_op_nope']) {
        const response = await t.app.inject({
          method: 'POST',
          url: `/operator/v1/legal_entities/${entityA}/mail`,
          payload: tinyPdf('unauthorised'),
          headers: { 'content-type': 'application/pdf', ...(authorization && { authorization }) },
        });
        expect(response.statusCode, String(authorization)).toBe(401);
      }
      // Authentication comes before the content type and the size.
      const response = await t.app.inject({
        method: 'POST',
        url: `/operator/v1/legal_entities/${entityA}/mail`,
        payload: Buffer.alloc(MAX_BYTES + 10),
        headers: { 'content-type': 'text/plain' },
      });
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
      expect(json(future).detail[0]).toMatchObject({
        type: 'value_error',
        loc: ['query', 'received'],
        msg: expect.stringContaining('future'),
      });
      // Today anywhere in the US is accepted (tomorrow UTC at most).
      const tomorrow = await upload(entityA, tinyPdf('x'), { received: isoDay(1) });
      expect(tomorrow.statusCode).toBe(201);
      await t.db.deleteFrom('mail_items').where('id', '=', json(tomorrow).id).execute();
    });

    it('operators list an entity’s mail', async () => {
      const response = await t.app.inject({
        url: `/operator/v1/legal_entities/${entityA}/mail`,
        headers: { authorization: `Bearer ${opKey}` },
      });
      expect(response.statusCode).toBe(200);
      expect(json(response).map((m: { id: string }) => m.id)).toEqual([ids.caNew, ids.ny, ids.none, ids.caOld]);
      expect(json(response)[0]).toMatchObject({ legal_entity_id: entityA, file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await t.app.inject({ url: `/operator/v1/legal_entities/${entityA}/mail` })).statusCode).toBe(401);
      expect(
        (await t.app.inject({ url: '/operator/v1/legal_entities/le_nope/mail', headers: { authorization: `Bearer ${opKey}` } })).statusCode,
      ).toBe(404);
    });

    it('the PDF parser is this route’s only: other routes still treat application/pdf as any other body', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v2/auth',
        headers: { authorization: apiKey, 'content-type': 'application/pdf' },
        payload: tinyPdf('x'),
      });
      expect(response.statusCode).toBe(422);
      expect(json(response).detail[0].type).toBe('model_attributes_type');
      // And the larger limit is this route's only.
      const big = await t.app.inject({
        method: 'POST',
        url: '/v2/auth',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        payload: `{"x":"${'a'.repeat(1_100_000)}"}`,
      });
      expect(big.statusCode).toBe(413);
    });

    it('the service itself ingests too (what the CLI uses)', async () => {
      // The CLI's service, with the test app's vault key (the instance keys are sealed with it).
      const { mail } = createMailModule({
        config: t.config,
        db: t.db,
        instanceKeys: createInstanceKeys(t.db, createVault([TEST_VAULT_KEY])),
        events: createEventsService(),
      });
      const item = await mail.ingest({ legalEntityId: entityB, regionCode: 'ny', receivedOn: '2025-01-05', bytes: tinyPdf('service') });
      expect(item).toMatchObject({ region: { code: 'NY' }, type: 'registered-agent', receivedOn: '2025-01-05' });
      const listed = json(await get('/v2/mail', tokenB));
      expect(listed.map((m: { id: string }) => m.id)).toContain(item.id);
      await expect(mail.ingest({ legalEntityId: entityB, regionCode: 'XX', bytes: tinyPdf('s') })).rejects.toMatchObject({
        path: ['region'],
      });
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
        id: ids.caOld,
        location_id: CA_ID,
        type: 'external-mail',
        received: '2025-01-10',
        sender: 'California EDD',
        file_url: expect.stringContaining(`/files/mail/${ids.caOld}?`),
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
        expect(json(reversed).detail).toEqual([
          expect.objectContaining({ type: 'value_error', loc: ['query', 'end_date'], input: '2025-02-01' }),
        ]);
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
        id: ids.caNew,
        region: 'CA',
        type: 'registered-agent',
        received: '2025-03-01',
        sender: 'California Franchise Tax Board',
        file_url: expect.any(String),
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
        expect(
          list.map((m: { id: string }) => m.id),
          url,
        ).toEqual([ids.b]);
      }
    });
  });
});
