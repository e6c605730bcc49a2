/**
 * 422 parity with the reference service (FastAPI 0.115+ / pydantic 2.x).
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
import { accessToken, bearer, createPlatform, createTestApp, signupEntity, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';

// ---------------------------------------------------------------------------
// pydantic message helpers (written from pydantic-core's error templates)

type Loc = (string | number)[];
interface Issue { type: string; loc: Loc; msg: string; input: unknown; ctx?: Record<string, unknown> }

/** pydantic's `'a', 'b' or 'c'` (repr of each member value). */
const pyRepr = (v: unknown) => (typeof v === 'string' ? `'${v}'` : String(v));
const expected = (values: readonly unknown[]) =>
  values.length === 1 ? pyRepr(values[0]) : `${values.slice(0, -1).map(pyRepr).join(', ')} or ${pyRepr(values.at(-1))}`;

const missing = (loc: Loc, input: unknown): Issue => ({ type: 'missing', loc, msg: 'Field required', input });
const enumError = (loc: Loc, input: unknown, values: readonly unknown[]): Issue => ({
  type: 'enum', loc, msg: `Input should be ${expected(values)}`, input, ctx: { expected: expected(values) },
});
const stringType = (loc: Loc, input: unknown): Issue => ({ type: 'string_type', loc, msg: 'Input should be a valid string', input });
const tooLong = (loc: Loc, input: string, max: number): Issue => ({
  type: 'string_too_long', loc, msg: `String should have at most ${max} characters`, input, ctx: { max_length: max },
});
const tooShort = (loc: Loc, input: string, min: number): Issue => ({
  type: 'string_too_short', loc, msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`, input, ctx: { min_length: min },
});
const patternMismatch = (loc: Loc, input: string, pattern: string): Issue => ({
  type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${pattern}'`, input, ctx: { pattern },
});
const modelAttributes = (loc: Loc, input: unknown): Issue => ({
  type: 'model_attributes_type', loc, msg: 'Input should be a valid dictionary or object to extract fields from', input,
});
const boolParsing = (loc: Loc, input: unknown): Issue => ({ type: 'bool_parsing', loc, msg: 'Input should be a valid boolean, unable to interpret input', input });
const intParsing = (loc: Loc, input: unknown): Issue => ({ type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input });
const dateParsing = (loc: Loc, input: unknown, error: string): Issue => ({
  type: 'date_from_datetime_parsing', loc, msg: `Input should be a valid date or datetime, ${error}`, input, ctx: { error },
});
const dateInexact = (loc: Loc, input: unknown): Issue => ({
  type: 'date_from_datetime_inexact', loc, msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates', input,
});
const jsonInvalid = (pos: number, error: string): Issue => ({ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error } });
const emailError = (loc: Loc, input: string, reason: string): Issue => ({
  type: 'value_error', loc, msg: `value is not a valid email address: ${reason}`, input, ctx: { reason },
});

const detail = (...issues: Issue[]) => ({ detail: issues });
/** The /v2/signup family renders a 422 as {message, detail, body}. */
const platform = (body: unknown, ...issues: Issue[]) => ({ message: 'Validation error', detail: issues, body });

// ---------------------------------------------------------------------------
// Enumerations, in the reference's declaration order

const STATE_CODES: string[] = (JSON.parse(readFileSync(new URL('../catalog/regions.json', import.meta.url), 'utf8')) as {
  regions: { code: string }[];
}).regions.map((r) => r.code);
const ENTITY_TYPES = ['unset', 'c_corp', 'p_corp', 'pllc', 'llc', 'llp', 'lp', 'gp'];
const TAX_CLASSES = ['unset', 'corp', 's_corp', 'partnership', 'disregarded', 'tax_exempt'];
const LLC_MANAGED = ['member_managed', 'manager_managed'];
const ACCOUNTING_METHODS = ['accrual', 'cash'];
const MONTH_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const EIN = '^\\d{2}-?\\d{7}$';
const PHONE = '^\\+?[0-9][0-9 ().-]{5,30}$';
const NAICS = '^\\d{2,6}$';
const YEAR = '^(19|20)\\d{2}$';

// ---------------------------------------------------------------------------
// Valid bodies the rows mutate

