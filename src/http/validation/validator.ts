import { parseDate } from './dates.js';

/** One error in pydantic v2's shape, as FastAPI renders it in a 422 `detail` array. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Validates and coerces (pydantic "lax" mode); pushes issues and returns the coerced value. */
export type Validator = (input: unknown, loc: (string | number)[], issues: ValidationIssue[]) => unknown;

/** JSON Schema as TypeBox emits it, plus our `format` values: date, email, http-url. */
export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  propertyNames?: SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
  title?: string;
}

const cache = new WeakMap<object, Validator>();

export function compile(schema: SchemaNode): Validator {
  let validator = cache.get(schema);
  if (!validator) {
    validator = build(schema);
    cache.set(schema, validator);
  }
  return validator;
}

function build(schema: SchemaNode): Validator {
  if (schema.anyOf) return buildAnyOf(schema.anyOf);
  if (schema.enum) return buildEnum(schema.enum, schema.type === 'integer');
  if ('const' in schema) return buildEnum([schema.const], false, 'literal_error');
  switch (schema.type) {
    case 'object':
      return schema.properties ? buildModel(schema) : buildDict(schema);
    case 'array':
      return buildList(schema);
    case 'string':
      return buildString(schema);
    case 'integer':
      return buildInteger(schema);
    case 'number':
      return buildNumber(schema);
    case 'boolean':
      return buildBoolean();
    case 'null':
      return (input, loc, issues) => {
        if (input !== null) issues.push({ type: 'none_required', loc, msg: 'Input should be None', input });
        return null;
      };
    default:
      return (input) => input;
  }
}

/** Whether the input is already of the option's JSON type (pydantic's "smart" unions try those first). */
function exactType(option: SchemaNode, input: unknown): boolean {
  switch (option.type) {
    case 'boolean': return typeof input === 'boolean';
    case 'integer': return typeof input === 'number' && Number.isInteger(input);
    case 'number': return typeof input === 'number';
    case 'string': return typeof input === 'string';
    case 'array': return Array.isArray(input);
    case 'object': return isPlainObject(input);
    default: return false;
  }
}

function buildAnyOf(options: SchemaNode[]): Validator {
  const nullable = options.some((o) => o.type === 'null');
  const schemas = options.filter((o) => o.type !== 'null');
  const rest = schemas.map((o) => compile(o));
  return (input, loc, issues) => {
    if (input === null && nullable) return null;
    // Optional[X]: pydantic reports X's errors directly.
    if (rest.length === 1) return rest[0]!(input, loc, issues);
    for (const [i, option] of rest.entries()) {
      if (!exactType(schemas[i]!, input)) continue;
      const attempt: ValidationIssue[] = [];
      const value = option(input, loc, attempt);
      if (attempt.length === 0) return value;
    }
    const collected: ValidationIssue[] = [];
    for (const option of rest) {
      const attempt: ValidationIssue[] = [];
      const value = option(input, loc, attempt);
      if (attempt.length === 0) return value;
      collected.push(...attempt);
    }
    issues.push(...collected);
    return undefined;
  };
}

export function pythonRepr(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

/** pydantic's "'a', 'b' or 'c'". */
export function expectedList(values: unknown[]): string {
  const reprs = values.map(pythonRepr);
  return reprs.length <= 1 ? reprs.join('') : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;
}

function buildEnum(values: unknown[], integer: boolean, type = 'enum'): Validator {
  const expected = expectedList(values);
  const allowed = new Set(values);
  return (input, loc, issues) => {
    if (allowed.has(input)) return input;
    // Integer enums take what a lax int takes: integer-looking strings and booleans.
    if (integer) {
      if (typeof input === 'string' && INT_STRING.test(input) && !Number.isSafeInteger(parseIntString(input))) {
        // pydantic reports the parsed (big) integer as the input here.
        issues.push({ type: 'int_parsing_size', loc, msg: 'Unable to parse input string as an integer, exceeded maximum size', input: parseIntString(input) });
        return undefined;
      }
      const asInt = typeof input === 'boolean' ? Number(input) : typeof input === 'string' && INT_STRING.test(input) ? parseIntString(input) : null;
      if (asInt !== null && allowed.has(asInt)) return asInt;
    }
    issues.push({ type, loc, msg: `Input should be ${expected}`, input, ctx: { expected } });
    return undefined;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function buildModel(schema: SchemaNode): Validator {
  const fields = Object.entries(schema.properties ?? {}).map(([name, node]) => ({
    name,
    node,
    required: schema.required?.includes(name) ?? false,
    validate: compile(node),
  }));
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push({
        type: 'model_attributes_type',
        loc,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      });
      return undefined;
    }
    const output: Record<string, unknown> = {};
    for (const field of fields) {
      const present = Object.prototype.hasOwnProperty.call(input, field.name);
      if (!present) {
        if (field.required) issues.push({ type: 'missing', loc: [...loc, field.name], msg: 'Field required', input });
        else if ('default' in field.node) output[field.name] = structuredClone(field.node.default);
        continue;
      }
      output[field.name] = field.validate(input[field.name], [...loc, field.name], issues);
    }
    return output;
  };
}

function buildDict(schema: SchemaNode): Validator {
  const value = typeof schema.additionalProperties === 'object' ? compile(schema.additionalProperties) : null;
  const key = schema.propertyNames ? compile(schema.propertyNames) : null;
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push({ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input });
      return undefined;
    }
    const entries = Object.entries(input);
    const before = issues.length;
    const output: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      const checkedKey = key ? key(k, [...loc, k, '[key]'], issues) : k;
      const checkedValue = value ? value(v, [...loc, k], issues) : v;
      if (typeof checkedKey === 'string') output[checkedKey] = checkedValue;
    }
    // pydantic checks the length only once every entry is valid.
    if (issues.length === before && schema.maxProperties !== undefined && entries.length > schema.maxProperties) {
      issues.push(tooLong('Dictionary', schema.maxProperties, entries.length, loc, input));
      return undefined;
    }
    return output;
  };
}

