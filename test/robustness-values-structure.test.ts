/**
 * Robustness of values: out-of-range numbers and dates, prototype pollution and query strings never produce a 500
 * or leak a stack trace, every error body is JSON with `detail` (plus `message` on the /v2/signup family), and bad
 * input never creates a record. Unicode and nulls: robustness-values.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';
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

describe('robustness: values (numbers, prototype pollution, query strings)', () => {
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

  describe('numbers out of range', () => {
    it.each([
      '1e400',
      '-1e400',
      '1e308',
      '-1e308',
      '1e-400',
      '-0',
      '123456789012345678901234567890',
      '-9007199254740993',
      '10000001',
      '4.9e-324',
      '"99999999999999999999999999"',
      '"1e5"',
      '" 7 "',
    ])('employee_count %s is handled', async (raw) => {
      for (const [method, url, payload] of [
        ['PUT', '/v2/regions/NY', `{"employee_count": ${raw}}`],
        ['POST', '/v2/regions', `{"config": {"NY": {"employee_count": ${raw}}}}`],
        ['PATCH', '/locations/NY', `{"config": {"employee_count": ${raw}}}`],
      ] as const) {
        const res = await send(t, { method, url, auth: 'bearer', headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res);
      }
    });

    it.each(['1e400', '-1', '1e20', '-1e20', '8.64e15', '"1e400"', '"99999999999999999999"'])(
      'accounting_year_end / dates %s are handled',
      async (raw) => {
        const before = await countEntities(t);
        const payload = JSON.stringify({ ...EMBEDDED, accounting_year_end: 'X', incorporation_date: 'Y' })
          .replace('"X"', raw)
          .replace('"Y"', '"2022-01-15"');
        const res = await send(t, { url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res);
        expect(res.statusCode).toBe(422);
        expect(await countEntities(t)).toBe(before);
      },
    );

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
      const res = await send(t, {
        url: '/v2/signup',
        auth: 'key',
        headers: { 'content-type': 'application/json' },
        payload: `{"__proto__": ${JSON.stringify(V2)}}`,
      });
      expectHandled(res, { platform: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toHaveLength(6);
      expect(await countEntities(t)).toBe(before);
      pristine();
    });

    it('__proto__ and constructor keys beside valid fields are ignored', async () => {
      const payload = JSON.stringify(V2).replace(
        /}$/,
        ',"__proto__":{"business_name":"Hacked","polluted":1},"constructor":{"prototype":{"polluted":1}}}',
      );
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db
        .selectFrom('legal_entities')
        .selectAll()
        .where('id', '=', res.json().legal_entity_id)
        .executeTakeFirstOrThrow();
      expect(row.business_name).toBe(V2.business_name);
      pristine();
    });

    it('nested and dictionary __proto__ keys', async () => {
      const payloads: Array<[Method, string, 'key' | 'bearer', string]> = [
        [
          'POST',
          '/v2/signup',
          'key',
          JSON.stringify({ ...V2, business_address: ADDRESS }).replace('"address_line_1"', '"__proto__":{"polluted":1},"address_line_1"'),
        ],
        [
          'POST',
          '/v2/regions',
          'bearer',
          '{"config":{"__proto__":{"employee_count":1},"constructor":{"employee_count":1},"toString":{"employee_count":1},"hasOwnProperty":{"employee_count":1}}}',
        ],
        ['PUT', '/locations/CA', 'bearer', '{"config":{"__proto__":{"has_employees":true},"polluted":1}}'],
        [
          'POST',
          '/accounts/signup/sessions',
          'key',
          JSON.stringify({ ...HOSTED, business_information: { constructor: { prototype: { polluted: 1 } } } }),
        ],
      ];
      for (const [method, url, auth, payload] of payloads) {
        const res = await send(t, { method, url, auth, headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res, { platform: isPlatformRoute(url) });
      }
      const regions = await send(t, {
        url: '/v2/regions',
        auth: 'bearer',
        headers: { 'content-type': 'application/json' },
        payload: payloads[1]![3],
      });
      expect(regions.statusCode).toBe(422);
      expect(issuesOf(regions.json()).map((i) => i.loc)).toEqual(
        ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((k) => ['body', 'config', k, '[key]']),
      );
      pristine();
    });

    it('query strings', async () => {
      for (const url of [
        '/v2/legal_entity?__proto__[polluted]=1&constructor[prototype][polluted]=1',
        '/v2/legal_entity?__proto__=x&constructor=y&hasOwnProperty=z',
      ]) {
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
      for (const query of [
        `x=${'b'.repeat(100_000)}`,
        Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join('&'),
        'x=1&'.repeat(5000),
      ]) {
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
});