const EMBEDDED = {
  user_email: 'founder@example.com',
  business_name: 'Example Widgets Inc',
  entity_type: 'c_corp',
  tax_classification: 'corp',
  incorporation_location: 'DE',
  incorporation_date: '2022-01-15',
};
const V2 = { ...VALID_SIGNUP_V2 };
const HOSTED = { business_name: 'Example Widgets Inc', user_email: 'founder@example.com', callback_url: 'https://platform.example/done' };
const ADDRESS = { address_line_1: '1 Main St', city: 'Springfield', state: 'IL', country: 'US', postal_code: '62701' };

const long = (n: number, ch = 'a') => ch.repeat(n);

interface Case {
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

const CASES: Case[] = [
  // ---- path, query and header come before body; each part in declaration order ----
  {
    name: 'query bool: verbose=maybe',
    url: '/accounts/signup?verbose=maybe', auth: 'key', json: EMBEDDED,
    expected: detail(boolParsing(['query', 'verbose'], 'maybe')),
  },
  {
    name: 'query bool: empty value is parsed, not treated as absent',
    url: '/accounts/signup?verbose=', auth: 'key', json: EMBEDDED,
    expected: detail(boolParsing(['query', 'verbose'], '')),
  },
  {
    name: 'query error precedes body error (POST /accounts/auth?verbose=2 with {})',
    url: '/accounts/auth?verbose=2', auth: 'key', json: {},
    expected: detail(boolParsing(['query', 'verbose'], '2'), missing(['body', 'legal_entity_id'], {})),
  },
  {
    name: 'query error precedes a non-JSON body error',
    url: '/accounts/signup?verbose=maybe', auth: 'key', raw: 'hello', contentType: 'text/plain',
    expected: detail(boolParsing(['query', 'verbose'], 'maybe'), modelAttributes(['body'], 'hello')),
  },
  {
    // Starlette's QueryParams.get() returns the last value of a repeated parameter.
    name: 'repeated scalar query parameter: the last value is validated',
    url: '/accounts/signup?verbose=true&verbose=maybe', auth: 'key', json: EMBEDDED,
    expected: detail(boolParsing(['query', 'verbose'], 'maybe')),
  },
  {
    name: 'ours: query string over maxLength',
    method: 'GET', url: `/v2/legal_entity?legal_entity_public_id=${long(65)}`, auth: 'bearer',
    expected: detail(tooLong(['query', 'legal_entity_public_id'], long(65), 64)),
  },
  {
    name: 'path enum: PUT /v2/regions/ca (codes are case-sensitive)',
    method: 'PUT', url: '/v2/regions/ca', auth: 'bearer', json: { employee_count: 1 },
    expected: detail(enumError(['path', 'region'], 'ca', STATE_CODES)),
  },
  {
    name: 'path, then query, then body',
    method: 'PUT', url: `/v2/regions/XX?platform_public_id=${long(65, 'p')}`, auth: 'bearer', json: { employee_count: 'many' },
    expected: detail(
      enumError(['path', 'region'], 'XX', STATE_CODES),
      tooLong(['query', 'platform_public_id'], long(65, 'p'), 64),
      intParsing(['body', 'employee_count'], 'many'),
    ),
  },
  {
    name: 'ours: path string over maxLength, then nested body bound',
    method: 'PATCH', url: `/locations/${long(65)}`, auth: 'bearer', json: { config: { employee_count: -1 } },
    expected: detail(tooLong(['path', 'region_platform_public_id'], long(65), 64), {
      type: 'greater_than_equal', loc: ['body', 'config', 'employee_count'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 },
    }),
  },

  {
    // Starlette matches any length; Fastify's router refuses params over 100 characters with a 414.
    name: 'ours: a path parameter over 100 characters is validated like any other',
    method: 'PATCH', url: `/locations/${long(101)}`, auth: 'bearer', json: {},
    expected: detail(tooLong(['path', 'region_platform_public_id'], long(101), 64)),
  },

  // ---- body that is not an object ----
  { name: 'body is a JSON array', url: '/accounts/signup', auth: 'key', json: [], expected: detail(modelAttributes(['body'], [])) },
  { name: 'body is a JSON string', url: '/accounts/signup', auth: 'key', json: 'text', expected: detail(modelAttributes(['body'], 'text')) },
  { name: 'body is a JSON number', url: '/accounts/signup', auth: 'key', json: 42, expected: detail(modelAttributes(['body'], 42)) },
  { name: 'body is JSON true', url: '/accounts/auth', auth: 'key', json: true, expected: detail(modelAttributes(['body'], true)) },
  { name: 'body is JSON null', url: '/accounts/signup', auth: 'key', raw: 'null', expected: detail(missing(['body'], null)) },
  { name: 'empty body with a JSON content type', url: '/accounts/signup', auth: 'key', raw: '', expected: detail(missing(['body'], null)) },
  { name: 'no body and no content type', url: '/accounts/signup', auth: 'key', raw: undefined, contentType: null, expected: detail(missing(['body'], null)) },
  {
    name: 'text/plain body is validated as raw text',
    url: '/accounts/signup', auth: 'key', raw: 'hello', contentType: 'text/plain',
    expected: detail(modelAttributes(['body'], 'hello')),
  },
  {
    name: 'text/plain body holding valid JSON is not parsed',
    url: '/accounts/auth', auth: 'key', raw: '{"legal_entity_id":"le_x"}', contentType: 'text/plain; charset=utf-8',
    expected: detail(modelAttributes(['body'], '{"legal_entity_id":"le_x"}')),
  },
  {
    name: 'form-urlencoded body on a JSON route',
    url: '/accounts/auth', auth: 'key', raw: 'legal_entity_id=le_x', contentType: 'application/x-www-form-urlencoded',
    expected: detail(modelAttributes(['body'], 'legal_entity_id=le_x')),
  },
  {
    name: 'application/xml body',
    url: '/v2/auth', auth: 'key', raw: '<auth legal_entity_id="le_x"/>', contentType: 'application/xml',
    expected: detail(modelAttributes(['body'], '<auth legal_entity_id="le_x"/>')),
  },
  {
    name: 'no content type: the body is parsed as JSON',
    url: '/accounts/auth', auth: 'key', raw: '{"legal_entity_id": 7}', contentType: null,
    expected: detail(stringType(['body', 'legal_entity_id'], 7)),
  },
  {
    name: 'application/*+json is parsed as JSON',
    url: '/v2/auth', auth: 'key', raw: '{}', contentType: 'application/vnd.api+json',
    expected: detail(missing(['body', 'legal_entity_id'], {})),
  },
  {
    // email.message gives 'text/plain' for a content type without one '/', so the body stays bytes.
    name: 'malformed content type is treated as text/plain, not 415',
    url: '/accounts/auth', auth: 'key', raw: '{}', contentType: 'json',
    expected: detail(modelAttributes(['body'], '{}')),
  },
  { name: 'optional body model given an array', method: 'PUT', url: '/locations/CA', auth: 'bearer', json: [], expected: detail(modelAttributes(['body'], [])) },
  { name: 'required body model given null', method: 'PATCH', url: '/locations/CA', auth: 'bearer', raw: 'null', expected: detail(missing(['body'], null)) },
  {
    name: 'nested optional model given a string',
    method: 'PUT', url: '/locations/CA', auth: 'bearer', json: { config: 'all' },
    expected: detail(modelAttributes(['body', 'config'], 'all')),
  },

  // ---- malformed JSON: CPython's message and code-point position ----
  {
    name: 'malformed JSON: trailing comma in an object',
    url: '/accounts/signup', auth: 'key', raw: '{"user_email": "a@b.co",}',
    expected: detail(jsonInvalid(24, 'Expecting property name enclosed in double quotes')),
  },
  {
    name: 'malformed JSON: position counts code points (é, 😀)',
    url: '/accounts/signup', auth: 'key', raw: '{"business_name": "Café 😀" "x": 1}',
    expected: detail(jsonInvalid(27, "Expecting ',' delimiter")),
  },
  { name: 'malformed JSON: single quotes', url: '/accounts/signup', auth: 'key', raw: "{'a': 1}", expected: detail(jsonInvalid(1, 'Expecting property name enclosed in double quotes')) },
  {
    name: 'malformed JSON: leading zero in a number',
    url: '/v2/regions', auth: 'bearer', raw: '{"config": {"CA": {"employee_count": 01}}}',
    expected: detail(jsonInvalid(38, "Expecting ',' delimiter")),
  },
  { name: 'malformed JSON: whitespace only', url: '/accounts/auth', auth: 'key', raw: '   ', expected: detail(jsonInvalid(3, 'Expecting value')) },
  { name: 'malformed JSON: extra data', url: '/accounts/auth', auth: 'key', raw: '{"a": 1} {"b": 2}', expected: detail(jsonInvalid(9, 'Extra data')) },
  { name: 'malformed JSON: raw newline in a string', url: '/accounts/auth', auth: 'key', raw: '{"a": "x\ny"}', expected: detail(jsonInvalid(8, 'Invalid control character at')) },
  {
    // The body is parsed before path validation (authentication comes first of all: docs/decisions.md).
    name: 'malformed JSON is reported before path validation',
    method: 'PUT', url: '/v2/regions/XX', auth: 'bearer', raw: '{"employee_count": }',
    expected: detail(jsonInvalid(19, 'Expecting value')),
  },

  // ---- model fields: missing and wrong types, in declaration order ----
  {
    name: 'empty object: every required field missing, input is the object',
    url: '/accounts/signup', auth: 'key', json: {},
    expected: detail(...['user_email', 'business_name', 'entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date'].map((f) => missing(['body', f], {}))),
  },
  {
    name: 'some fields missing: input is the whole object',
    url: '/accounts/signup', auth: 'key', json: { business_name: 'Acme', user_email: 'a@b.co', unknown: 1 },
    expected: detail(
      ...['entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date'].map((f) =>
        missing(['body', f], { business_name: 'Acme', user_email: 'a@b.co', unknown: 1 })),
    ),
  },
  {
    name: 'wrong types for str, str (null), enum, enum (int), state enum, date',
    url: '/accounts/signup', auth: 'key',
    json: { user_email: 123, business_name: null, entity_type: 'corp', tax_classification: 1, incorporation_location: 'de', incorporation_date: '2022-1-5' },
    expected: detail(
      stringType(['body', 'user_email'], 123),
      stringType(['body', 'business_name'], null),
      enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES),
      enumError(['body', 'tax_classification'], 1, TAX_CLASSES),
      enumError(['body', 'incorporation_location'], 'de', STATE_CODES),
      dateParsing(['body', 'incorporation_date'], '2022-1-5', 'input is too short'),
    ),
  },
  {
    name: 'list where a string is expected; unicode enum input',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_name: ['Acme'], entity_type: 'C‑corp ✓' },
    expected: detail(stringType(['body', 'business_name'], ['Acme']), enumError(['body', 'entity_type'], 'C‑corp ✓', ENTITY_TYPES)),
  },
  {
    name: 'nullable enums: wrong value (null is fine)',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, llc_managed_type: 'both', accounting_method: 'CASH', accounting_period: null },
    expected: detail(enumError(['body', 'llc_managed_type'], 'both', LLC_MANAGED), enumError(['body', 'accounting_method'], 'CASH', ACCOUNTING_METHODS)),
  },
  {
    name: 'int enum: 13',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, accounting_year_end: 13 },
    expected: detail(enumError(['body', 'accounting_year_end'], 13, MONTH_NUMBERS)),
  },
  {
    name: 'int enum: "13" is parsed as an int, then rejected',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, accounting_year_end: '13' },
    expected: detail(enumError(['body', 'accounting_year_end'], '13', MONTH_NUMBERS)),
  },
  {
    // IntEnum validates with lax int rules: '3.0' -> 3 and true -> 1 are members.
    name: 'int enum accepts "3.0" like pydantic (only the entity_type error remains)',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, entity_type: 'corp', accounting_year_end: '3.0' },
    expected: detail(enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES)),
  },
  {
    name: 'int enum accepts true (= 1) like pydantic (only the entity_type error remains)',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, entity_type: 'corp', accounting_year_end: true },
    expected: detail(enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES)),
  },

  // ---- nested Address model ----
  {
    name: 'nested model given a string',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_address: '1 Main St, Springfield' },
    expected: detail(modelAttributes(['body', 'business_address'], '1 Main St, Springfield')),
  },
  {
    name: 'nested model given {}: its required fields, input is the nested object',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_address: {} },
    expected: detail(...['address_line_1', 'city', 'state', 'country', 'postal_code'].map((f) => missing(['body', 'business_address', f], {}))),
  },
  {
    name: 'ours: nested model string bounds and types',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, mailing_address: { ...ADDRESS, address_line_1: '', city: 5, postal_code: long(21, '1') } },
    expected: detail(
      tooShort(['body', 'mailing_address', 'address_line_1'], '', 1),
      stringType(['body', 'mailing_address', 'city'], 5),
      tooLong(['body', 'mailing_address', 'postal_code'], long(21, '1'), 20),
    ),
  },

  // ---- dates (speedate via pydantic's lax date-from-datetime path) ----
  { name: 'date: month 13', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022-13-01' }, expected: detail(dateParsing(['body', 'incorporation_date'], '2022-13-01', 'month value is outside expected range of 1-12')) },
  { name: 'date: February 30', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022-02-30' }, expected: detail(dateParsing(['body', 'incorporation_date'], '2022-02-30', 'day value is outside expected range')) },
  { name: 'date: datetime with a non-zero time', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022-01-15T10:20:30' }, expected: detail(dateInexact(['body', 'incorporation_date'], '2022-01-15T10:20:30')) },
  { name: 'date: slashes', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022/01/15' }, expected: detail(dateParsing(['body', 'incorporation_date'], '2022/01/15', 'invalid date separator, expected `-`')) },
  { name: 'date: day first', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '15-01-2022' }, expected: detail(dateParsing(['body', 'incorporation_date'], '15-01-2022', 'invalid character in year')) },
  { name: 'date: bad datetime separator', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022-01-15X00:00' }, expected: detail(dateParsing(['body', 'incorporation_date'], '2022-01-15X00:00', 'invalid datetime separator, expected `T`, `t`, `_` or space')) },
  { name: 'date: hour 25', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '2022-01-15T25:00:00' }, expected: detail(dateParsing(['body', 'incorporation_date'], '2022-01-15T25:00:00', 'hour value is outside expected range of 0-23')) },
  { name: 'date: empty string', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: '' }, expected: detail(dateParsing(['body', 'incorporation_date'], '', 'input is too short')) },
  { name: 'date: boolean', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: true }, expected: detail({ type: 'date_type', loc: ['body', 'incorporation_date'], msg: 'Input should be a valid date', input: true }) },
  { name: 'date: unix timestamp not at midnight', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, incorporation_date: 1642204801 }, expected: detail(dateInexact(['body', 'incorporation_date'], 1642204801)) },

  // ---- string constraints we add ----
  { name: 'ours: min_length 1', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_name: '' }, expected: detail(tooShort(['body', 'business_name'], '', 1)) },
  { name: 'ours: max_length 200', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_name: long(201) }, expected: detail(tooLong(['body', 'business_name'], long(201), 200)) },
  {
    name: 'ours: max_length counts code points (201 emoji)',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_name: '😀'.repeat(201) },
    expected: detail(tooLong(['body', 'business_name'], '😀'.repeat(201), 200)),
  },
  { name: 'ours: max_length 2000', url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, business_purpose: long(2001, 'é') }, expected: detail(tooLong(['body', 'business_purpose'], long(2001, 'é'), 2000)) },
  {
    name: 'ours: patterns on ein, phone, naics and year, in declaration order',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, futa_liability_year: '1899', naics_code: '1', business_phone: 'call me', ein: '12345' },
    expected: detail(
      patternMismatch(['body', 'ein'], '12345', EIN),
      patternMismatch(['body', 'business_phone'], 'call me', PHONE),
      patternMismatch(['body', 'naics_code'], '1', NAICS),
      patternMismatch(['body', 'futa_liability_year'], '1899', YEAR),
    ),
  },
  {
    name: 'ours: e-mail addresses (EmailStr wording)',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, user_email: 'not-an-email', business_email: 'founder@localhost' },
    expected: detail(
      emailError(['body', 'user_email'], 'not-an-email', 'An email address must have an @-sign.'),
      emailError(['body', 'business_email'], 'founder@localhost', 'The part after the @-sign is not valid.'),
    ),
  },
  {
    name: 'ours: http-url scheme',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, authorization_callback_url: 'ftp://files.example.com/x' },
    expected: detail({
      type: 'url_scheme', loc: ['body', 'authorization_callback_url'], msg: "URL scheme should be 'http' or 'https'",
      input: 'ftp://files.example.com/x', ctx: { expected_schemes: "'http' or 'https'" },
    }),
  },
  {
    name: 'ours: http-url parsing',
    url: '/accounts/signup/sessions', auth: 'key', json: { ...HOSTED, callback_url: 'not a url' },
    expected: detail({
      type: 'url_parsing', loc: ['body', 'callback_url'], msg: 'Input should be a valid URL, relative URL without a base',
      input: 'not a url', ctx: { error: 'relative URL without a base' },
    }),
  },
  {
    name: 'ours: optional name with min_length',
    url: '/accounts/signup', auth: 'key', json: { ...EMBEDDED, external_company_id: '' },
    expected: detail(tooShort(['body', 'external_company_id'], '', 1)),
  },

  // ---- hosted sessions ----
  {
    name: 'hosted session: {}',
    url: '/accounts/signup/sessions', auth: 'key', json: {},
    expected: detail(missing(['body', 'business_name'], {}), missing(['body', 'user_email'], {}), missing(['body', 'callback_url'], {})),
  },
  {
    name: 'hosted session: business_information given a string',
    url: '/v2/signup/sessions', auth: 'key', json: { ...HOSTED, business_information: 'x' },
    expected: detail(modelAttributes(['body', 'business_information'], 'x')),
  },
  {
    name: 'hosted session: nested business_information errors in its declaration order',
    url: '/v2/signup/session', auth: 'key',
    json: { ...HOSTED, business_information: { accounting_year_end: 0, incorporation_date: '2022-02-30', entity_type: 'corp' } },
    expected: detail(
      enumError(['body', 'business_information', 'entity_type'], 'corp', ENTITY_TYPES),
      dateParsing(['body', 'business_information', 'incorporation_date'], '2022-02-30', 'day value is outside expected range'),
      enumError(['body', 'business_information', 'accounting_year_end'], 0, MONTH_NUMBERS),
    ),
  },

  // ---- auth ----
  { name: 'auth: legal_entity_id is a number', url: '/v2/auth', auth: 'key', json: { legal_entity_id: 5 }, expected: detail(stringType(['body', 'legal_entity_id'], 5)) },
  { name: 'ours: auth: legal_entity_id over 64', url: '/accounts/auth', auth: 'key', json: { legal_entity_id: long(65, 'l') }, expected: detail(tooLong(['body', 'legal_entity_id'], long(65, 'l'), 64)) },

  // ---- locations: bool, int, bounds ----
  {
    name: 'location config: bool from an unknown string, bool from a list, int from a fraction',
    method: 'PUT', url: '/locations/CA', auth: 'bearer', json: { config: { has_employees: 'maybe', has_physical_location: [true], employee_count: 1.5 } },
    expected: detail(
      boolParsing(['body', 'config', 'has_employees'], 'maybe'),
      { type: 'bool_type', loc: ['body', 'config', 'has_physical_location'], msg: 'Input should be a valid boolean', input: [true] },
      { type: 'int_from_float', loc: ['body', 'config', 'employee_count'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
    ),
  },
  { name: 'location config: bool from 2', method: 'PUT', url: '/locations/CA', auth: 'bearer', json: { config: { has_employees: 2 } }, expected: detail(boolParsing(['body', 'config', 'has_employees'], 2)) },
  { name: 'location config: int from "abc"', method: 'PATCH', url: '/locations/CA', auth: 'bearer', json: { config: { employee_count: 'abc' } }, expected: detail(intParsing(['body', 'config', 'employee_count'], 'abc')) },
  {
    name: 'location config: le bound',
    method: 'PATCH', url: '/locations/CA', auth: 'bearer', json: { config: { employee_count: 10_000_001 } },
    expected: detail({ type: 'less_than_equal', loc: ['body', 'config', 'employee_count'], msg: 'Input should be less than or equal to 10000000', input: 10_000_001, ctx: { le: 10_000_000 } }),
  },

  // ---- v2 regions: dict[StateCode, PlatformRegionConfig] ----
  { name: 'regions batch: {}', url: '/v2/regions', auth: 'bearer', json: {}, expected: detail(missing(['body', 'config'], {})) },
  { name: 'regions batch: config is a list', url: '/v2/regions', auth: 'bearer', json: { config: [] }, expected: detail({ type: 'dict_type', loc: ['body', 'config'], msg: 'Input should be a valid dictionary', input: [] }) },
  {
    name: 'regions batch: key error at [..., key, "[key]"], value errors at [..., key, ...], in key order',
    url: '/v2/regions', auth: 'bearer',
    json: { config: { XX: { employee_count: 1 }, CA: { employee_count: -1 }, NY: 5, TX: {} } },
    expected: detail(
      enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES),
      { type: 'greater_than_equal', loc: ['body', 'config', 'CA', 'employee_count'], msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } },
      modelAttributes(['body', 'config', 'NY'], 5),
      missing(['body', 'config', 'TX', 'employee_count'], {}),
    ),
  },
  {
    // Known difference (docs/errors.md): JavaScript objects list integer-like keys first, so their
    // errors come first; pydantic keeps the JSON order. The errors themselves are the same.
    name: 'regions batch: integer-like keys are reported first',
    url: '/v2/regions', auth: 'bearer', raw: '{"config": {"XX": {"employee_count": 1}, "10": {"employee_count": 1}}}',
    expected: detail(enumError(['body', 'config', '10', '[key]'], '10', STATE_CODES), enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES)),
  },
  {
    // pydantic-core validates every entry first and checks a dict's length only when all entries are valid.
    name: 'regions batch: 52 entries: the invalid key is reported, not the length',
    url: '/v2/regions', auth: 'bearer',
    json: { config: Object.fromEntries([...STATE_CODES, 'XX'].map((code) => [code, { employee_count: 1 }])) },
    expected: detail(enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES)),
  },
  { name: 'region: {} (nullable but required)', method: 'PUT', url: '/v2/regions/CA', auth: 'bearer', json: {}, expected: detail(missing(['body', 'employee_count'], {})) },
  {
    // Lax int parsing strips '.0+' (pydantic-core str_as_int): only the path error remains.
    name: 'int from "5.0" is accepted like pydantic (only the path error remains)',
    method: 'PUT', url: '/v2/regions/XX', auth: 'bearer', json: { employee_count: '5.0' },
    expected: detail(enumError(['path', 'region'], 'XX', STATE_CODES)),
  },

  // ---- /v2/signup: {message, detail, body} ----
  {
    name: '/v2/signup: {}',
    url: '/v2/signup', auth: 'key', json: {},
    expected: platform({}, ...['user_email', 'business_name', 'entity_type', 'tax_class', 'incorporation_region', 'incorporated_date'].map((f) => missing(['body', f], {}))),
  },
  {
    name: '/v2/signup: enum errors, body echoed',
    url: '/v2/signup', auth: 'key', json: { ...V2, tax_class: 'llc', accounting_year_end: 'Jan' },
    expected: platform(
      { ...V2, tax_class: 'llc', accounting_year_end: 'Jan' },
      enumError(['body', 'tax_class'], 'llc', TAX_CLASSES),
      enumError(['body', 'accounting_year_end'], 'Jan', MONTH_NAMES),
    ),
  },
  {
    name: '/v2/signup: date and nested address errors',
    url: '/v2/signup', auth: 'key', json: { ...V2, incorporated_date: '2022-02-30', business_address: { ...ADDRESS, postal_code: 62701 } },
    expected: platform(
      { ...V2, incorporated_date: '2022-02-30', business_address: { ...ADDRESS, postal_code: 62701 } },
      dateParsing(['body', 'incorporated_date'], '2022-02-30', 'day value is outside expected range'),
      stringType(['body', 'business_address', 'postal_code'], 62701),
    ),
  },
  { name: '/v2/signup: array body, body is null', url: '/v2/signup', auth: 'key', json: [1, 2], expected: platform(null, modelAttributes(['body'], [1, 2])) },
  { name: '/v2/signup: malformed JSON, body is null', url: '/v2/signup', auth: 'key', raw: '{"user_email": "a@b.co",}', expected: platform(null, jsonInvalid(24, 'Expecting property name enclosed in double quotes')) },
  { name: '/v2/signup: text/plain, body is null', url: '/v2/signup', auth: 'key', raw: 'user_email=a@b.co', contentType: 'text/plain', expected: platform(null, modelAttributes(['body'], 'user_email=a@b.co')) },
  { name: '/v2/signup: null body', url: '/v2/signup', auth: 'key', raw: 'null', expected: platform(null, missing(['body'], null)) },
];

describe('422 parity with FastAPI/pydantic v2', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  let entitiesBefore: number;

  const countEntities = async () => Number((await t.db.selectFrom('legal_entities').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    apiKey = (await createPlatform(t.db)).apiKey;
    token = await accessToken(t.app, apiKey, await signupEntity(t.app, apiKey));
    entitiesBefore = await countEntities();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has a substantial table', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
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
    const body = res.json();
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
