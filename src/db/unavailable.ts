/**
 * Tells "the database is not reachable right now" apart from every other database error. Those
 * errors are not bugs of a request: the HTTP layer answers them with 503 and Retry-After, the job
 * queue retries, and nothing of them may end the process.
 */

/** Seconds a client is asked to wait (Retry-After) while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_DETAIL = 'The database is temporarily unavailable; retry later';

/** Socket-level failures: the server is down, restarting, or the network path to it is gone. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What `pg` and its pool say when a connection ends or cannot be had in time (they carry no code). */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true; // class 08: connection exception
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of both attempts.
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}

/** Any error that came from the database or the way to it (a SQLSTATE, or a connection failure). */
export function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && (error as { severity?: unknown }).severity !== undefined;
}

/** A short reason for a log line: the code and message, never a stack. */
export function describeDatabaseError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message ? message : String(error);
  return typeof code === 'string' ? `${code}: ${text}` : text;
}

/**
 * One log line per outage instead of one per failed request or poll: the first failure is logged at
 * once, later ones at most every `intervalMs`, with how many were left out.
 */
export function createOutageLog(log: (message: string) => void, intervalMs = 10_000, now: () => number = Date.now) {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (source: string, error: unknown) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      suppressed++;
      return;
    }
    const more = suppressed > 0 ? ` (${suppressed} more since the last report)` : '';
    lastAt = at;
    suppressed = 0;
    log(`database unavailable (${source}): ${describeDatabaseError(error)}${more}`);
  };
}
