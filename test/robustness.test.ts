/**
 * Robustness: no input produces a 500 or leaks a stack trace, every error body is
 * JSON with `detail` (plus `message` on the /v2/signup family), and bad input never
 * creates a record. Ends with a seeded fuzz loop over every JSON endpoint.

 */
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, createPlatform, createTestApp, signupEntity, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

const EMBEDDED = {
  user_email: 'founder@example.com',
  business_name: 'Example Widgets Inc',
  entity_type: 'c_corp',
  tax_classification: 'corp',
  incorporation_location: 'DE',
  incorporation_date: '2022-01-15',
};
const V2 = { ...VALID_SIGNUP_V2 };
const ADDRESS = { address_line_1: '1 Main St', address_line_2: null, city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' };
const HOSTED = { business_name: 'Example Widgets Inc', user_email: 'founder@example.com', callback_url: 'https://platform.example/done' };

/** Error-shape check shared by every test: < 500, JSON, `detail`, no stack trace. */
function expectHandled(res: LightMyRequestResponse, opts: { platform?: boolean; method?: Method } = {}) {
  const where = `${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.body, 'no stack trace').not.toMatch(/\n\s+at\s|node_modules|\.ts:\d+|\/work\//);
  if (res.statusCode < 400 || opts.method === 'HEAD') return;
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body, where).toHaveProperty('detail');
  expect(typeof body.detail === 'string' || Array.isArray(body.detail), where).toBe(true);
  if (opts.platform) expect(typeof body.message, where).toBe('string');
}

const isPlatformRoute = (url: string) => url.split('?')[0] === '/v2/signup';

async function countEntities(t: TestApp): Promise<number> {
  const row = await t.db.selectFrom('legal_entities').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** mulberry32: small, fast, reproducible. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

describe('robustness', () => {
  let t: TestApp; // default body limit (1 MiB)
  let small: TestApp; // 4 KiB body limit
  let apiKey: string;
  let smallKey: string;
  let entityId: string;
  let token: string;
  let smallToken: string;

  let operatorKey: string;
  let agencyAccountId: string;

  const send = (app: TestApp, req: { method?: Method; url: string; auth?: 'key' | 'bearer' | 'operator' | 'none'; headers?: Record<string, string>; payload?: string | Buffer | Readable }) => {
    const headers: Record<string, string> = {};
    const auth = req.auth ?? 'none';
    if (auth === 'operator') headers.authorization = `Bearer ${operatorKey}`;
    if (auth === 'key') headers.authorization = app === small ? smallKey : apiKey;
    if (auth === 'bearer') Object.assign(headers, bearer(app === small ? smallToken : token));
    return app.app.inject({ method: req.method ?? 'POST', url: req.url, headers: { ...headers, ...req.headers }, payload: req.payload });
  };
  const sendJson = (app: TestApp, method: Method, url: string, auth: 'key' | 'bearer' | 'none', body: unknown) =>
    send(app, { method, url, auth, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  beforeAll(async () => {
    [t, small] = await Promise.all([createTestApp(), createTestApp({ bodyLimitBytes: 4096 })]);
    apiKey = (await createPlatform(t.db)).apiKey;
    smallKey = (await createPlatform(small.db)).apiKey;
    entityId = await signupEntity(t.app, apiKey);
    token = await accessToken(t.app, apiKey, entityId);
    smallToken = await accessToken(small.app, smallKey, await signupEntity(small.app, smallKey));
    operatorKey = (await createOperatorsService(t.db).createKey('fuzz')).key;
    agencyAccountId = (await t.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'EDD account' })).id;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), small?.close()]);
  });

  describe('body size limit (4 KiB)', () => {
    const big = JSON.stringify({ ...V2, business_purpose: 'x'.repeat(5000) });
    const cases: Array<{ name: string; method: Method; url: string; auth: 'key' | 'bearer' | 'none'; headers: Record<string, string>; payload: () => string | Readable }> = [
      { name: 'JSON to /accounts/signup', method: 'POST', url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: () => big },
      { name: 'JSON to /v2/signup', method: 'POST', url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: () => big },
      { name: 'text/plain', method: 'POST', url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'text/plain' }, payload: () => big },
      { name: 'no content type', method: 'POST', url: '/v2/signup', auth: 'key', headers: {}, payload: () => big },
      { name: 'chunked (no content-length)', method: 'POST', url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: () => Readable.from([Buffer.from(big)]) },
      { name: 'PUT /v2/regions/CA', method: 'PUT', url: '/v2/regions/CA', auth: 'bearer', headers: { 'content-type': 'application/json' }, payload: () => JSON.stringify({ employee_count: 1, pad: 'x'.repeat(5000) }) },
      { name: 'POST /v2/regions', method: 'POST', url: '/v2/regions', auth: 'bearer', headers: { 'content-type': 'application/json' }, payload: () => JSON.stringify({ config: { CA: { employee_count: 1 } }, pad: 'x'.repeat(5000) }) },
    ];

    it.each(cases)('$name -> 413', async (c) => {
      const before = await countEntities(small);
      const res = await send(small, { method: c.method, url: c.url, auth: c.auth, headers: c.headers, payload: c.payload() });
      expect(res.statusCode, res.body).toBe(413);
      expectHandled(res, { platform: isPlatformRoute(c.url) });
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(isPlatformRoute(c.url) ? ['detail', 'message'] : ['detail']);
      expect(body.detail).toEqual(expect.stringContaining('4096'));
      expect(await countEntities(small)).toBe(before);
    });

    it('an oversized body without credentials is a 401: authentication comes before the body', async () => {
      const res = await send(small, { url: '/v2/signup', auth: 'none', headers: { 'content-type': 'application/json' }, payload: big });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized', detail: expect.stringContaining('API key') });
    });

    it('accepts a body just under the limit', async () => {
      const body = JSON.stringify({ ...V2, business_purpose: 'x'.repeat(1900) });
      expect(body.length).toBeLessThan(4096);
      const res = await send(small, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: body });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('content types', () => {
    const raw = JSON.stringify(V2);
    it.each([
      ['text/plain', raw],
      ['text/plain; charset=utf-8', raw],
      ['text/json', raw],
      ['application/xml', '<signup><user_email>founder@example.com</user_email></signup>'],
      ['application/x-www-form-urlencoded', 'user_email=founder%40example.com&business_name=Acme'],
      ['multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="user_email"\r\n\r\nfounder@example.com\r\n--XyZ--\r\n'],
      ['application/octet-stream', raw],
      ['image/png', '\x89PNG\r\n'],
    ])('%s body on /v2/signup -> 422 model_attributes_type, nothing created', async (contentType, payload) => {
      const before = await countEntities(t);
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': contentType }, payload });
      expectHandled(res, { platform: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([
        { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: payload },
      ]);
      expect(await countEntities(t)).toBe(before);
    });

    it('no content type with a JSON body: parsed as JSON (as FastAPI does)', async () => {
      const before = await countEntities(t);
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: {}, payload: raw });
      expect(res.statusCode, res.body).toBe(200);
      expect(await countEntities(t)).toBe(before + 1);
    });

    it.each(['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json'])('%s is JSON', async (contentType) => {
      const res = await send(t, { url: '/accounts/auth', auth: 'key', headers: { 'content-type': contentType }, payload: JSON.stringify({ legal_entity_id: entityId }) });
      expect(res.statusCode, res.body).toBe(200);
    });

    it.each(['json', ';;;', 'application/', '/json', 'text/plain; charset="'])('odd content type %j is handled', async (contentType) => {
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': contentType }, payload: raw });
      expectHandled(res, { platform: true });
    });
  });

  describe('invalid UTF-8', () => {
    const bodies: Array<[string, Buffer]> = [
      ['0xff inside a string', Buffer.concat([Buffer.from('{"business_name":"'), Buffer.from([0xff]), Buffer.from('"}')])],
      ['overlong encoding', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])],
      ['truncated sequence at the end', Buffer.concat([Buffer.from('{"a":"x"}'), Buffer.from([0xe2, 0x82])])],
      ['lone continuation byte', Buffer.from([0x7b, 0x80, 0x7d])],
    ];
    it.each(bodies)('%s -> 400 {"detail":"There was an error parsing the body"}', async (_name, payload) => {
      const res = await send(t, { url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expectHandled(res);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'There was an error parsing the body' });
    });

    it('on /v2/signup and without a content type too', async () => {
      const before = await countEntities(t);
      for (const headers of [{ 'content-type': 'application/json' }, {}] as Record<string, string>[]) {
        const res = await send(t, { url: '/v2/signup', auth: 'key', headers, payload: bodies[0]![1] });
        expectHandled(res, { platform: true });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Bad Request', detail: 'There was an error parsing the body' });
      }
      expect(await countEntities(t)).toBe(before);
    });

    it('invalid UTF-8 in a text/plain body is not a 500', async () => {
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'text/plain' }, payload: bodies[0]![1] });
      expectHandled(res, { platform: true });
    });
  });

  describe('deeply nested JSON (100000 levels)', () => {
    const N = 100_000;
    it.each([
      ['arrays', '['.repeat(N) + ']'.repeat(N)],
      ['objects', '{"a":'.repeat(N) + '1' + '}'.repeat(N)],
      ['unterminated arrays', '['.repeat(N)],
      ['inside a field', `{"business_name":${'['.repeat(N)}${']'.repeat(N)}}`],
    ])('%s -> 422 json_invalid', async (_name, payload) => {
      for (const url of ['/accounts/signup', '/v2/signup']) {
        const res = await send(t, { url, auth: 'key', headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res, { platform: isPlatformRoute(url) });
        expect(res.statusCode).toBe(422);
        const [issue, ...rest] = res.json().detail;
        expect(rest).toEqual([]);
        expect(issue).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error', input: {} });
        expect(issue.loc).toEqual(['body', expect.any(Number)]);
        expect(typeof issue.ctx.error).toBe('string');
      }
      // Still serving.
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    });
  });

  describe('unicode', () => {
    it.each([
      ['emoji and astral', '🏢 Widgets 😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢'],
      ['right-to-left and combining', 'שלום עולם e\u0301 \u202eRTL'],
      ['zero-width and BOM characters', 'A\u200bB\u200d\ufeffC'],
      ['CJK', '株式会社サンプル'],
      ['quotes and backslashes', `O'Brien "&" \\ Sons <b>`],
    ])('%s round-trips', async (_name, name) => {
      const res = await sendJson(t, 'POST', '/v2/signup', 'key', { ...V2, business_name: name, business_purpose: name, business_address: { ...ADDRESS, city: name } });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', res.json().legal_entity_id).executeTakeFirstOrThrow();
      expect(row.business_name).toBe(name);
      expect(row.business_purpose).toBe(name);
    });

    it('a lone surrogate escape in a text field is not a 500', async () => {
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(V2).replace('"Example Widgets Inc"', '"\\ud800 lone"') });
      expectHandled(res, { platform: true });
    });

    // Addresses are stored as jsonb, and PostgreSQL rejects a lone surrogate escape in
    // json ("Unicode low surrogate must follow a high surrogate"). pydantic itself refuses
    // such a str under a length constraint (string_unicode).
    it.each([
      ['business_address.city', '/v2/signup', `{"business_address": {"address_line_1": "1 Main St", "city": "\\ud83d", "state": "IL", "country": "US", "postal_code": "62701"}}`],
      ['mailing_address.id', '/accounts/signup', `{"mailing_address": {"id": "\\udc00x", "address_line_1": "1 Main St", "city": "Springfield", "state": "IL", "country": "US", "postal_code": "62701"}}`],
    ])('lone surrogate in %s (stored as jsonb) -> 4xx, nothing created', async (_name, url, extra) => {
      const before = await countEntities(t);
      const base = JSON.stringify(url === '/v2/signup' ? V2 : EMBEDDED);
      const payload = base.slice(0, -1) + ',' + extra.slice(1);
      const res = await send(t, { url, auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expectHandled(res, { platform: isPlatformRoute(url) });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(await countEntities(t)).toBe(before);
    });

    it('NUL in a path or query parameter is not a 500', async () => {
      for (const [method, url] of [['PUT', '/locations/%00'], ['PATCH', '/locations/CA%00'], ['PUT', '/v2/regions/%00'], ['GET', '/v2/legal_entity?legal_entity_public_id=%00']] as const) {
        const res = await send(t, { method, url, auth: 'bearer', headers: { 'content-type': 'application/json' }, payload: method === 'GET' ? undefined : '{}' });
        expectHandled(res);
      }
    });

    // PostgreSQL rejects U+0000 in text ("invalid byte sequence for encoding UTF8: 0x00"):
    // it must be refused as bad input (4xx), not surface as a 500.
    const nulCases: Array<[string, string, 'key', unknown]> = [
      ['signup business_name', '/v2/signup', 'key', { ...V2, business_name: 'Acme\u0000Inc' }],
      ['signup business_purpose', '/v2/signup', 'key', { ...V2, business_purpose: 'a\u0000b' }],
      ['signup nested address', '/v2/signup', 'key', { ...V2, business_address: { ...ADDRESS, address_line_1: '1\u0000Main' } }],
      ['signup user_email', '/accounts/signup', 'key', { ...EMBEDDED, user_email: 'a\u0000@example.com' }],
      ['signup external_company_id', '/accounts/signup', 'key', { ...EMBEDDED, external_company_id: 'ext\u0000' }],
      ['auth legal_entity_id', '/accounts/auth', 'key', { legal_entity_id: 'le_\u0000' }],
      ['hosted session callback_url', '/v2/signup/sessions', 'key', { ...HOSTED, callback_url: 'https://platform.example/\u0000' }],
      ['hosted session legal_entity_id', '/accounts/signup/sessions', 'key', { ...HOSTED, legal_entity_id: '\u0000' }],
    ];
    it.each(nulCases)('NUL (U+0000) in %s -> 4xx, nothing created', async (_name, url, auth, body) => {
      const before = await countEntities(t);
      const res = await sendJson(t, 'POST', url, auth, body);
      expectHandled(res, { platform: isPlatformRoute(url) });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(await countEntities(t)).toBe(before);
    });
  });

  describe('nulls everywhere', () => {
    it('every signup field null: the required ones are reported, nothing created', async () => {
      const before = await countEntities(t);
      const body = Object.fromEntries(
        ['user_email', 'business_name', 'entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date', 'ein', 'llc_managed_type',
          'business_purpose', 'business_phone', 'business_email', 'business_address', 'mailing_address', 'naics_code', 'accounting_method',
          'accounting_period', 'accounting_year_end', 'futa_liability_year', 'external_company_id', 'authorization_callback_url'].map((k) => [k, null]),
      );
      const res = await sendJson(t, 'POST', '/accounts/signup', 'key', body);
      expectHandled(res);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail.map((i: { type: string; loc: unknown[] }) => [i.type, i.loc.at(-1)])).toEqual([
        ['string_type', 'user_email'],
        ['string_type', 'business_name'],
        ['enum', 'entity_type'],
        ['enum', 'tax_classification'],
        ['enum', 'incorporation_location'],
        ['date_type', 'incorporation_date'],
      ]);
      expect(await countEntities(t)).toBe(before);
    });

    it.each<[Method, string, 'key' | 'bearer', unknown]>([
      ['POST', '/v2/signup', 'key', { ...V2, business_address: { address_line_1: null, city: null, state: null, country: null, postal_code: null } }],
      ['POST', '/v2/signup/sessions', 'key', { business_name: null, user_email: null, callback_url: null, legal_entity_id: null, business_information: null, external_company_id: null }],
      ['POST', '/accounts/signup/sessions', 'key', { ...HOSTED, business_information: Object.fromEntries(['incorporation_region', 'entity_type', 'tax_classification', 'ein', 'incorporation_date', 'accounting_year_end'].map((k) => [k, null])) }],
      ['POST', '/accounts/auth', 'key', { legal_entity_id: null }],
      ['PUT', '/locations/CA', 'bearer', { config: { has_employees: null, has_physical_location: null, employee_count: null } }],
      ['PATCH', '/locations/CA', 'bearer', { config: null }],
      ['PUT', '/v2/regions/CA', 'bearer', { employee_count: null }],
      ['POST', '/v2/regions', 'bearer', { config: { CA: null, NY: { employee_count: null } } }],
      ['POST', '/v2/regions', 'bearer', { config: null }],
      ['POST', '/v2/regions', 'bearer', { config: { null: { employee_count: null } } }],
    ])('%s %s with nulls', async (method, url, auth, body) => {
      const res = await sendJson(t, method, url, auth, body);
      expectHandled(res, { platform: isPlatformRoute(url) });
    });
  });

  describe('numbers out of range', () => {
    it.each(['1e400', '-1e400', '1e308', '-1e308', '1e-400', '-0', '123456789012345678901234567890', '-9007199254740993', '10000001', '4.9e-324', '"99999999999999999999999999"', '"1e5"', '" 7 "'])(
      'employee_count %s is handled',
      async (raw) => {
        for (const [method, url, payload] of [
          ['PUT', '/v2/regions/NY', `{"employee_count": ${raw}}`],
          ['POST', '/v2/regions', `{"config": {"NY": {"employee_count": ${raw}}}}`],
          ['PATCH', '/locations/NY', `{"config": {"employee_count": ${raw}}}`],
        ] as const) {
          const res = await send(t, { method, url, auth: 'bearer', headers: { 'content-type': 'application/json' }, payload });
          expectHandled(res);
        }
      },
    );

    it.each(['1e400', '-1', '1e20', '-1e20', '8.64e15', '"1e400"', '"99999999999999999999"'])('accounting_year_end / dates %s are handled', async (raw) => {
      const before = await countEntities(t);
      const payload = JSON.stringify({ ...EMBEDDED, accounting_year_end: 'X', incorporation_date: 'Y' }).replace('"X"', raw).replace('"Y"', '"2022-01-15"');
      const res = await send(t, { url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expectHandled(res);
      expect(res.statusCode).toBe(422);
      expect(await countEntities(t)).toBe(before);
    });

    // PostgreSQL's date type has no year 0, and years past 9999 are not dates pydantic
    // produces either (speedate: "dates after 9999 are not supported as unix timestamps").
    it.each(['"0000-01-01"', '8640000000000000', '-8640000000000000', '253402300800000', '-62167219200000'])(
      'incorporated_date %s (outside years 1-9999) -> 4xx, nothing created',
      async (raw) => {
        const before = await countEntities(t);
        const payload = JSON.stringify({ ...V2, incorporated_date: 'D' }).replace('"D"', raw);
        const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res, { platform: true });
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(await countEntities(t)).toBe(before);
      },
    );

    it('the extreme valid dates are accepted', async () => {
      for (const date of ['1600-01-01', '9999-12-31', 253402214400000]) {
        const res = await sendJson(t, 'POST', '/v2/signup', 'key', { ...V2, incorporated_date: date });
        expect(res.statusCode, `${date}: ${res.body}`).toBe(200);
      }
    });
  });

  describe('prototype pollution', () => {
    const pristine = () => {
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).business_name).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    };

    it('__proto__ cannot supply required fields', async () => {
      const before = await countEntities(t);
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: `{"__proto__": ${JSON.stringify(V2)}}` });
      expectHandled(res, { platform: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toHaveLength(6);
      expect(await countEntities(t)).toBe(before);
      pristine();
    });

    it('__proto__ and constructor keys beside valid fields are ignored', async () => {
      const payload = JSON.stringify(V2).replace(/}$/, ',"__proto__":{"business_name":"Hacked","polluted":1},"constructor":{"prototype":{"polluted":1}}}');
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', res.json().legal_entity_id).executeTakeFirstOrThrow();
      expect(row.business_name).toBe(V2.business_name);
      pristine();
    });

    it('nested and dictionary __proto__ keys', async () => {
      const payloads: Array<[Method, string, 'key' | 'bearer', string]> = [
        ['POST', '/v2/signup', 'key', JSON.stringify({ ...V2, business_address: ADDRESS }).replace('"address_line_1"', '"__proto__":{"polluted":1},"address_line_1"')],
        ['POST', '/v2/regions', 'bearer', '{"config":{"__proto__":{"employee_count":1},"constructor":{"employee_count":1},"toString":{"employee_count":1},"hasOwnProperty":{"employee_count":1}}}'],
        ['PUT', '/locations/CA', 'bearer', '{"config":{"__proto__":{"has_employees":true},"polluted":1}}'],
        ['POST', '/accounts/signup/sessions', 'key', JSON.stringify({ ...HOSTED, business_information: { constructor: { prototype: { polluted: 1 } } } })],
      ];
      for (const [method, url, auth, payload] of payloads) {
        const res = await send(t, { method, url, auth, headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res, { platform: isPlatformRoute(url) });
      }
      const regions = await send(t, { url: '/v2/regions', auth: 'bearer', headers: { 'content-type': 'application/json' }, payload: payloads[1]![3] });
      expect(regions.statusCode).toBe(422);
      expect(regions.json().detail.map((i: { loc: unknown[] }) => i.loc)).toEqual(
        ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((k) => ['body', 'config', k, '[key]']),
      );
      pristine();
    });

    it('query strings', async () => {
      for (const url of ['/v2/legal_entity?__proto__[polluted]=1&constructor[prototype][polluted]=1', '/v2/legal_entity?__proto__=x&constructor=y&hasOwnProperty=z']) {
        const res = await send(t, { method: 'GET', url, auth: 'bearer' });
        expect(res.statusCode, res.body).toBe(200);
      }
      pristine();
    });
  });

  describe('query strings', () => {
    it('a very long value is a 422, not a crash', async () => {
      const res = await send(t, { method: 'GET', url: `/v2/legal_entity?legal_entity_public_id=${'a'.repeat(20_000)}`, auth: 'bearer' });
      expectHandled(res);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ type: 'string_too_long', loc: ['query', 'legal_entity_public_id'] });
    });

    it('a very long unknown parameter and thousands of parameters are ignored', async () => {
      for (const query of [`x=${'b'.repeat(100_000)}`, Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join('&'), 'x=1&'.repeat(5000)]) {
        const res = await send(t, { method: 'GET', url: `/v2/legal_entity?${query}`, auth: 'bearer' });
        expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      }
    });

    it('repeated and malformed parameters are handled', async () => {
      for (const url of [
        '/v2/legal_entity?legal_entity_public_id=a&legal_entity_public_id=b',
        '/v2/legal_entity?legal_entity_public_id[]=a',
        '/v2/legal_entity?legal_entity_public_id=%ZZ&%=1&=&&',
        '/v2/regions?platform_public_id=%00%ff',
      ]) {
        expectHandled(await send(t, { method: 'GET', url, auth: 'bearer' }));
      }
      for (const url of ['/accounts/signup?verbose=true&verbose=false', '/accounts/signup?verbose=%ZZ', '/accounts/signup?verbose[]=1']) {
        const res = await sendJson(t, 'POST', url, 'key', {});
        expectHandled(res);
        expect(res.statusCode).toBe(422);
      }
    });
  });

  describe('routing', () => {
    it.each<[Method, string]>([
      ['GET', '/nope'],
      ['GET', '/'],
      ['POST', '/v3/signup'],
      ['GET', '/accounts'],
      ['DELETE', '/v2/nothing/here'],
      ['GET', '/x'.repeat(2500)],
      ['GET', '/hosted/assets/../../../etc/passwd'],
    ])('%s %s -> 404 {"detail":"Not Found"}', async (method, url) => {
      const res = await send(t, { method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    });

    // Starlette routes before it reads the body: an unknown path is a 404 whatever the body is.
    it('unknown route with a malformed JSON body -> 404, not a body error', async () => {
      const res = await send(t, { url: '/nope', headers: { 'content-type': 'application/json' }, payload: '{"a" 1}' });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    });

    it('wrong method with a malformed JSON body -> 405, not a body error', async () => {
      const res = await send(t, { method: 'DELETE', url: '/v2/signup', headers: { 'content-type': 'application/json' }, payload: '{"a" 1}' });
      expect(res.statusCode, res.body).toBe(405);
      expect(res.headers.allow).toBe('POST');
    });

    // uvicorn percent-decodes with errors='replace'; the path then routes normally.
    it.each<[Method, string]>([
      ['GET', '/%'],
      ['GET', '/v2/legal_entity%'],
      ['PUT', '/locations/%E2%82'],
      ['PUT', '/v2/regions/%C0'],
    ])('%s %s (bad percent-encoding) -> 4xx with {"detail"}', async (method, url) => {
      const res = await send(t, { method, url, auth: 'bearer', headers: { 'content-type': 'application/json' }, payload: method === 'GET' ? undefined : '{"employee_count":1}' });
      expectHandled(res);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    });

    it.each<[Method, string, string[]]>([
      ['DELETE', '/v2/signup', ['POST']],
      ['GET', '/accounts/auth', ['POST']],
      ['PUT', '/v2/signup/sessions', ['POST']],
      ['PATCH', '/v2/regions', ['GET', 'POST']],
      ['DELETE', '/locations/CA', ['PATCH', 'PUT']],
      ['POST', '/legal_entity', ['GET']],
      ['OPTIONS', '/v2/auth', ['POST']],
    ])('%s %s -> 405 with Allow', async (method, url, allowed) => {
      const res = await send(t, { method, url });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
      const allow = String(res.headers.allow).split(/,\s*/);
      for (const m of allowed) expect(allow).toContain(m);
    });

    it('HEAD requests', async () => {
      const ok = await send(t, { method: 'HEAD', url: '/healthz' });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('');
      const unauthenticated = await send(t, { method: 'HEAD', url: '/v2/legal_entity' });
      expect(unauthenticated.statusCode).toBe(401);
      expect(unauthenticated.body).toBe('');
      const authed = await send(t, { method: 'HEAD', url: '/legal_entity', auth: 'bearer' });
      expect(authed.statusCode).toBe(200);
      expect(authed.body).toBe('');
      const missing = await send(t, { method: 'HEAD', url: '/nope' });
      expect(missing.statusCode).toBe(404);
      const wrong = await send(t, { method: 'HEAD', url: '/v2/signup' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers.allow).toBe('POST');
    });

    it('authentication comes before body validation, and nothing is created', async () => {
      const before = await countEntities(t);
      for (const authorization of [undefined, '', 'Bearer', 'Bearer sh_key_nope', 'x'.repeat(10_000), 'Basic Zm9vOmJhcg==']) {
        const res = await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) }, payload: '{}' });
        expectHandled(res, { platform: true });
        expect(res.statusCode).toBe(401);
      }
      expect(await countEntities(t)).toBe(before);
    });
  });

  describe('fuzz', () => {
    const SEED = 0x5eed_2026;
    const ITERATIONS = 300;

    const HOSTED_FULL = {
      ...HOSTED,
      external_company_id: null,
      business_information: {
        incorporation_region: 'CA', entity_type: 'llc', tax_classification: 'partnership', llc_managed_type: 'member_managed', business_name: 'Acme',
        business_purpose: 'Widgets', ein: '12-3456789', incorporation_date: '2021-03-04', naics_code: '5415', accounting_method: 'cash',
        accounting_period: 'calendar', accounting_year_end: 12, futa_liability_year: '2023',
      },
    };
    const PROFILE = {
      ein: '12-3456789', llc_managed_type: null, business_purpose: 'Making widgets', business_phone: '+1 (555) 010-0199', business_email: 'ops@example.com',
      business_address: ADDRESS, mailing_address: { ...ADDRESS, id: 'addr_1' }, naics_code: '5415', accounting_method: 'accrual', accounting_period: 'fiscal',
      futa_liability_year: '2024', authorization_callback_url: 'https://platform.example/callback',
    };

    interface Target { method: Method; url: string; auth: 'key' | 'bearer' | 'operator'; base: unknown; creates?: boolean }
    const targets = (): Target[] => [
      { method: 'POST', url: '/accounts/signup', auth: 'key', base: { ...EMBEDDED, ...PROFILE, accounting_year_end: 6 }, creates: true },
      { method: 'POST', url: '/v2/signup', auth: 'key', base: { ...V2, ...PROFILE, accounting_year_end: 'June' }, creates: true },
      { method: 'POST', url: '/accounts/signup/sessions', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/v2/signup/sessions', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/v2/signup/session', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/accounts/auth', auth: 'key', base: { legal_entity_id: entityId } },
      { method: 'POST', url: '/v2/auth', auth: 'key', base: { legal_entity_id: entityId } },
      { method: 'PUT', url: '/locations/CA', auth: 'bearer', base: { config: { has_employees: true, has_physical_location: false, employee_count: 3 } } },
      { method: 'PATCH', url: '/locations/CA', auth: 'bearer', base: { config: { has_employees: true, has_physical_location: true, employee_count: 4 } } },
      { method: 'PUT', url: '/v2/regions/NY', auth: 'bearer', base: { employee_count: 2 } },
      { method: 'POST', url: '/v2/regions', auth: 'bearer', base: { config: { AL: { employee_count: 1 }, AK: { employee_count: null }, TX: { employee_count: 0 } } } },
      { method: 'POST', url: '/accounts/connect', auth: 'bearer', base: { legal_entity_id: entityId, agency_account_id: agencyAccountId } },
      { method: 'POST', url: '/v2/accounts/manage/session', auth: 'bearer', base: { callback_url: 'https://platform.example/back', region_id: 'CA' } },
      { method: 'POST', url: '/v2/documents/manage/session', auth: 'bearer', base: { callback_url: 'https://platform.example/back' } },
      { method: 'POST', url: `/operator/v1/legal_entities/${entityId}/agency_accounts`, auth: 'operator', base: { region: 'CA', agency_id: 'ca-edd', name: 'Fuzz account', data: [{ name: 'Account number', value: '1', status: 'done' }] } },
      {
        method: 'POST', url: `/operator/v1/legal_entities/${entityId}/logins`, auth: 'operator',
        base: { region: 'CA', name: 'Fuzz login', login_url: 'https://example.gov/', agency_account_id: agencyAccountId, is_supported: false, secrets: { username: 'u', password: 'p', totp_seed: 'JBSWY3DPEHPK3PXP', security_answers: [{ question: 'q', answer: 'a' }] } },
      },
    ];

    // Raw JSON snippets (so values JSON.stringify cannot write, like 1e400, get through).
    const SNIPPETS = [
      'null', 'true', 'false', '0', '-0', '1', '-1', '2', '13', '1.5', '1e400', '-1e400', '1e-400', '1e308', '123456789012345678901234567890',
      '""', '" "', '"x"', '"0"', '"1"', '"yes"', '"5.0"', '"1_000"', '"12"', '"2022-02-30"', '"2022-01-15T00:00:00Z"', '"2022-01-15T10:00:00"',
      '"1642204800"', '"DE"', '"de"', '"XX"', '"llc"', '"c_corp"', '"June"', '"https://example.com/cb"', '"ftp://x"', '"javascript:alert(1)"',
      '"a@b.co"', '"@"', '"😀"', '"\\ud83d\\ude00"', '"\\u202e"', '"\\t\\n"', '"\\"quoted\\""', '"<script>alert(1)</script>"', `"' OR 1=1 --"`, '"%00"', '"a\\u0000b"', '"\\ud83d"',
      '"%s%n"', '"../../etc/passwd"', JSON.stringify('x'.repeat(3000)), JSON.stringify('é'.repeat(250)), '[]', '{}', '[null]', '[1,2,3]', '[[[[[[[[[[]]]]]]]]]]',
      '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"employee_count":1}', '{"a":{"b":{"c":{}}}}',
    ];
    const KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'x', '', ' ', '😀', 'CA', 'ca', 'XX', '10', 'user_email', 'config', 'employee_count', 'null'];
    const JUNK_CHARS = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', 'x', '0', '-', '.', 'e', 'é', '😀', '\u0001', '\u007f'];

    type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

    function mutate(rng: ReturnType<typeof prng>, base: unknown): string {
      const raw = new Map<string, string>();
      const placeholder = (snippet: string) => {
        const key = `__raw_${raw.size}__`;
        raw.set(key, snippet);
        return key;
      };
      let doc = structuredClone(base) as Json;
      const containers = (node: Json, out: Array<{ [k: string]: Json } | Json[]> = []) => {
        if (node && typeof node === 'object') {
          out.push(node);
          for (const child of Array.isArray(node) ? node : Object.values(node)) containers(child, out);
        }
        return out;
      };
      const rounds = 1 + rng.int(3);
      for (let r = 0; r < rounds; r++) {
        const all = containers(doc);
        const target = all.length > 0 ? rng.pick(all) : null;
        const op = rng.int(7);
        if (op === 0 && target && !Array.isArray(target)) {
          const keys = Object.keys(target);
          if (keys.length) delete target[rng.pick(keys)];
        } else if ((op === 1 || op === 2) && target) {
          const keys = Array.isArray(target) ? target.map((_, i) => String(i)) : Object.keys(target);
          const key = op === 1 && keys.length ? rng.pick(keys) : rng.pick(KEYS);
          const value = placeholder(rng.pick(SNIPPETS));
          if (Array.isArray(target)) target[Number(key) || 0] = value;
          else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
        } else if (op === 3) {
          doc = placeholder(rng.pick(SNIPPETS));
        } else if (op === 4) {
          doc = [doc];
        } else if (op === 5 && target && !Array.isArray(target)) {
          const keys = Object.keys(target);
          if (keys.length) {
            const from = rng.pick(keys);
            Object.defineProperty(target, rng.pick(KEYS), { value: target[from]!, enumerable: true, writable: true, configurable: true });
            delete target[from];
          }
        } else if (target && !Array.isArray(target)) {
          // A valid value of another field (type confusion between siblings).
          const keys = Object.keys(target);
          if (keys.length >= 2) target[rng.pick(keys)] = structuredClone(target[rng.pick(keys)]!);
        }
      }
      let text = JSON.stringify(doc) ?? 'null';
      for (const [key, snippet] of raw) text = text.split(JSON.stringify(key)).join(snippet);
      // Sometimes damage the text itself.
      const damage = rng.int(6);
      if (damage === 0 && text.length > 1) text = text.slice(0, rng.int(text.length));
      else if (damage === 1) {
        const at = rng.int(text.length + 1);
        text = text.slice(0, at) + rng.pick(JUNK_CHARS) + text.slice(at);
      } else if (damage === 2 && text.length > 1) {
        const at = rng.int(text.length);
        text = text.slice(0, at) + text.slice(at + 1);
      }
      return text;
    }

    it(`${ITERATIONS} mutated bodies per endpoint: never a 500, always a well-formed error, no stray records`, async () => {
      const rng = prng(SEED);
      const problems: string[] = [];
      const before = await countEntities(t);
      let created = 0;
      let statuses = new Map<number, number>();
      for (const target of targets()) {
        for (let i = 0; i < ITERATIONS; i++) {
          const payload = mutate(rng, target.base);
          const contentType = rng.int(20) === 0 ? rng.pick(['text/plain', '', 'application/x-www-form-urlencoded', 'application/vnd.api+json']) : 'application/json';
          const res = await send(t, { method: target.method, url: target.url, auth: target.auth, headers: contentType ? { 'content-type': contentType } : {}, payload });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          try {
            expectHandled(res, { platform: isPlatformRoute(target.url) });
          } catch (error) {
            problems.push(`${target.method} ${target.url} [${contentType}] ${payload.slice(0, 4000)}\n  -> ${res.statusCode} ${res.body.slice(0, 300)}\n  ${(error as Error).message.split('\n')[0]}`);
          }
          if (target.creates && res.statusCode === 200) created++;
        }
      }
      statuses = new Map([...statuses].sort((a, b) => a[0] - b[0]));
      expect(problems, `${problems.length} problem(s); statuses ${JSON.stringify([...statuses])}:\n${problems.slice(0, 10).join('\n')}`).toEqual([]);
      // Only successful signups and session creations added rows.
      expect(await countEntities(t)).toBe(before + created);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The fuzz exercised both sides.
      expect([...statuses.keys()].some((s) => s === 200)).toBe(true);
      expect([...statuses.keys()].some((s) => s === 422)).toBe(true);
    }, 180_000);
  });
});
