/**
 * 422 parity with the reference service, fields: model fields in declaration order, the nested address,
 * dates, the string constraints we add, hosted sessions, locations and v2 regions. How the expected bodies
 * were derived: test/helpers/validation-parity.ts. The request shape: validation-parity-request.test.ts.
 */
import {
  describeParity,
  missing,
  enumError,
  stringType,
  tooLong,
  tooShort,
  patternMismatch,
  modelAttributes,
  boolParsing,
  intParsing,
  dateParsing,
  dateInexact,
  emailError,
  detail,
  STATE_CODES,
  ENTITY_TYPES,
  TAX_CLASSES,
  LLC_MANAGED,
  ACCOUNTING_METHODS,
  MONTH_NUMBERS,
  EIN,
  PHONE,
  NAICS,
  YEAR,
  EMBEDDED,
  HOSTED,
  ADDRESS,
  long,
  type Case,
} from './helpers/validation-parity.js';

const CASES: Case[] = [
  // ---- model fields: missing and wrong types, in declaration order ----
  {
    name: 'empty object: every required field missing, input is the object',
    url: '/accounts/signup',
    auth: 'key',
    json: {},
    expected: detail(
      ...['user_email', 'business_name', 'entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date'].map((f) =>
        missing(['body', f], {}),
      ),
    ),
  },
  {
    name: 'some fields missing: input is the whole object',
    url: '/accounts/signup',
    auth: 'key',
    json: { business_name: 'Acme', user_email: 'a@b.co', unknown: 1 },
    expected: detail(
      ...['entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date'].map((f) =>
        missing(['body', f], { business_name: 'Acme', user_email: 'a@b.co', unknown: 1 }),
      ),
    ),
  },
  {
    name: 'wrong types for str, str (null), enum, enum (int), state enum, date',
    url: '/accounts/signup',
    auth: 'key',
    json: {
      user_email: 123,
      business_name: null,
      entity_type: 'corp',
      tax_classification: 1,
      incorporation_location: 'de',
      incorporation_date: '2022-1-5',
    },
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
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_name: ['Acme'], entity_type: 'C‑corp ✓' },
    expected: detail(stringType(['body', 'business_name'], ['Acme']), enumError(['body', 'entity_type'], 'C‑corp ✓', ENTITY_TYPES)),
  },
  {
    name: 'nullable enums: wrong value (null is fine)',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, llc_managed_type: 'both', accounting_method: 'CASH', accounting_period: null },
    expected: detail(
      enumError(['body', 'llc_managed_type'], 'both', LLC_MANAGED),
      enumError(['body', 'accounting_method'], 'CASH', ACCOUNTING_METHODS),
    ),
  },
  {
    name: 'int enum: 13',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, accounting_year_end: 13 },
    expected: detail(enumError(['body', 'accounting_year_end'], 13, MONTH_NUMBERS)),
  },
  {
    name: 'int enum: "13" is parsed as an int, then rejected',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, accounting_year_end: '13' },
    expected: detail(enumError(['body', 'accounting_year_end'], '13', MONTH_NUMBERS)),
  },
  {
    // IntEnum validates with lax int rules: '3.0' -> 3 and true -> 1 are members.
    name: 'int enum accepts "3.0" like pydantic (only the entity_type error remains)',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, entity_type: 'corp', accounting_year_end: '3.0' },
    expected: detail(enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES)),
  },
  {
    name: 'int enum accepts true (= 1) like pydantic (only the entity_type error remains)',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, entity_type: 'corp', accounting_year_end: true },
    expected: detail(enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES)),
  },

  // ---- nested Address model ----
  {
    name: 'nested model given a string',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_address: '1 Main St, Springfield' },
    expected: detail(modelAttributes(['body', 'business_address'], '1 Main St, Springfield')),
  },
  {
    name: 'nested model given {}: its required fields, input is the nested object',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, business_address: {} },
    expected: detail(
      ...['address_line_1', 'city', 'state', 'country', 'postal_code'].map((f) => missing(['body', 'business_address', f], {})),
    ),
  },
  {
    name: 'ours: nested model string bounds and types',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, mailing_address: { ...ADDRESS, address_line_1: '', city: 5, postal_code: long(21, '1') } },
    expected: detail(
      tooShort(['body', 'mailing_address', 'address_line_1'], '', 1),
      stringType(['body', 'mailing_address', 'city'], 5),
      tooLong(['body', 'mailing_address', 'postal_code'], long(21, '1'), 20),
    ),
  },

  // ---- dates (speedate via pydantic's lax date-from-datetime path) ----
  {
    name: 'date: month 13',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022-13-01' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '2022-13-01', 'month value is outside expected range of 1-12')),
  },
  {
    name: 'date: February 30',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022-02-30' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '2022-02-30', 'day value is outside expected range')),
  },
  {
    name: 'date: datetime with a non-zero time',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022-01-15T10:20:30' },
    expected: detail(dateInexact(['body', 'incorporation_date'], '2022-01-15T10:20:30')),
  },
  {
    name: 'date: slashes',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022/01/15' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '2022/01/15', 'invalid date separator, expected `-`')),
  },
  {
    name: 'date: day first',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '15-01-2022' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '15-01-2022', 'invalid character in year')),
  },
  {
    name: 'date: bad datetime separator',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022-01-15X00:00' },
    expected: detail(
      dateParsing(['body', 'incorporation_date'], '2022-01-15X00:00', 'invalid datetime separator, expected `T`, `t`, `_` or space'),
    ),
  },
  {
    name: 'date: hour 25',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '2022-01-15T25:00:00' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '2022-01-15T25:00:00', 'hour value is outside expected range of 0-23')),
  },
  {
    name: 'date: empty string',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: '' },
    expected: detail(dateParsing(['body', 'incorporation_date'], '', 'input is too short')),
  },
  {
    name: 'date: boolean',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: true },
    expected: detail({ type: 'date_type', loc: ['body', 'incorporation_date'], msg: 'Input should be a valid date', input: true }),
  },
  {
    name: 'date: unix timestamp not at midnight',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, incorporation_date: 1642204801 },
    expected: detail(dateInexact(['body', 'incorporation_date'], 1642204801)),
  },

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
    name: 'ours: patterns on ein, phone, naics and year, in declaration order',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, futa_liability_year: '1899', naics_code: '1', business_phone: 'call me', ein: '12345' },
    expected: detail(
      patternMismatch(['body', 'ein'], '12345', EIN),
      patternMismatch(['body', 'business_phone'], 'call me', PHONE),
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
    name: 'ours: http-url scheme',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, authorization_callback_url: 'ftp://files.example.com/x' },
    expected: detail({
      type: 'url_scheme',
      loc: ['body', 'authorization_callback_url'],
      msg: "URL scheme should be 'http' or 'https'",
      input: 'ftp://files.example.com/x',
      ctx: { expected_schemes: "'http' or 'https'" },
    }),
  },
  {
    name: 'ours: http-url parsing',
    url: '/accounts/signup/sessions',
    auth: 'key',
    json: { ...HOSTED, callback_url: 'not a url' },
    expected: detail({
      type: 'url_parsing',
      loc: ['body', 'callback_url'],
      msg: 'Input should be a valid URL, relative URL without a base',
      input: 'not a url',
      ctx: { error: 'relative URL without a base' },
    }),
  },
  {
    name: 'ours: optional name with min_length',
    url: '/accounts/signup',
    auth: 'key',
    json: { ...EMBEDDED, external_company_id: '' },
    expected: detail(tooShort(['body', 'external_company_id'], '', 1)),
  },

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

describeParity('422 parity with FastAPI/pydantic v2: fields', CASES, 40);
