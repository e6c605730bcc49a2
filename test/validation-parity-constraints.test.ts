/**
 * 422 parity with the reference service, fields: the string constraints we add, hosted sessions, locations and v2
 * regions (model fields, the nested address and dates: validation-parity-fields.test.ts). How the expected bodies
 * were derived: test/helpers/validation-parity.ts. The request shape: validation-parity-request.test.ts.
 */
import {
  describeParity,
  missing,
  enumError,
  tooLong,
  tooShort,
  patternMismatch,
  modelAttributes,
  boolParsing,
  intParsing,
  dateParsing,
  emailError,
  detail,
  STATE_CODES,
  ENTITY_TYPES,
  MONTH_NUMBERS,
  EIN,
  NAICS,
  YEAR,
  EMBEDDED,
  HOSTED,
  long,
  type Case,
} from './helpers/validation-parity.js';

const DATA_REASON =
  "a callback URL cannot use the 'data:' scheme: a browser would run or open it in Statehouse's page instead of returning the user to your app (use https://… or your app's own scheme)";
const RELATIVE_REASON =
  'a callback URL must be absolute, with a scheme (e.g. https://app.example.com/done, or myapp://done for a mobile app): a relative URL would resolve against Statehouse, not your app';

const CASES: Case[] = [
  // ---- string constraints we add ----
  {
    name: 'ours: min_length 1',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_name: '' },
    expected: detail(tooShort(['body', 'business_name'], '', 1)),
  },
  {
    name: 'ours: max_length 200',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_name: long(201) },
    expected: detail(tooLong(['body', 'business_name'], long(201), 200)),
  },
  {
    name: 'ours: max_length counts code points (201 emoji)',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_name: '😀'.repeat(201) },
    expected: detail(tooLong(['body', 'business_name'], '😀'.repeat(201), 200)),
  },
  {
    name: 'ours: max_length 2000',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_purpose: long(2001, 'é') },
    expected: detail(tooLong(['body', 'business_purpose'], long(2001, 'é'), 2000)),
  },
  {
    // business_phone is never refused on its format (decision 0076): 'call me' is stored as sent.
    name: 'ours: patterns on ein, naics and year, in declaration order',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, futa_liability_year: '1899', naics_code: '1', business_phone: 'call me', ein: '12345' },
    expected: detail(
      patternMismatch(['body', 'ein'], '12345', EIN),
      patternMismatch(['body', 'naics_code'], '1', NAICS),
      patternMismatch(['body', 'futa_liability_year'], '1899', YEAR),
    ),
  },
  {
    name: 'ours: e-mail addresses (EmailStr wording)',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, user_email: 'not-an-email', business_email: 'founder@localhost' },
    expected: detail(
      emailError(['body', 'user_email'], 'not-an-email', 'An email address must have an @-sign.'),
      emailError(['body', 'business_email'], 'founder@localhost', 'The part after the @-sign is not valid.'),
    ),
  },
  {
    // Callback URLs may be an app's deep link, never a scheme a browser would run (decision 0076).
    name: 'ours: callback-url scheme',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, authorization_callback_url: 'data:text/html,x' },
    expected: detail({
      type: 'url_scheme',
      loc: ['body', 'authorization_callback_url'],
      msg: `Input should be a valid callback URL: ${DATA_REASON}`,
      input: 'data:text/html,x',
      ctx: { error: DATA_REASON },
    }),
  },
  {
    name: 'ours: callback-url parsing',
    url: '/accounts/signup/sessions',
    auth: 'key',
    json: { ...HOSTED, callback_url: 'not a url' },
    expected: detail({
      type: 'url_parsing',
      loc: ['body', 'callback_url'],
      msg: `Input should be a valid callback URL: ${RELATIVE_REASON}`,
      input: 'not a url',
      ctx: { error: RELATIVE_REASON },
    }),
  },
  // external_company_id: "" is read as absent (decision 0076): test/reference-valid-requests.test.ts.

  // ---- hosted sessions ----
  {
    name: 'hosted session: {}',
    url: '/accounts/signup/sessions',
    auth: 'key',
    json: {},
    expected: detail(missing(['body', 'business_name'], {}), missing(['body', 'user_email'], {}), missing(['body', 'callback_url'], {})),
  },
  {
    name: 'hosted session: business_information given a string',
    url: '/v2/signup/sessions',
    auth: 'key',
    json: { ...HOSTED, business_information: 'x' },
    expected: detail(modelAttributes(['body', 'business_information'], 'x')),
  },
  {
    name: 'hosted session: nested business_information errors in its declaration order',
    url: '/v2/signup/session',
    auth: 'key',
    json: { ...HOSTED, business_information: { accounting_year_end: 0, incorporation_date: '2022-02-30', entity_type: 'corp' } },
    expected: detail(
      enumError(['body', 'business_information', 'entity_type'], 'corp', ENTITY_TYPES),
      dateParsing(['body', 'business_information', 'incorporation_date'], '2022-02-30', 'day value is outside expected range'),
      enumError(['body', 'business_information', 'accounting_year_end'], 0, MONTH_NUMBERS),
    ),
  },

  // ---- locations: bool, int, bounds ----
  {
    name: 'location config: bool from an unknown string, bool from a list, int from a fraction',
    method: 'PUT',
    url: '/locations/CA',
    auth: 'bearer',
    json: { config: { has_employees: 'maybe', has_physical_location: [true], employee_count: 1.5 } },
    expected: detail(
      boolParsing(['body', 'config', 'has_employees'], 'maybe'),
      { type: 'bool_type', loc: ['body', 'config', 'has_physical_location'], msg: 'Input should be a valid boolean', input: [true] },
      {
        type: 'int_from_float',
        loc: ['body', 'config', 'employee_count'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 1.5,
      },
    ),
  },
  {
    name: 'location config: bool from 2',
    method: 'PUT',
    url: '/locations/CA',
    auth: 'bearer',
    json: { config: { has_employees: 2 } },
    expected: detail(boolParsing(['body', 'config', 'has_employees'], 2)),
  },
  {
    name: 'location config: int from "abc"',
    method: 'PATCH',
    url: '/locations/CA',
    auth: 'bearer',
    json: { config: { employee_count: 'abc' } },
    expected: detail(intParsing(['body', 'config', 'employee_count'], 'abc')),
  },
  {
    name: 'location config: le bound',
    method: 'PATCH',
    url: '/locations/CA',
    auth: 'bearer',
    json: { config: { employee_count: 10_000_001 } },
    expected: detail({
      type: 'less_than_equal',
      loc: ['body', 'config', 'employee_count'],
      msg: 'Input should be less than or equal to 10000000',
      input: 10_000_001,
      ctx: { le: 10_000_000 },
    }),
  },

  // ---- v2 regions: dict[StateCode, PlatformRegionConfig] ----
  { name: 'regions batch: {}', url: '/v2/regions', auth: 'bearer', json: {}, expected: detail(missing(['body', 'config'], {})) },
  {
    name: 'regions batch: config is a list',
    url: '/v2/regions',
    auth: 'bearer',
    json: { config: [] },
    expected: detail({ type: 'dict_type', loc: ['body', 'config'], msg: 'Input should be a valid dictionary', input: [] }),
  },
  {
    name: 'regions batch: key error at [..., key, "[key]"], value errors at [..., key, ...], in key order',
    url: '/v2/regions',
    auth: 'bearer',
    json: { config: { XX: { employee_count: 1 }, CA: { employee_count: -1 }, NY: 5, TX: {} } },
    expected: detail(
      enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES),
      {
        type: 'greater_than_equal',
        loc: ['body', 'config', 'CA', 'employee_count'],
        msg: 'Input should be greater than or equal to 0',
        input: -1,
        ctx: { ge: 0 },
      },
      modelAttributes(['body', 'config', 'NY'], 5),
      missing(['body', 'config', 'TX', 'employee_count'], {}),
    ),
  },
  {
    // Known difference (docs/errors.md): JavaScript objects list integer-like keys first, so their
    // errors come first; pydantic keeps the JSON order. The errors themselves are the same.
    name: 'regions batch: integer-like keys are reported first',
    url: '/v2/regions',
    auth: 'bearer',
    raw: '{"config": {"XX": {"employee_count": 1}, "10": {"employee_count": 1}}}',
    expected: detail(
      enumError(['body', 'config', '10', '[key]'], '10', STATE_CODES),
      enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES),
    ),
  },
  {
    // pydantic-core validates every entry first and checks a dict's length only when all entries are valid.
    name: 'regions batch: 52 entries: the invalid key is reported, not the length',
    url: '/v2/regions',
    auth: 'bearer',
    json: { config: Object.fromEntries([...STATE_CODES, 'XX'].map((code) => [code, { employee_count: 1 }])) },
    expected: detail(enumError(['body', 'config', 'XX', '[key]'], 'XX', STATE_CODES)),
  },
  {
    name: 'region: {} (nullable but required)',
    method: 'PUT',
    url: '/v2/regions/CA',
    auth: 'bearer',
    json: {},
    expected: detail(missing(['body', 'employee_count'], {})),
  },
  {
    // Lax int parsing strips '.0+' (pydantic-core str_as_int): only the path error remains.
    name: 'int from "5.0" is accepted like pydantic (only the path error remains)',
    method: 'PUT',
    url: '/v2/regions/XX',
    auth: 'bearer',
    json: { employee_count: '5.0' },
    expected: detail(enumError(['path', 'region'], 'XX', STATE_CODES)),
  },
];

describeParity('422 parity with FastAPI/pydantic v2: field constraints', CASES, 20);
