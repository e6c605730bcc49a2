/**
 * 422 parity with the reference service, fields: model fields in declaration order, the nested address and dates.
 * The string constraints we add, hosted sessions, locations and v2 regions: validation-parity-constraints.test.ts.
 * How the expected bodies were derived: test/helpers/validation-parity.ts. The request shape:
 * validation-parity-request.test.ts.
 */
import {
  describeParity,
  missing,
  enumError,
  stringType,
  tooLong,
  tooShort,
  modelAttributes,
  dateParsing,
  dateInexact,
  detail,
  STATE_CODES,
  ENTITY_TYPES,
  TAX_CLASSES,
  LLC_MANAGED,
  ACCOUNTING_METHODS,
  MONTH_NUMBERS,
  EMBEDDED,
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
      incorporation_location: 'xx',
      incorporation_date: '2022-1-5',
    },
    expected: detail(
      stringType(['body', 'user_email'], 123),
      stringType(['body', 'business_name'], null),
      enumError(['body', 'entity_type'], 'corp', ENTITY_TYPES),
      enumError(['body', 'tax_classification'], 1, TAX_CLASSES),
      enumError(['body', 'incorporation_location'], 'xx', STATE_CODES),
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
];

describeParity('422 parity with FastAPI/pydantic v2: fields', CASES, 20);
