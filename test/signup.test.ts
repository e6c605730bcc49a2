import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSignup } from './helpers/hosted.js';
import { createPlatform, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';

const ADDRESS = {
  address_line_1: '1 Main St',
  address_line_2: 'Suite 5',
  city: 'Austin',
  state: 'TX',
  country: 'US',
  postal_code: '78701',
};

const FULL_EMBEDDED = {
  user_email: 'owner@example.com',
  business_name: 'Lone Star Tacos LLC',
  entity_type: 'llc',
  tax_classification: 's_corp',
  incorporation_location: 'TX',
  incorporation_date: '2020-02-29',
  ein: '123456789',
  llc_managed_type: 'manager_managed',
  business_purpose: 'Restaurant',
  business_phone: '+1 (512) 555-0100',
  business_email: 'hello@tacos.example',
  business_address: ADDRESS,
  mailing_address: { ...ADDRESS, id: 'my-address-1', address_line_2: null },
  naics_code: '722511',
  accounting_method: 'cash',
  accounting_period: 'fiscal',
  accounting_year_end: 6,
  futa_liability_year: '2021',
  external_company_id: 'cust-42',
  authorization_callback_url: 'https://platform.example/done',
};

describe('signup', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  const countEntities = async () =>
    Number(
      (
        await t.db
          .selectFrom('legal_entities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, platformId } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  describe('POST /accounts/signup', () => {
    it('creates an inactive entity, persists every field and returns a single-use signup URL', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup',
        headers: { authorization: apiKey },
        payload: FULL_EMBEDDED,
      });
      expect(res.statusCode).toBe(200);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(['authorization_url', 'legal_entity_id', 'url']);
      expect(body.url).toMatch(/^http:\/\/statehouse\.test\/hosted\/s\/[A-Za-z0-9_-]{43}$/);
      expect(body.authorization_url).toBe(body.url);
      const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', body.legal_entity_id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        platform_id: platformId,
        status: 'inactive',
        business_name: 'Lone Star Tacos LLC',
        user_email: 'owner@example.com',
        entity_type: 'llc',
        tax_classification: 's_corp',
        incorporation_region: 'TX',
        incorporation_date: '2020-02-29',
        ein: '12-3456789',
        llc_managed_type: 'manager_managed',
        business_purpose: 'Restaurant',
        business_phone: '+15125550100',
        business_email: 'hello@tacos.example',
        naics_code: '722511',
        accounting_method: 'cash',
        accounting_period: 'fiscal',
        accounting_year_end: 6,
        futa_liability_year: '2021',
        external_company_id: 'cust-42',
        authorization_callback_url: 'https://platform.example/done',
      });
      expect(row.business_address).toMatchObject({ ...ADDRESS, id: expect.stringMatching(/^addr_/) });
      expect(row.mailing_address).toEqual({ ...ADDRESS, id: 'my-address-1', address_line_2: null });
    });

    it('with verbose=true also returns the legal entity', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup?verbose=true',
        headers: { authorization: apiKey },
        payload: { ...FULL_EMBEDDED, external_company_id: 'verbose-1' },
      });
      expect(res.statusCode).toBe(200);
      expect(json(res).legal_entity).toMatchObject({
        id: json(res).legal_entity_id,
        status: 'inactive',
        incorporation_location: 'TX',
        accounting_year_end: 6,
      });
    });

    it('answers a duplicate external_company_id with 409 {message, detail} and creates nothing', async () => {
      const before = await countEntities();
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup',
        headers: { authorization: apiKey },
        payload: FULL_EMBEDDED,
      });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({
        message: 'Conflict',
        detail: "A legal entity with external_company_id 'cust-42' already exists for this platform",
      });
      expect(await countEntities()).toBe(before);
    });

    it('allows the same external_company_id on another platform', async () => {
      const other = await createPlatform(t.db, 'Other Payroll');
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup',
        headers: { authorization: other.apiKey },
        payload: FULL_EMBEDDED,
      });
      expect(res.statusCode).toBe(200);
    });

    it('answers invalid input with the FastAPI 422 detail array and creates nothing', async () => {
      const before = await countEntities();
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup',
        headers: { authorization: apiKey },
        payload: { ...FULL_EMBEDDED, external_company_id: 'x-422', accounting_year_end: 13, incorporation_location: 'XX' },
      });
      expect(res.statusCode).toBe(422);
      expect(json(res).detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
        ['body', 'incorporation_location'],
        ['body', 'accounting_year_end'],
      ]);
      expect(json(res).detail[1]).toEqual({
        type: 'enum',
        loc: ['body', 'accounting_year_end'],
        msg: 'Input should be 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12',
        input: 13,
        ctx: { expected: '1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 or 12' },
      });
      expect(await countEntities()).toBe(before);
    });
  });

  describe('POST /v2/signup', () => {
    it('creates an inactive entity and returns {legal_entity_id, url}', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/signup',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { ...VALID_SIGNUP_V2, accounting_year_end: 'March', futa_liability_year: '2023', business_address: ADDRESS },
      });
      expect(res.statusCode).toBe(200);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(['legal_entity_id', 'url']);
      expect(body.legal_entity_id).toMatch(/^le_[0-9a-z]{24}$/);
      const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', body.legal_entity_id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        status: 'inactive',
        tax_classification: 'corp',
        incorporation_region: 'DE',
        incorporation_date: '2022-01-15',
        accounting_year_end: 3,
        futa_liability_year: '2023',
      });
    });

    it('renders validation errors as {message, detail, body}', async () => {
      const payload = { ...VALID_SIGNUP_V2, tax_class: 'llc' };
      const res = await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: apiKey }, payload });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({
        message: 'Validation error',
        detail: [
          {
            type: 'enum',
            loc: ['body', 'tax_class'],
            input: 'llc',
            msg: "Input should be 'unset', 'corp', 's_corp', 'partnership', 'disregarded' or 'tax_exempt'",
            ctx: { expected: "'unset', 'corp', 's_corp', 'partnership', 'disregarded' or 'tax_exempt'" },
          },
        ],
        body: payload,
      });
    });

    it('renders a duplicate external_company_id as 409 {message, detail}', async () => {
      const payload = { ...VALID_SIGNUP_V2, external_company_id: 'v2-dup' };
      expect((await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: apiKey }, payload })).statusCode).toBe(200);
      const res = await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: apiKey }, payload });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({
        message: 'Conflict',
        detail: "A legal entity with external_company_id 'v2-dup' already exists for this platform",
      });
    });

    it('renders auth failures as {message, detail}', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v2/signup', payload: VALID_SIGNUP_V2 });
      expect(res.statusCode).toBe(401);
      expect(json(res)).toEqual({ message: 'Unauthorized', detail: 'Missing API key: send it in the Authorization header' });
    });
  });

  describe('API keys', () => {
    const endpoints = [
      ['/accounts/signup', FULL_EMBEDDED],
      ['/accounts/signup/sessions', { business_name: 'A', user_email: 'a@example.com', callback_url: 'https://p.example/cb' }],
      ['/v2/signup/sessions', { business_name: 'A', user_email: 'a@example.com', callback_url: 'https://p.example/cb' }],
      ['/v2/signup', VALID_SIGNUP_V2],
      ['/accounts/auth', { legal_entity_id: 'le_x' }],
      ['/v2/auth', { legal_entity_id: 'le_x' }],
    ] as const;

    it.each(endpoints)('%s: missing key → 401, wrong key → 401, revoked key → 403, nothing created', async (url, payload) => {
      const { apiKey: revoked, apiKeyId, service } = await createPlatform(t.db, 'Revoked Co');
      await service.revokeKey(apiKeyId);
      const before = await countEntities();
      const missing = await t.app.inject({ method: 'POST', url, payload });
      const wrong = await t.app.inject({ method: 'POST', url, headers: { authorization: 'sh_key_not-a-real-key' }, payload });
      const gone = await t.app.inject({ method: 'POST', url, headers: { authorization: revoked }, payload });
      expect([missing.statusCode, wrong.statusCode, gone.statusCode]).toEqual([401, 401, 403]);
      expect(json(wrong).detail).toBe('Invalid API key');
      expect(json(gone).detail).toBe('This API key has been revoked');
      expect(missing.headers['www-authenticate']).toBeDefined();
      expect(await countEntities()).toBe(before);
    });

    it('a rotated key works alongside the old one until that is revoked', async () => {
      const { apiKey: first, apiKeyId, platformId: pid, service } = await createPlatform(t.db, 'Rotating Co');
      const second = await service.rotateKey(pid);
      for (const key of [first, second.key]) {
        expect(
          (await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: key }, payload: VALID_SIGNUP_V2 })).statusCode,
        ).toBe(200);
      }
      await service.revokeKey(apiKeyId);
      expect(
        (await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: first }, payload: VALID_SIGNUP_V2 })).statusCode,
      ).toBe(403);
      expect(
        (await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: second.key }, payload: VALID_SIGNUP_V2 }))
          .statusCode,
      ).toBe(200);
    });

    it('stores keys only as hashes', async () => {
      const { apiKey: key } = await createPlatform(t.db, 'Hash Check');
      const rows = await t.db.selectFrom('api_keys').selectAll().execute();
      const dump = JSON.stringify(rows.map((r) => ({ ...r, key_hash: r.key_hash.toString('hex') })));
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(7, 30));
    });
  });

  describe('hosted signup sessions', () => {
    const base = { business_name: 'Hosted Co', user_email: 'h@example.com', callback_url: 'https://platform.example/cb?x=1' };

    it('POST /accounts/signup/sessions returns the legacy shape and an inactive entity', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/accounts/signup/sessions',
        headers: { authorization: apiKey },
        payload: {
          ...base,
          business_information: {
            incorporation_region: 'CA',
            entity_type: 'llc',
            incorporation_date: '2019-05-01',
            accounting_year_end: 12,
            ein: '98-7654321',
          },
        },
      });
      expect(res.statusCode).toBe(200);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'legal_entity_id', 'signup_url', 'url']);
      expect(body.signup_url).toBe(body.url);
      expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(86_400_000);
      const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', body.legal_entity_id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        status: 'inactive',
        business_name: 'Hosted Co',
        incorporation_region: 'CA',
        entity_type: 'llc',
        accounting_year_end: 12,
        ein: '98-7654321',
      });
    });

    it.each(['/v2/signup/sessions', '/v2/signup/session'])('%s returns {url, created_at, expires_at, legal_entity_id}', async (url) => {
      const res = await t.app.inject({ method: 'POST', url, headers: { authorization: apiKey }, payload: base });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(json(res)).sort()).toEqual(['created_at', 'expires_at', 'legal_entity_id', 'url']);
    });

    it('sending legal_entity_id returns a new session for the same entity and updates its details', async () => {
      const first = json(
        await t.app.inject({ method: 'POST', url: '/v2/signup/sessions', headers: { authorization: apiKey }, payload: base }),
      );
      const again = await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: apiKey },
        payload: { ...base, business_name: 'Hosted Co Renamed', legal_entity_id: first.legal_entity_id },
      });
      expect(again.statusCode).toBe(200);
      expect(json(again).legal_entity_id).toBe(first.legal_entity_id);
      expect(json(again).url).not.toBe(first.url);
      const row = await t.db
        .selectFrom('legal_entities')
        .select('business_name')
        .where('id', '=', first.legal_entity_id)
        .executeTakeFirstOrThrow();
      expect(row.business_name).toBe('Hosted Co Renamed');
    });

    it("another platform's legal_entity_id is a 404", async () => {
      const first = json(
        await t.app.inject({ method: 'POST', url: '/v2/signup/sessions', headers: { authorization: apiKey }, payload: base }),
      );
      const other = await createPlatform(t.db, 'Prober');
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: other.apiKey },
        payload: { ...base, legal_entity_id: first.legal_entity_id },
      });
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ detail: `Legal entity '${first.legal_entity_id}' not found` });
    });

    it('rejects a callback_url that is not http(s)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: apiKey },
        payload: { ...base, callback_url: 'javascript:alert(1)' },
      });
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0]).toMatchObject({ type: 'url_scheme', loc: ['body', 'callback_url'] });
    });

    it('a completed entity cannot get another signup session (409)', async () => {
      const first = json(
        await t.app.inject({ method: 'POST', url: '/v2/signup/sessions', headers: { authorization: apiKey }, payload: base }),
      );
      expect((await finishSignup(t.app, first.url)).statusCode).toBe(303);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: apiKey },
        payload: { ...base, legal_entity_id: first.legal_entity_id },
      });
      expect(res.statusCode).toBe(409);
      expect(json(res)).toEqual({ message: 'Conflict', detail: `Legal entity '${first.legal_entity_id}' has already completed signup` });
    });
  });
});
