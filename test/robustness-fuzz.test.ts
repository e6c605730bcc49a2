/**
 * A seeded fuzz loop over every JSON endpoint: never a 500, always a well-formed error, no stray records.
 * Routing: robustness-routing.test.ts.
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
  prng,
  startRobustnessApps,
  type Method,
  type RobustnessApps,
} from './helpers/robustness.js';

describe('robustness: fuzz', () => {
  let apps: RobustnessApps;
  let t: TestApp;
  let entityId: string;
  let agencyAccountId: string;
  const send: RobustnessApps['send'] = (app, req) => apps.send(app, req);

  beforeAll(async () => {
    apps = await startRobustnessApps();
    ({ t, entityId, agencyAccountId } = apps);
  });
  afterAll(async () => {
    await apps?.close();
  });

  describe('fuzz', () => {
    const SEED = 0x5eed_2026;
    const ITERATIONS = 300;

    const HOSTED_FULL = {
      ...HOSTED,
      external_company_id: null,
      business_information: {
        incorporation_region: 'CA',
        entity_type: 'llc',
        tax_classification: 'partnership',
        llc_managed_type: 'member_managed',
        business_name: 'Acme',
        business_purpose: 'Widgets',
        ein: '12-3456789',
        incorporation_date: '2021-03-04',
        naics_code: '5415',
        accounting_method: 'cash',
        accounting_period: 'calendar',
        accounting_year_end: 12,
        futa_liability_year: '2023',
      },
    };
    const PROFILE = {
      ein: '12-3456789',
      llc_managed_type: null,
      business_purpose: 'Making widgets',
      business_phone: '+1 (555) 010-0199',
      business_email: 'ops@example.com',
      business_address: ADDRESS,
      mailing_address: { ...ADDRESS, id: 'addr_1' },
      naics_code: '5415',
      accounting_method: 'accrual',
      accounting_period: 'fiscal',
      futa_liability_year: '2024',
      authorization_callback_url: 'https://platform.example/callback',
    };

    interface Target {
      method: Method;
      url: string;
      auth: 'key' | 'bearer' | 'operator';
      base: unknown;
      creates?: boolean;
    }
    const targets = (): Target[] => [
      { method: 'POST', url: '/accounts/signup', auth: 'key', base: { ...EMBEDDED, ...PROFILE, accounting_year_end: 6 }, creates: true },
      { method: 'POST', url: '/v2/signup', auth: 'key', base: { ...V2, ...PROFILE, accounting_year_end: 'June' }, creates: true },
      { method: 'POST', url: '/accounts/signup/sessions', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/v2/signup/sessions', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/v2/signup/session', auth: 'key', base: HOSTED_FULL, creates: true },
      { method: 'POST', url: '/accounts/auth', auth: 'key', base: { legal_entity_id: entityId } },
      { method: 'POST', url: '/v2/auth', auth: 'key', base: { legal_entity_id: entityId } },
      {
        method: 'PUT',
        url: '/locations/CA',
        auth: 'bearer',
        base: { config: { has_employees: true, has_physical_location: false, employee_count: 3 } },
      },
      {
        method: 'PATCH',
        url: '/locations/CA',
        auth: 'bearer',
        base: { config: { has_employees: true, has_physical_location: true, employee_count: 4 } },
      },
      { method: 'PUT', url: '/v2/regions/NY', auth: 'bearer', base: { employee_count: 2 } },
      {
        method: 'POST',
        url: '/v2/regions',
        auth: 'bearer',
        base: { config: { AL: { employee_count: 1 }, AK: { employee_count: null }, TX: { employee_count: 0 } } },
      },
      { method: 'POST', url: '/accounts/connect', auth: 'bearer', base: { legal_entity_id: entityId, agency_account_id: agencyAccountId } },
      {
        method: 'POST',
        url: '/v2/accounts/manage/session',
        auth: 'bearer',
        base: { callback_url: 'https://platform.example/back', region_id: 'CA' },
      },
      { method: 'POST', url: '/v2/documents/manage/session', auth: 'bearer', base: { callback_url: 'https://platform.example/back' } },
      {
        method: 'POST',
        url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
        auth: 'operator',
        base: { region: 'CA', agency_id: 'ca-edd', name: 'Fuzz account', data: [{ name: 'Account number', value: '1', status: 'done' }] },
      },
      {
        method: 'POST',
        url: `/operator/v1/legal_entities/${entityId}/logins`,
        auth: 'operator',
        base: {
          region: 'CA',
          name: 'Fuzz login',
          login_url: 'https://example.gov/',
          agency_account_id: agencyAccountId,
          is_supported: false,
          secrets: { username: 'u', password: 'p', totp_seed: 'JBSWY3DPEHPK3PXP', security_answers: [{ question: 'q', answer: 'a' }] },
        },
      },
    ];

    // Raw JSON snippets (so values JSON.stringify cannot write, like 1e400, get through).
    const SNIPPETS = [
      'null',
      'true',
      'false',
      '0',
      '-0',
      '1',
      '-1',
      '2',
      '13',
      '1.5',
      '1e400',
      '-1e400',
      '1e-400',
      '1e308',
      '123456789012345678901234567890',
      '""',
      '" "',
      '"x"',
      '"0"',
      '"1"',
      '"yes"',
      '"5.0"',
      '"1_000"',
      '"12"',
      '"2022-02-30"',
      '"2022-01-15T00:00:00Z"',
      '"2022-01-15T10:00:00"',
      '"1642204800"',
      '"DE"',
      '"de"',
      '"XX"',
      '"llc"',
      '"c_corp"',
      '"June"',
      '"https://example.com/cb"',
      '"ftp://x"',
      '"javascript:alert(1)"',
      '"a@b.co"',
      '"@"',
      '"😀"',
      '"\\ud83d\\ude00"',
      '"\\u202e"',
      '"\\t\\n"',
      '"\\"quoted\\""',
      '"<script>alert(1)</script>"',
      `"' OR 1=1 --"`,
      '"%00"',
      '"a\\u0000b"',
      '"\\ud83d"',
      '"%s%n"',
      '"../../etc/passwd"',
      JSON.stringify('x'.repeat(3000)),
      JSON.stringify('é'.repeat(250)),
      '[]',
      '{}',
      '[null]',
      '[1,2,3]',
      '[[[[[[[[[[]]]]]]]]]]',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"employee_count":1}',
      '{"a":{"b":{"c":{}}}}',
    ];
    const KEYS = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'x',
      '',
      ' ',
      '😀',
      'CA',
      'ca',
      'XX',
      '10',
      'user_email',
      'config',
      'employee_count',
      'null',
    ];
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
          const contentType =
            rng.int(20) === 0
              ? rng.pick(['text/plain', '', 'application/x-www-form-urlencoded', 'application/vnd.api+json'])
              : 'application/json';
          const res = await send(t, {
            method: target.method,
            url: target.url,
            auth: target.auth,
            headers: contentType ? { 'content-type': contentType } : {},
            payload,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          try {
            expectHandled(res, { platform: isPlatformRoute(target.url) });
          } catch (error) {
            problems.push(
              `${target.method} ${target.url} [${contentType}] ${payload.slice(0, 4000)}\n  -> ${res.statusCode} ${res.body.slice(0, 300)}\n  ${(error as Error).message.split('\n')[0]}`,
            );
          }
          if (target.creates && res.statusCode === 200) created++;
        }
      }
      statuses = new Map([...statuses].sort((a, b) => a[0] - b[0]));
      expect(
        problems,
        `${problems.length} problem(s); statuses ${JSON.stringify([...statuses])}:\n${problems.slice(0, 10).join('\n')}`,
      ).toEqual([]);
      // Only successful signups and session creations added rows.
      expect(await countEntities(t)).toBe(before + created);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // The fuzz exercised both sides.
      expect([...statuses.keys()].some((s) => s === 200)).toBe(true);
      expect([...statuses.keys()].some((s) => s === 422)).toBe(true);
    }, 180_000);
  });
});
