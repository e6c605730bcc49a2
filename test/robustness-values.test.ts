/**
 * Robustness of values: unicode, NUL and nulls never produce a 500 or leak a stack trace, every error body is JSON
 * with `detail` (plus `message` on the /v2/signup family), and bad input never creates a record. Numbers, prototype
 * pollution and query strings: robustness-values-structure.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import {
  ADDRESS,
  EMBEDDED,
  HOSTED,
  V2,
  countEntities,
  expectHandled,
  isPlatformRoute,
  startRobustnessApps,
  type Method,
  type RobustnessApps,
} from './helpers/robustness.js';

describe('robustness: values', () => {
  let apps: RobustnessApps;
  let t: TestApp;
  const send: RobustnessApps['send'] = (app, req) => apps.send(app, req);
  const sendJson: RobustnessApps['sendJson'] = (...args) => apps.sendJson(...args);

  beforeAll(async () => {
    apps = await startRobustnessApps();
    ({ t } = apps);
  });
  afterAll(async () => {
    await apps?.close();
  });

  describe('unicode', () => {
    it.each([
      ['emoji and astral', '🏢 Widgets 😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢'],
      ['right-to-left and combining', 'שלום עולם e\u0301 \u202eRTL'],
      ['zero-width and BOM characters', 'A\u200bB\u200d\ufeffC'],
      ['CJK', '株式会社サンプル'],
      ['quotes and backslashes', `O'Brien "&" \\ Sons <b>`],
    ])('%s round-trips', async (_name, name) => {
      const res = await sendJson(t, 'POST', '/v2/signup', 'key', {
        ...V2,
        business_name: name,
        business_purpose: name,
        business_address: { ...ADDRESS, city: name },
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db
        .selectFrom('legal_entities')
        .selectAll()
        .where('id', '=', res.json().legal_entity_id)
        .executeTakeFirstOrThrow();
      expect(row.business_name).toBe(name);
      expect(row.business_purpose).toBe(name);
    });

    it('a lone surrogate escape in a text field is not a 500', async () => {
      const res = await send(t, {
        url: '/v2/signup',
        auth: 'key',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(V2).replace('"Example Widgets Inc"', '"\\ud800 lone"'),
      });
      expectHandled(res, { platform: true });
    });

    // Addresses are stored as jsonb, and PostgreSQL rejects a lone surrogate escape in
    // json ("Unicode low surrogate must follow a high surrogate"). pydantic itself refuses
    // such a str under a length constraint (string_unicode).
    it.each([
      [
        'business_address.city',
        '/v2/signup',
        `{"business_address": {"address_line_1": "1 Main St", "city": "\\ud83d", "state": "IL", "country": "US", "postal_code": "62701"}}`,
      ],
      [
        'mailing_address.id',
        '/accounts/signup',
        `{"mailing_address": {"id": "\\udc00x", "address_line_1": "1 Main St", "city": "Springfield", "state": "IL", "country": "US", "postal_code": "62701"}}`,
      ],
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
      for (const [method, url] of [
        ['PUT', '/locations/%00'],
        ['PATCH', '/locations/CA%00'],
        ['PUT', '/v2/regions/%00'],
        ['GET', '/v2/legal_entity?legal_entity_public_id=%00'],
      ] as const) {
        const res = await send(t, {
          method,
          url,
          auth: 'bearer',
          headers: { 'content-type': 'application/json' },
          payload: method === 'GET' ? undefined : '{}',
        });
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
        [
          'user_email',
          'business_name',
          'entity_type',
          'tax_classification',
          'incorporation_location',
          'incorporation_date',
          'ein',
          'llc_managed_type',
          'business_purpose',
          'business_phone',
          'business_email',
          'business_address',
          'mailing_address',
          'naics_code',
          'accounting_method',
          'accounting_period',
          'accounting_year_end',
          'futa_liability_year',
          'external_company_id',
          'authorization_callback_url',
        ].map((k) => [k, null]),
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
      [
        'POST',
        '/v2/signup',
        'key',
        { ...V2, business_address: { address_line_1: null, city: null, state: null, country: null, postal_code: null } },
      ],
      [
        'POST',
        '/v2/signup/sessions',
        'key',
        {
          business_name: null,
          user_email: null,
          callback_url: null,
          legal_entity_id: null,
          business_information: null,
          external_company_id: null,
        },
      ],
      [
        'POST',
        '/accounts/signup/sessions',
        'key',
        {
          ...HOSTED,
          business_information: Object.fromEntries(
            ['incorporation_region', 'entity_type', 'tax_classification', 'ein', 'incorporation_date', 'accounting_year_end'].map((k) => [
              k,
              null,
            ]),
          ),
        },
      ],
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
});
