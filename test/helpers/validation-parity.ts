/**
 * 422 parity with the reference service (FastAPI 0.115+ / pydantic 2.x): the shared part of the
 * validation-parity-*.test.ts tables (pydantic message builders, enumerations, valid bodies, the runner).
 *
 * Every row is a request to one of our endpoints and the exact JSON body FastAPI
 * would answer. The expected values were derived from FastAPI's request handling
 * (fastapi/routing.py: body read + json.loads, JSONDecodeError -> json_invalid;
 * fastapi/dependencies/utils.py: path, query, header, cookie, then body errors;
 * fastapi/_compat.py: `validate_python(value, from_attributes=True)`,
 * `errors(include_url=False)`) and from pydantic-core's validators in lax/Python
 * mode (model fields in declaration order, `missing` echoing the whole object,
 * str/int/bool/enum/date coercions, dict keys at `[..., key, "[key]"]`, dict
 * length checked only once every entry validated). JSON error positions and
 * messages are CPython's `json.loads` ones (code points, not UTF-16 units).
 *
 * Rows marked "ours" assert constraints the reference leaves open (max lengths,
 * patterns on ein/naics/phone/year, e-mail and URL checks): there the expected
 * body is our documented pydantic-shaped answer.

 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createPlatformWithEntity,
  createTestApp,
  VALID_SIGNUP_EMBEDDED,
  VALID_SIGNUP_HOSTED,
  VALID_SIGNUP_V2,
  type TestApp,
} from './app.js';

// ---------------------------------------------------------------------------
// pydantic message helpers (written from pydantic-core's error templates)

export type Loc = (string | number)[];
export interface Issue {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** pydantic's `'a', 'b' or 'c'` (repr of each member value). */
export const pyRepr = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v));
export const expected = (values: readonly unknown[]) =>
  values.length === 1 ? pyRepr(values[0]) : `${values.slice(0, -1).map(pyRepr).join(', ')} or ${pyRepr(values.at(-1))}`;

