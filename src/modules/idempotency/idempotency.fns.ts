import { createHash } from 'node:crypto';

/** The request header, as Node names it (lower case). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on a response that is a stored one, sent again. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Long enough for any request; a claim older than this is taken to belong to a process that died. */
export const CLAIM_LOCK_SECONDS = 60;

/** What makes two requests "the same request" for one key. */
export interface RequestIdentity {
  method: string;
  /** The route's pattern, e.g. `/v2/tasks/:task_id`; its values are in `params`. */
  route: string;
  params: unknown;
  query: unknown;
  /** The validated body: JSON values, or the raw bytes of a non-JSON body (a PDF upload). */
  body: unknown;
  /** The legal entity of an access token (null for an API key or an operator key). */
  legalEntityId: string | null;
}

/**
 * SHA-256 of the request in canonical form: object keys sorted at every depth, so key order and
 * whitespace in the JSON do not make a different request; bytes hashed as they are.
 */
export function fingerprintOf(request: RequestIdentity): string {
  const hash = createHash('sha256');
  hash.update(canonicalJson([request.method, request.route, request.params ?? null, request.query ?? null, request.legalEntityId]));
  hash.update('\n');
  if (Buffer.isBuffer(request.body)) hash.update('bytes\n').update(request.body);
  else hash.update('json\n').update(canonicalJson(request.body ?? null));
  return hash.digest('hex');
}

/** JSON with object keys sorted; `undefined` members are left out (as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
}

/**
 * Which responses are kept and replayed: what the operation itself answered, success or refusal (2xx, 4xx).
 * Not a 409 (a conflict with the current state, which may clear) nor a 429 (too many requests now), nor
 * anything else (5xx: a failure that a retry should run again). Validation failures never get here:
 * they are answered before the key is claimed.
 */
export function isReplayable(status: number): boolean {
  if (status === 409 || status === 429) return false;
  return (status >= 200 && status < 300) || (status >= 400 && status < 500);
}

/** The response headers a replay repeats: what describes the body; never cookies, request ids or caching of this answer. */
export const REPLAYED_HEADERS = ['content-type', 'location', 'link', 'x-page-size', 'x-page', 'x-total', 'x-next-page'] as const;

export function replayedHeaders(headers: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' || typeof value === 'number') kept[name] = String(value);
  }
  return kept;
}