function tooLong(kind: string, max: number, actual: number, loc: (string | number)[], input: unknown): ValidationIssue {
  return {
    type: 'too_long',
    loc,
    msg: `${kind} should have at most ${max} item${max === 1 ? '' : 's'} after validation, not ${actual}`,
    input,
    ctx: { field_type: kind, max_length: max, actual_length: actual },
  };
}

function buildList(schema: SchemaNode): Validator {
  const item = schema.items ? compile(schema.items) : (x: unknown) => x;
  return (input, loc, issues) => {
    if (!Array.isArray(input)) {
      issues.push({ type: 'list_type', loc, msg: 'Input should be a valid list', input });
      return undefined;
    }
    if (schema.maxItems !== undefined && input.length > schema.maxItems) {
      issues.push(tooLong('List', schema.maxItems, input.length, loc, input));
      return undefined;
    }
    return input.map((element, index) => item(element, [...loc, index], issues));
  };
}

// A pragmatic address check (local@domain.tld, no spaces), reported like pydantic's EmailStr.
const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+\.[^\s@"(),:;<>[\\\]]{2,}$/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function buildString(schema: SchemaNode): Validator {
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const { minLength, maxLength, format } = schema;
  return (input, loc, issues) => {
    if (format === 'date') return checkDate(input, loc, issues);
    if (format === 'http-url' && typeof input !== 'string') {
      issues.push({ type: 'url_type', loc, msg: 'URL input should be a string or URL', input });
      return undefined;
    }
    if (typeof input !== 'string') {
      issues.push({ type: 'string_type', loc, msg: 'Input should be a valid string', input });
      return undefined;
    }
    // Beyond pydantic: PostgreSQL cannot store NUL characters or unpaired UTF-16 surrogates.
    if (LONE_SURROGATE.test(input)) {
      issues.push({ type: 'string_unicode', loc, msg: 'Input should be a valid string, unable to parse raw data as a unicode string', input });
      return undefined;
    }
    if (input.includes('\u0000')) {
      issues.push({ type: 'value_error', loc, msg: 'Value error, NUL characters are not allowed', input, ctx: { error: 'NUL characters are not allowed' } });
      return undefined;
    }
    if (minLength !== undefined && [...input].length < minLength) {
      issues.push({
        type: 'string_too_short',
        loc,
        msg: `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`,
        input,
        ctx: { min_length: minLength },
      });
      return undefined;
    }
    if (maxLength !== undefined && input.length > maxLength && [...input].length > maxLength) {
      issues.push({
        type: 'string_too_long',
        loc,
        msg: `String should have at most ${maxLength} character${maxLength === 1 ? '' : 's'}`,
        input,
        ctx: { max_length: maxLength },
      });
      return undefined;
    }
    if (pattern && !pattern.test(input)) {
      issues.push({ type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${schema.pattern}'`, input, ctx: { pattern: schema.pattern } });
      return undefined;
    }
    if (format === 'email' && !EMAIL.test(input)) {
      const reason = input.includes('@') ? 'The part after the @-sign is not valid.' : 'An email address must have an @-sign.';
      issues.push({ type: 'value_error', loc, msg: `value is not a valid email address: ${reason}`, input, ctx: { reason } });
      return undefined;
    }
    if (format === 'http-url') return checkHttpUrl(input, loc, issues);
    return input;
  };
}

function checkDate(input: unknown, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  const result = parseDate(input);
  if (result.ok) return result.value;
  if (result.type === 'date_type') issues.push({ type: 'date_type', loc, msg: 'Input should be a valid date', input });
  else if (result.type === 'date_parsing') {
    issues.push({ type: 'date_parsing', loc, msg: `Input should be a valid date in the format YYYY-MM-DD, ${result.error}`, input, ctx: { error: result.error } });
  }
  else if (result.type === 'date_from_datetime_inexact') {
    issues.push({ type: 'date_from_datetime_inexact', loc, msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates', input });
  } else {
    issues.push({ type: result.type, loc, msg: `Input should be a valid date or datetime, ${result.error}`, input, ctx: { error: result.error } });
  }
  return undefined;
}

/** pydantic's HttpUrl limit. */
const MAX_URL_LENGTH = 2083;

function checkHttpUrl(input: string, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  if (input.length > MAX_URL_LENGTH) {
    issues.push({ type: 'url_too_long', loc, msg: `URL should have at most ${MAX_URL_LENGTH} characters`, input, ctx: { max_length: MAX_URL_LENGTH } });
    return undefined;
  }
  if (input === '') {
    issues.push({ type: 'url_parsing', loc, msg: 'Input should be a valid URL, input is empty', input, ctx: { error: 'input is empty' } });
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    const error = input.includes(':') ? 'invalid international domain name' : 'relative URL without a base';
    issues.push({ type: 'url_parsing', loc, msg: `Input should be a valid URL, ${error}`, input, ctx: { error } });
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    issues.push({ type: 'url_scheme', loc, msg: "URL scheme should be 'http' or 'https'", input, ctx: { expected_schemes: "'http' or 'https'" } });
    return undefined;
  }
  return input;
}

/** What pydantic's lax int accepts from a string: spaces around, a sign, digits with single underscores, a zero fraction. */
const INT_STRING = /^\s*[+-]?\d+(_\d+)*(\.0+)?\s*$/;
const parseIntString = (input: string) => Number(input.trim().replace(/_/g, '').replace(/\.0+$/, ''));

function buildInteger(schema: SchemaNode): Validator {
  return (input, loc, issues) => {
    let value: number;
    if (typeof input === 'number') {
      if (!Number.isFinite(input)) {
        issues.push({ type: 'finite_number', loc, msg: 'Input should be a finite number', input });
        return undefined;
      }
      if (!Number.isInteger(input)) {
        issues.push({ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input });
        return undefined;
      }
      value = input;
    } else if (typeof input === 'boolean') {
      value = input ? 1 : 0;
    } else if (typeof input === 'string') {
      // Python integers are unbounded: a huge number parses, and the bounds below reject it.
      if (!INT_STRING.test(input)) {
        issues.push({ type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input });
        return undefined;
      }
      value = parseIntString(input);
    } else {
      issues.push({ type: 'int_type', loc, msg: 'Input should be a valid integer', input });
      return undefined;
    }
    return checkBounds(value, schema, input, loc, issues);
  };
}

function buildNumber(schema: SchemaNode): Validator {
  return (input, loc, issues) => {
    let value: number;
    if (typeof input === 'number') value = input;
    else if (typeof input === 'boolean') value = input ? 1 : 0;
    else if (typeof input === 'string' && input.trim() !== '' && !Number.isNaN(Number(input))) value = Number(input);
    else {
      const type = typeof input === 'string' ? 'float_parsing' : 'float_type';
      const msg = typeof input === 'string' ? 'Input should be a valid number, unable to parse string as a number' : 'Input should be a valid number';
      issues.push({ type, loc, msg, input });
      return undefined;
    }
    return checkBounds(value, schema, input, loc, issues);
  };
}

function checkBounds(value: number, schema: SchemaNode, input: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
  if (schema.minimum !== undefined && value < schema.minimum) {
    issues.push({ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${schema.minimum}`, input, ctx: { ge: schema.minimum } });
    return undefined;
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    issues.push({ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${schema.maximum}`, input, ctx: { le: schema.maximum } });
    return undefined;
  }
  return value;
}

const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

function buildBoolean(): Validator {
  return (input, loc, issues) => {
    if (typeof input === 'boolean') return input;
    if (input === 0 || input === 1) return input === 1;
    if (typeof input === 'string') {
      const lowered = input.toLowerCase();
      if (TRUE_STRINGS.has(lowered)) return true;
      if (FALSE_STRINGS.has(lowered)) return false;
    }
    if (typeof input === 'string' || typeof input === 'number') {
      issues.push({ type: 'bool_parsing', loc, msg: 'Input should be a valid boolean, unable to interpret input', input });
    } else {
      issues.push({ type: 'bool_type', loc, msg: 'Input should be a valid boolean', input });
    }
    return undefined;
  };
}
