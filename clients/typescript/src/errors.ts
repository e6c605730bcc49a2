// Typed errors: every answer that is not a 2xx becomes an ApiError (or a subclass), thrown by the client's calls.
// The service's shapes (docs/errors.md): 422 `{"detail": [{type, loc, msg, input, ctx?}]}` (with `message` and
// `body` beside it on /v2/signup), every other error `{"detail": "..."}`.

/** One item of a 422's `detail`: where (`loc`, e.g. ["body", "ein"]), what (`type`), the message and the input. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A non-2xx answer: its status, the request id the service logged it under, and the body as sent. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
    /** The `x-request-id` of the answer (quote it when asking about a request). */
    readonly requestId: string | null,
    /** The parsed JSON body, or the text when it was not JSON. */
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/** 401: a missing, wrong, revoked or expired credential. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/** 403: the credential is valid but not for this. */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}

/** 404: no such thing for this credential (another platform's objects are 404s too). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** 409: the request conflicts with the current state (or its Idempotency-Key is still in flight). */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}

/** 422: the request is invalid; `issues` are the `detail` items, one per problem. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  constructor(
    message: string,
    status: number,
    requestId: string | null,
    body: unknown,
    headers: Headers,
    readonly issues: ValidationIssue[],
  ) {
    super(message, status, requestId, body, headers);
  }
}

/** 429: too many requests; `retryAfterSeconds` from the Retry-After header when it was sent. */
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
  get retryAfterSeconds(): number | null {
    const ms = retryAfterMs(this.headers, () => Date.now());
    return ms === null ? null : Math.ceil(ms / 1000);
  }
}

/** 5xx: the service failed (after the client's retries). */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/** Retry-After (seconds or an HTTP date) in milliseconds from now, or null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: () => number): number | null {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now());
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function messageOf(status: number, body: unknown, issues: ValidationIssue[]): string {
  if (isRecord(body) && typeof body.detail === 'string') return `${status}: ${body.detail}`;
  const first = issues[0];
  if (first) return `${status}: ${first.loc.join('.')}: ${first.msg}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
  return `${status}: ${typeof body === 'string' && body ? body.slice(0, 200) : 'request failed'}`;
}

/** Reads a non-2xx response (its body is consumed) into the matching typed error. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  const issues: ValidationIssue[] = isRecord(body) && Array.isArray(body.detail) ? (body.detail as ValidationIssue[]) : [];
  const args = [
    messageOf(response.status, body, issues),
    response.status,
    response.headers.get('x-request-id'),
    body,
    response.headers,
  ] as const;
  switch (response.status) {
    case 401:
      return new AuthenticationError(...args);
    case 403:
      return new PermissionDeniedError(...args);
    case 404:
      return new NotFoundError(...args);
    case 409:
      return new ConflictError(...args);
    case 422:
      return new ValidationError(...args, issues);
    case 429:
      return new RateLimitedError(...args);
    default:
      return response.status >= 500 ? new ServerError(...args) : new ApiError(...args);
  }
}