export const missing = (loc: Loc, input: unknown): Issue => ({ type: 'missing', loc, msg: 'Field required', input });
export const enumError = (loc: Loc, input: unknown, values: readonly unknown[]): Issue => ({
  type: 'enum',
  loc,
  msg: `Input should be ${expected(values)}`,
  input,
  ctx: { expected: expected(values) },
});
export const stringType = (loc: Loc, input: unknown): Issue => ({ type: 'string_type', loc, msg: 'Input should be a valid string', input });
export const tooLong = (loc: Loc, input: string, max: number): Issue => ({
  type: 'string_too_long',
  loc,
  msg: `String should have at most ${max} characters`,
  input,
  ctx: { max_length: max },
});
export const tooShort = (loc: Loc, input: string, min: number): Issue => ({
  type: 'string_too_short',
  loc,
  msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`,
  input,
  ctx: { min_length: min },
});
export const patternMismatch = (loc: Loc, input: string, pattern: string): Issue => ({
  type: 'string_pattern_mismatch',
  loc,
  msg: `String should match pattern '${pattern}'`,
  input,
  ctx: { pattern },
});
export const modelAttributes = (loc: Loc, input: unknown): Issue => ({
  type: 'model_attributes_type',
  loc,
  msg: 'Input should be a valid dictionary or object to extract fields from',
  input,
});
export const boolParsing = (loc: Loc, input: unknown): Issue => ({
  type: 'bool_parsing',
  loc,
  msg: 'Input should be a valid boolean, unable to interpret input',
  input,
});
export const intParsing = (loc: Loc, input: unknown): Issue => ({
  type: 'int_parsing',
  loc,
  msg: 'Input should be a valid integer, unable to parse string as an integer',
  input,
});
export const dateParsing = (loc: Loc, input: unknown, error: string): Issue => ({
  type: 'date_from_datetime_parsing',
  loc,
  msg: `Input should be a valid date or datetime, ${error}`,
  input,
  ctx: { error },
});
export const dateInexact = (loc: Loc, input: unknown): Issue => ({
  type: 'date_from_datetime_inexact',
  loc,
  msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
  input,
});
export const jsonInvalid = (pos: number, error: string): Issue => ({
  type: 'json_invalid',
  loc: ['body', pos],
  msg: 'JSON decode error',
  input: {},
  ctx: { error },
});
export const emailError = (loc: Loc, input: string, reason: string): Issue => ({
  type: 'value_error',
  loc,
  msg: `value is not a valid email address: ${reason}`,
  input,
  ctx: { reason },
});

export const detail = (...issues: Issue[]) => ({ detail: issues });

/**
 * Where the reference gives an operation's 422 as PlatformHttpException (the /v2/regions operations), the
 * items are in `errors` and `detail` is their one-sentence summary: compared as `{detail: errors}`.
 */
function asDetailBody(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.detail !== 'string' || !Array.isArray(body.errors)) return body;
  expect(body.message).toBe('Validation error');
  expect(body.detail.length).toBeGreaterThan(0);
  return { detail: body.errors };
}
/** The /v2/signup family renders a 422 as {message, detail, body}. */
export const platform = (body: unknown, ...issues: Issue[]) => ({ message: 'Validation error', detail: issues, body });

// ---------------------------------------------------------------------------
// Enumerations, in the reference's declaration order

export const STATE_CODES: string[] = (
  JSON.parse(readFileSync(new URL('../../catalog/regions.json', import.meta.url), 'utf8')) as {
    regions: { code: string }[];
  }
).regions.map((r) => r.code);
export const ENTITY_TYPES = ['unset', 'c_corp', 'p_corp', 'pllc', 'llc', 'llp', 'lp', 'gp'];
export const TAX_CLASSES = ['unset', 'corp', 's_corp', 'partnership', 'disregarded', 'tax_exempt'];
export const LLC_MANAGED = ['member_managed', 'manager_managed'];
export const ACCOUNTING_METHODS = ['accrual', 'cash'];
export const MONTH_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export const EIN = '^\\d{2}-?\\d{7}$';
export const PHONE = '^\\+?[0-9][0-9 ().-]{5,30}$';
export const NAICS = '^\\d{2,6}$';
export const YEAR = '^(19|20)\\d{2}$';

// ---------------------------------------------------------------------------
// Valid bodies the rows mutate

export const EMBEDDED = VALID_SIGNUP_EMBEDDED;
export const V2 = { ...VALID_SIGNUP_V2 };
export const HOSTED = VALID_SIGNUP_HOSTED;
export const ADDRESS = { address_line_1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' };

export const long = (n: number, ch = 'a') => ch.repeat(n);

export interface Case {
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: string;
  auth: 'key' | 'bearer' | 'none';
  /** A JSON value (serialised, with content-type application/json) ... */
  json?: unknown;
  /** ... or a raw body; `contentType: null` sends no content-type header. */
  raw?: string;
  contentType?: string | null;
  expected: unknown;
}

/** One table: each row's exact 422 body, then a check that no row created a legal entity. */
export function describeParity(title: string, CASES: Case[], minimumCases: number) {
  describe(title, () => {
    let t: TestApp;
    let apiKey: string;
    let token: string;
    let entitiesBefore: number;

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
      ({ apiKey, token } = await createPlatformWithEntity(t));
      entitiesBefore = await countEntities();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('has a substantial table', () => {
      expect(CASES.length).toBeGreaterThanOrEqual(minimumCases);
      expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    });

    it.each(CASES)('$name', async (c) => {
      const headers: Record<string, string> = {};
      if (c.auth === 'key') headers.authorization = apiKey;
      if (c.auth === 'bearer') Object.assign(headers, bearer(token));
      let payload: string | undefined;
      if (c.json !== undefined) payload = JSON.stringify(c.json);
      else if (c.raw !== undefined) payload = c.raw;
      const contentType = c.contentType === undefined ? 'application/json' : c.contentType;
      if (contentType !== null) headers['content-type'] = contentType;

      const res = await t.app.inject({ method: c.method ?? 'POST', url: c.url, headers, payload });

      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = asDetailBody(res.json());
      const want = c.expected as { detail: Issue[]; message?: string; body?: unknown };
      // Field by field first, for a readable diff; then the whole body (no extra keys such as `url`).
      if (Array.isArray(body.detail)) {
        for (let i = 0; i < Math.min(body.detail.length, want.detail.length); i++) {
          expect(body.detail[i], `detail[${i}]`).toEqual(want.detail[i]);
        }
      }
      expect(body).toEqual(want);
      expect(res.statusCode).toBe(422);
    });

    it('created no legal entity', async () => {
      expect(await countEntities()).toBe(entitiesBefore);
    });
  });
}
