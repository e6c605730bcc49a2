// Pure rules of the request logs: what counts as sensitive, how an error body is redacted before it is stored,
// the route pattern and the query's status and time filters (docs/request-logs.md).
import { InvalidInputError } from '../../lib/errors.js';
import { REDACTED, type StatusFilter } from './contract.js';

/**
 * A field is sensitive when its name (lower case, `-` read as `_`) contains one of these: secrets, tokens, passwords,
 * credentials, TOTP seeds, security answers, keys and the headers that carry them, social security numbers.
 */
const SENSITIVE_PARTS = [
  'secret',
  'token',
  'password',
  'passwd',
  'passphrase',
  'credential',
  'totp',
  'security_answer',
  'api_key',
  'apikey',
  'private_key',
  'authorization',
  'cookie',
  'ssn',
  'social_security',
];
/** …or is exactly one of these: taxpayer ids (EIN, ITIN, TIN) and one-time codes. */
const SENSITIVE_NAMES = new Set(['ein', 'fein', 'tin', 'itin', 'tax_id', 'taxpayer_id', 'pin', 'otp']);

export function isSensitiveName(name: string | number): boolean {
  if (typeof name !== 'string') return false;
  const normal = name.toLowerCase().replaceAll('-', '_');
  return SENSITIVE_NAMES.has(normal) || SENSITIVE_PARTS.some((part) => normal.includes(part));
}

/**
 * Shapes that are secret wherever they appear in a string (a value echoed under an innocent name): SSNs and EINs
 * written with their dashes, nine digits alone, Statehouse API keys and bearer credentials.
 */
const SENSITIVE_VALUES = [/\b\d{3}-\d{2}-\d{4}\b/g, /\b\d{2}-\d{7}\b/g, /\b\d{9}\b/g, /\bsh_[a-z]+_[A-Za-z0-9_-]+/g, /\bBearer\s+\S+/gi];

function redactString(value: string): string {
  // PostgreSQL's jsonb refuses \u0000: a request that echoes one must not lose the whole batch.
  let out = value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  for (const shape of SENSITIVE_VALUES) out = out.replace(shape, REDACTED);
  return out;
}

const isIssue = (value: Record<string, unknown>) => Array.isArray(value.loc) && 'input' in value;

/**
 * The error body with every sensitive value replaced by REDACTED: a field with a sensitive name (at any depth, e.g.
 * the request body a platform-style 422 echoes), the `input` of a validation issue whose `loc` names a sensitive
 * field, and secret-shaped strings anywhere. Returns a new value; the input is not changed.
 */
export function redactErrorBody(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(redactErrorBody);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const sensitiveIssue = isIssue(object) && (object.loc as unknown[]).some((part) => isSensitiveName(part as string));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(object)) {
    out[key] = isSensitiveName(key) || (sensitiveIssue && key === 'input') ? REDACTED : redactErrorBody(field);
  }
  return out;
}

/** Error bodies above this (serialised) are not kept whole. */
export const MAX_ERROR_BYTES = 32 * 1024;

/** What is stored of a 4xx/5xx response body: the redacted JSON, or a note when it is not JSON or too long. */
export function storedErrorBody(payload: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return { detail: `[a non-JSON body of ${payload.length} characters, not kept]` };
  }
  const redacted = redactErrorBody(parsed);
  const size = JSON.stringify(redacted).length;
  return size > MAX_ERROR_BYTES ? { detail: `[an error body of ${size} characters, over ${MAX_ERROR_BYTES}: not kept]` } : redacted;
}

/** Fastify's route URL (`/v2/tasks/:task_id`) in the OpenAPI form the documentation uses (`/v2/tasks/{task_id}`). */
export const routePattern = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** `status=404` or a class, `status=4xx`. */
export function parseStatusFilter(raw: string): StatusFilter {
  const code = /^([1-5])(\d\d|xx)$/i.exec(raw);
  if (!code) throw new InvalidInputError(['status'], 'Give a status code (404) or a class (4xx)', raw);
  return code[2]!.toLowerCase() === 'xx' ? { class: Number(code[1]) } : { code: Number(raw) };
}

/** An ISO 8601 date-time with its offset (`2026-11-29T10:00:00Z`), or a date alone (midnight UTC). */
export function parseTime(name: string, raw: string): Date {
  const shaped = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2}))?$/.test(raw);
  const time = shaped ? new Date(raw.length === 10 ? `${raw}T00:00:00Z` : raw) : new Date(Number.NaN);
  if (Number.isNaN(time.getTime())) {
    throw new InvalidInputError([name], 'Give a date-time with its offset (2026-11-29T10:00:00Z) or a date (2026-11-29)', raw);
  }
  return time;
}
