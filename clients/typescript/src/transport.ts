// The client's fetch: credentials on every attempt, an Idempotency-Key on every POST and PATCH, retries of network
// errors, 429 and 5xx with exponential backoff that honours Retry-After, one credential refresh on a 401, and a
// typed error (errors.ts) for every answer that is not a 2xx.
import { errorFromResponse, retryAfterMs } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /** The first backoff in milliseconds (default 250), doubled on each retry, with full jitter. */
  baseDelayMs?: number;
  /** The longest wait between attempts, Retry-After included (default 30 000 ms). */
  maxDelayMs?: number;
}

export interface TransportOptions {
  retry?: RetryOptions;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Waits between attempts (default: a timer); tests pass one that records the delays and returns at once. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, in epoch milliseconds (default Date.now): token expiry and Retry-After dates are read with it. */
  now?: () => number;
  /** A number in [0, 1) for the backoff's jitter (default Math.random). */
  random?: () => number;
  /** Makes an Idempotency-Key when the caller set none (default crypto.randomUUID). */
  idempotencyKey?: () => string;
}

/** Where the Authorization header comes from: a fixed API key, or an entity's token that can be refreshed. */
export interface Credentials {
  authorization(): Promise<string>;
  /** After a 401: get a new credential; false when there is nothing to refresh (the 401 stands). */
  refresh?(): Promise<boolean>;
}

/** Methods that take an Idempotency-Key (PUT and DELETE are idempotent already: docs/idempotency.md). */
const KEYED_METHODS = new Set(['POST', 'PATCH']);
/**
 * Token-issuing operations get no generated key: issuing again is harmless, and with a key the service would keep
 * the answer (an access token) for the key's retention to replay it.
 */
const UNKEYED_PATHS = /\/(accounts\/auth|v2\/auth)$/;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether an answer is worth another attempt: 429, 5xx, and a 409 that says when (an Idempotency-Key in flight). */
function retryable(response: Response, keyed: boolean): boolean {
  if (response.status === 429 || response.status >= 500) return true;
  return response.status === 409 && keyed && response.headers.has('retry-after');
}

export function createTransport(credentials: Credentials, options: TransportOptions = {}) {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const makeKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const maxRetries = options.retry?.maxRetries ?? 3;
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;

  const backoff = (retry: number, response: Response | null): number => {
    const asked = response ? retryAfterMs(response.headers, now) : null;
    const delay = asked ?? random() * baseDelayMs * 2 ** retry;
    return Math.min(maxDelayMs, Math.max(0, Math.round(delay)));
  };

  /** Sends `request`, retrying as described above; resolves with a 2xx response or rejects with a typed error. */
  return async function transport(request: Request): Promise<Response> {
    const template = request.clone();
    if (
      KEYED_METHODS.has(template.method) &&
      !template.headers.has('idempotency-key') &&
      !UNKEYED_PATHS.test(new URL(template.url).pathname)
    )
      template.headers.set('idempotency-key', makeKey());
    const keyed = template.headers.has('idempotency-key');
    let refreshed = false;
    for (let retry = 0; ;) {
      const attempt = template.clone();
      attempt.headers.set('authorization', await credentials.authorization());
      let response: Response;
      try {
        response = await send(attempt);
      } catch (error) {
        if (retry >= maxRetries) throw error;
        await sleep(backoff(retry++, null));
        continue;
      }
      if (response.ok) return response;
      if (response.status === 401 && !refreshed && credentials.refresh && (await credentials.refresh())) {
        refreshed = true;
        await response.body?.cancel();
        continue;
      }
      if (retry < maxRetries && retryable(response, keyed)) {
        await response.body?.cancel();
        await sleep(backoff(retry++, response));
        continue;
      }
      throw await errorFromResponse(response);
    }
  };
}
