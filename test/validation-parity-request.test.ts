/**
 * 422 parity with the reference service, request shape: path, query and header before the body, bodies that
 * are not objects, malformed JSON, auth and the /v2/signup family's {message, detail, body}. How the expected
 * bodies were derived: test/helpers/validation-parity.ts. The field rules: validation-parity-fields.test.ts.
 */
import {
  describeParity,
  missing,
  enumError,
  stringType,
  tooLong,
  modelAttributes,
  boolParsing,
  intParsing,
  dateParsing,
  jsonInvalid,
  detail,
  platform,
  STATE_CODES,
  TAX_CLASSES,
  MONTH_NAMES,
  EMBEDDED,
  V2,
  ADDRESS,
  long,
  type Case,
} from './helpers/validation-parity.js';

const CASES: Case[] = [
  // ---- path, query and header come before body; each part in declaration order ----
  {
    name: 'query bool: verbose=maybe',
    url: '/accounts/signup?verbose=maybe',
    auth: 'key',
    json: EMBEDDED,
    expected: detail(boolParsing(['query', 'verbose'], 'maybe')),
  },
  // `?verbose=` (an empty optional query value) is read as absent (decision 0076): served, not a bool_parsing 422.
  {
    name: 'query error precedes body error (POST /accounts/auth?verbose=2 with {})',
    url: '/accounts/auth?verbose=2',
    auth: 'key',
    json: {},
    expected: detail(boolParsing(['query', 'verbose'], '2'), missing(['body', 'legal_entity_id'], {})),
  },
  {
    name: 'query error precedes a non-JSON body error',
    url: '/accounts/signup?verbose=maybe',
    auth: 'key',
    raw: 'hello',
    contentType: 'text/plain',
    expected: detail(boolParsing(['query', 'verbose'], 'maybe'), modelAttributes(['body'], 'hello')),
  },
  {
    // Starlette's QueryParams.get() returns the last value of a repeated parameter.
    name: 'repeated scalar query parameter: the last value is validated',
    url: '/accounts/signup?verbose=true&verbose=maybe',
    auth: 'key',
    json: EMBEDDED,
    expected: detail(boolParsing(['query', 'verbose'], 'maybe')),
  },
  {
    name: 'ours: query string over maxLength',
    method: 'GET',
    url: `/v2/legal_entity?legal_entity_public_id=${long(65)}`,
    auth: 'bearer',
    expected: detail(tooLong(['query', 'legal_entity_public_id'], long(65), 64)),
  },
  {
    // A code in any case, a name or a location id is read (decision 0077); an unknown one is pydantic's enum issue.
    name: 'path enum: PUT /v2/regions/zz',
    method: 'PUT',
    url: '/v2/regions/zz',
    auth: 'bearer',
    json: { employee_count: 1 },
    expected: detail(enumError(['path', 'region'], 'zz', STATE_CODES)),
  },
  {
    name: 'path, then query, then body',
    method: 'PUT',
    url: `/v2/regions/XX?platform_public_id=${long(65, 'p')}`,
    auth: 'bearer',
    json: { employee_count: 'many' },
    expected: detail(
      enumError(['path', 'region'], 'XX', STATE_CODES),
      tooLong(['query', 'platform_public_id'], long(65, 'p'), 64),
      intParsing(['body', 'employee_count'], 'many'),
    ),
  },
  {
    name: 'ours: path string over maxLength, then nested body bound',
    method: 'PATCH',
    url: `/locations/${long(65)}`,
    auth: 'bearer',
    json: { config: { employee_count: -1 } },
    expected: detail(tooLong(['path', 'region_platform_public_id'], long(65), 64), {
      type: 'greater_than_equal',
      loc: ['body', 'config', 'employee_count'],
      msg: 'Input should be greater than or equal to 0',
      input: -1,
      ctx: { ge: 0 },
    }),
  },

  {
    // Starlette matches any length; Fastify's router refuses params over 100 characters with a 414.
    name: 'ours: a path parameter over 100 characters is validated like any other',
    method: 'PATCH',
    url: `/locations/${long(101)}`,
    auth: 'bearer',
    json: {},
    expected: detail(tooLong(['path', 'region_platform_public_id'], long(101), 64)),
  },

  // ---- body that is not an object ----
  { name: 'body is a JSON array', url: '/accounts/signup', auth: 'key', json: [], expected: detail(modelAttributes(['body'], [])) },
  {
    name: 'body is a JSON string',
    url: '/accounts/signup',
    auth: 'key',
    json: 'text',
    expected: detail(modelAttributes(['body'], 'text')),
  },
  { name: 'body is a JSON number', url: '/accounts/signup', auth: 'key', json: 42, expected: detail(modelAttributes(['body'], 42)) },
  { name: 'body is JSON true', url: '/accounts/auth', auth: 'key', json: true, expected: detail(modelAttributes(['body'], true)) },
  { name: 'body is JSON null', url: '/accounts/signup', auth: 'key', raw: 'null', expected: detail(missing(['body'], null)) },
  { name: 'empty body with a JSON content type', url: '/accounts/signup', auth: 'key', raw: '', expected: detail(missing(['body'], null)) },
  {
    name: 'no body and no content type',
    url: '/accounts/signup',
    auth: 'key',
    raw: undefined,
    contentType: null,
    expected: detail(missing(['body'], null)),
  },
  {
    name: 'text/plain body is validated as raw text',
    url: '/accounts/signup',
    auth: 'key',
    raw: 'hello',
    contentType: 'text/plain',
    expected: detail(modelAttributes(['body'], 'hello')),
  },
  {
    name: 'text/plain body holding valid JSON is not parsed',
    url: '/accounts/auth',
    auth: 'key',
    raw: '{"legal_entity_id":"le_x"}',
    contentType: 'text/plain; charset=utf-8',
    expected: detail(modelAttributes(['body'], '{"legal_entity_id":"le_x"}')),
  },
  {
    name: 'form-urlencoded body on a JSON route',
    url: '/accounts/auth',
    auth: 'key',
    raw: 'legal_entity_id=le_x',
    contentType: 'application/x-www-form-urlencoded',
    expected: detail(modelAttributes(['body'], 'legal_entity_id=le_x')),
  },
  {
    name: 'application/xml body',
    url: '/v2/auth',
    auth: 'key',
    raw: '<auth legal_entity_id="le_x"/>',
    contentType: 'application/xml',
    expected: detail(modelAttributes(['body'], '<auth legal_entity_id="le_x"/>')),
  },
  {
    name: 'no content type: the body is parsed as JSON',
    url: '/accounts/auth',
    auth: 'key',
    raw: '{"legal_entity_id": 7}',
    contentType: null,
    expected: detail(stringType(['body', 'legal_entity_id'], 7)),
  },
  {
    name: 'application/*+json is parsed as JSON',
    url: '/v2/auth',
    auth: 'key',
    raw: '{}',
    contentType: 'application/vnd.api+json',
    expected: detail(missing(['body', 'legal_entity_id'], {})),
  },
  {
    // email.message gives 'text/plain' for a content type without one '/', so the body stays bytes.
    name: 'malformed content type is treated as text/plain, not 415',
    url: '/accounts/auth',
    auth: 'key',
    raw: '{}',
    contentType: 'json',
    expected: detail(modelAttributes(['body'], '{}')),
  },
  {
    name: 'optional body model given an array',
    method: 'PUT',
    url: '/locations/CA',
    auth: 'bearer',
    json: [],
    expected: detail(modelAttributes(['body'], [])),
  },
  {
    name: 'required body model given null',
    method: 'PATCH',
    url: '/locations/CA',
    auth: 'bearer',
    raw: 'null',
    expected: detail(missing(['body'], null)),
  },
  {
    name: 'nested optional model given a string',
    method: 'PUT',
    url: '/locations/CA',
    auth: 'bearer',
    json: { config: 'all' },
    expected: detail(modelAttributes(['body', 'config'], 'all')),
  },

  // ---- malformed JSON: CPython's message and code-point position ----
  {
    name: 'malformed JSON: trailing comma in an object',
    url: '/accounts/signup',
    auth: 'key',
    raw: '{"user_email": "a@b.co",}',
    expected: detail(jsonInvalid(24, 'Expecting property name enclosed in double quotes')),
  },
  {
    name: 'malformed JSON: position counts code points (é, 😀)',
    url: '/accounts/signup',
    auth: 'key',
    raw: '{"business_name": "Café 😀" "x": 1}',
    expected: detail(jsonInvalid(27, "Expecting ',' delimiter")),
  },
  {
    name: 'malformed JSON: single quotes',
    url: '/accounts/signup',
    auth: 'key',
    raw: "{'a': 1}",
    expected: detail(jsonInvalid(1, 'Expecting property name enclosed in double quotes')),
  },
  {
    name: 'malformed JSON: leading zero in a number',
    url: '/v2/regions',
    auth: 'bearer',
    raw: '{"config": {"CA": {"employee_count": 01}}}',
    expected: detail(jsonInvalid(38, "Expecting ',' delimiter")),
  },
  {
    name: 'malformed JSON: whitespace only',
    url: '/accounts/auth',
    auth: 'key',
    raw: '   ',
    expected: detail(jsonInvalid(3, 'Expecting value')),
  },
  {
    name: 'malformed JSON: extra data',
    url: '/accounts/auth',
    auth: 'key',
    raw: '{"a": 1} {"b": 2}',
    expected: detail(jsonInvalid(9, 'Extra data')),
  },
  {
    name: 'malformed JSON: raw newline in a string',
    url: '/accounts/auth',
    auth: 'key',
    raw: '{"a": "x\ny"}',
    expected: detail(jsonInvalid(8, 'Invalid control character at')),
  },
  {
    // The body is parsed before path validation (authentication comes first of all: docs/decisions/0016-cheap-refusal.md).
    name: 'malformed JSON is reported before path validation',
    method: 'PUT',
    url: '/v2/regions/XX',
    auth: 'bearer',
    raw: '{"employee_count": }',
    expected: detail(jsonInvalid(19, 'Expecting value')),
  },

  // ---- auth ----
  {
    name: 'auth: legal_entity_id is a number',
    url: '/v2/auth',
    auth: 'key',
    json: { legal_entity_id: 5 },
    expected: detail(stringType(['body', 'legal_entity_id'], 5)),
  },
  {
    name: 'ours: auth: legal_entity_id over 64',
    url: '/accounts/auth',
    auth: 'key',
    json: { legal_entity_id: long(65, 'l') },
    expected: detail(tooLong(['body', 'legal_entity_id'], long(65, 'l'), 64)),
  },

  // ---- /v2/signup: {message, detail, body} ----
  {
    name: '/v2/signup: {}',
    url: '/v2/signup',
    auth: 'key',
    json: {},
    expected: platform(
      {},
      ...['user_email', 'business_name', 'entity_type', 'tax_class', 'incorporation_region', 'incorporated_date'].map((f) =>
        missing(['body', f], {}),
      ),
    ),
  },
  {
    name: '/v2/signup: enum errors, body echoed',
    url: '/v2/signup',
    auth: 'key',
    json: { ...V2, tax_class: 'llc', accounting_year_end: 'Jan' },
    expected: platform(
      { ...V2, tax_class: 'llc', accounting_year_end: 'Jan' },
      enumError(['body', 'tax_class'], 'llc', TAX_CLASSES),
      enumError(['body', 'accounting_year_end'], 'Jan', MONTH_NAMES),
    ),
  },
  {
    name: '/v2/signup: date and nested address errors',
    url: '/v2/signup',
    auth: 'key',
    json: { ...V2, incorporated_date: '2022-02-30', business_address: { ...ADDRESS, postal_code: 62701 } },
    expected: platform(
      { ...V2, incorporated_date: '2022-02-30', business_address: { ...ADDRESS, postal_code: 62701 } },
      dateParsing(['body', 'incorporated_date'], '2022-02-30', 'day value is outside expected range'),
      stringType(['body', 'business_address', 'postal_code'], 62701),
    ),
  },
  {
    name: '/v2/signup: array body, body is null',
    url: '/v2/signup',
    auth: 'key',
    json: [1, 2],
    expected: platform(null, modelAttributes(['body'], [1, 2])),
  },
  {
    name: '/v2/signup: malformed JSON, body is null',
    url: '/v2/signup',
    auth: 'key',
    raw: '{"user_email": "a@b.co",}',
    expected: platform(null, jsonInvalid(24, 'Expecting property name enclosed in double quotes')),
  },
  {
    name: '/v2/signup: text/plain, body is null',
    url: '/v2/signup',
    auth: 'key',
    raw: 'user_email=a@b.co',
    contentType: 'text/plain',
    expected: platform(null, modelAttributes(['body'], 'user_email=a@b.co')),
  },
  { name: '/v2/signup: null body', url: '/v2/signup', auth: 'key', raw: 'null', expected: platform(null, missing(['body'], null)) },
];

describeParity('422 parity with FastAPI/pydantic v2: request shape', CASES, 40);
