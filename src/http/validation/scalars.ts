import { parseDate } from './dates.js';
import { checkCallbackUrl } from '../../lib/callback-url.js';
import type { ValidationIssue } from '../../lib/errors.js';
import type { SchemaNode, Validator } from './types.js';

/** Scalar validators (strings, numbers, booleans) with pydantic v2's lax coercions and messages. */

// A pragmatic address check (local@domain.tld, no spaces), reported like pydantic's EmailStr.
const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+\.[^\s@"(),:;<>[\\\]]{2,}$/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function buildString(schema: SchemaNode): Validator {
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const { minLength, maxLength, format } = schema;
  return (input, loc, issues) => {
    if (format === 'date') return checkDate(input, loc, issues);
    if ((format === 'http-url' || format === 'callback-url') && typeof input !== 'string') {
      issues.push({ type: 'url_type', loc, msg: 'URL input should be a string or URL', input });
      return undefined;
    }
    if (typeof input !== 'string') {
      issues.push({ type: 'string_type', loc, msg: 'Input should be a valid string', input });
      return undefined;
    }
    // Beyond pydantic: PostgreSQL cannot store NUL characters or unpaired UTF-16 surrogates.
    if (LONE_SURROGATE.test(input)) {
      issues.push({
        type: 'string_unicode',
        loc,
        msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
        input,
      });
      return undefined;
    }
    if (input.includes('\u0000')) {
      issues.push({
        type: 'value_error',
        loc,
        msg: 'Value error, NUL characters are not allowed',
        input,
        ctx: { error: 'NUL characters are not allowed' },
      });
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
      issues.push({
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${schema.pattern}'`,
        input,
        ctx: { pattern: schema.pattern },
      });
      return undefined;
    }
    if (format === 'email' && !EMAIL.test(input)) {
      const reason = input.includes('@') ? 'The part after the @-sign is not valid.' : 'An email address must have an @-sign.';
      issues.push({ type: 'value_error', loc, msg: `value is not a valid email address: ${reason}`, input, ctx: { reason } });
      return undefined;
    }
    if (format === 'http-url') return checkHttpUrl(input, loc, issues);
    if (format === 'callback-url') return checkCallback(input, loc, issues);
    return input;
  };
}

function checkDate(input: unknown, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  const result = parseDate(input);
  if (result.ok) return result.value;
  if (result.type === 'date_type') issues.push({ type: 'date_type', loc, msg: 'Input should be a valid date', input });
  else if (result.type === 'date_parsing') {
    issues.push({
      type: 'date_parsing',
      loc,
      msg: `Input should be a valid date in the format YYYY-MM-DD, ${result.error}`,
      input,
      ctx: { error: result.error },
    });
  } else if (result.type === 'date_from_datetime_inexact') {
    issues.push({
      type: 'date_from_datetime_inexact',
      loc,
      msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
      input,
    });
  } else {
    issues.push({
      type: result.type,
      loc,
      msg: `Input should be a valid date or datetime, ${result.error}`,
      input,
      ctx: { error: result.error },
    });
  }
  return undefined;
}

/** pydantic's HttpUrl limit. */
const MAX_URL_LENGTH = 2083;

function checkHttpUrl(input: string, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  if (input.length > MAX_URL_LENGTH) {
    issues.push({
      type: 'url_too_long',
      loc,
      msg: `URL should have at most ${MAX_URL_LENGTH} characters`,
      input,
      ctx: { max_length: MAX_URL_LENGTH },
    });
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
    issues.push({
      type: 'url_scheme',
      loc,
      msg: "URL scheme should be 'http' or 'https'",
      input,
      ctx: { expected_schemes: "'http' or 'https'" },
    });
    return undefined;
  }
  return input;
}

function checkCallback(input: string, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  if (input.length > MAX_URL_LENGTH) return checkHttpUrl(input, loc, issues); // url_too_long, as for an http(s) URL
  const checked = checkCallbackUrl(input);
  if (checked.ok) return input;
  issues.push({
    type: checked.type,
    loc,
    msg: `Input should be a valid callback URL: ${checked.reason}`,
    input,
    ctx: { error: checked.reason },
  });
  return undefined;
}

/** What pydantic's lax int accepts from a string: spaces around, a sign, digits with single underscores, a zero fraction. */
export const INT_STRING = /^\s*[+-]?\d+(_\d+)*(\.0+)?\s*$/;
export const parseIntString = (input: string) => Number(input.trim().replace(/_/g, '').replace(/\.0+$/, ''));

export function buildInteger(schema: SchemaNode): Validator {
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

export function buildNumber(schema: SchemaNode): Validator {
  return (input, loc, issues) => {
    let value: number;
    if (typeof input === 'number') value = input;
    else if (typeof input === 'boolean') value = input ? 1 : 0;
    else if (typeof input === 'string' && input.trim() !== '' && !Number.isNaN(Number(input))) value = Number(input);
    else {
      const type = typeof input === 'string' ? 'float_parsing' : 'float_type';
      const msg =
        typeof input === 'string' ? 'Input should be a valid number, unable to parse string as a number' : 'Input should be a valid number';
      issues.push({ type, loc, msg, input });
      return undefined;
    }
    return checkBounds(value, schema, input, loc, issues);
  };
}

function checkBounds(value: number, schema: SchemaNode, input: unknown, loc: (string | number)[], issues: ValidationIssue[]) {
  if (schema.minimum !== undefined && value < schema.minimum) {
    issues.push({
      type: 'greater_than_equal',
      loc,
      msg: `Input should be greater than or equal to ${schema.minimum}`,
      input,
      ctx: { ge: schema.minimum },
    });
    return undefined;
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    issues.push({
      type: 'less_than_equal',
      loc,
      msg: `Input should be less than or equal to ${schema.maximum}`,
      input,
      ctx: { le: schema.maximum },
    });
    return undefined;
  }
  return value;
}

const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

export function buildBoolean(): Validator {
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
