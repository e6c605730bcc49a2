import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The header that carries a request's id, in both directions. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a caller's id may look like to be adopted: 1–128 characters that are safe in a header, a log
 * line and a URL (letters, digits, `.`, `_`, `-`, `:`, `/`, `+`, `=`, `@`). Anything else is replaced
 * by a generated id rather than refused: a request id must never be the reason a request fails.
 */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

// Generated ids only need to be unique: a random process prefix and a counter cost nothing per request.
const PROCESS_PREFIX = randomBytes(4).toString('hex');
let counter = 0;

export const generateRequestId = () => `${PROCESS_PREFIX}-${(++counter).toString(36)}`;

/** The caller's `X-Request-Id` when it is acceptable (one header, safe characters), else a fresh id. */
export function requestIdFor(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : generateRequestId();
}

/**
 * For responses written outside Fastify's hooks (framework errors, refusals on the raw socket/response):
 * sets `X-Request-Id` to the request's id, or to a fresh one when there is no Fastify request.
 * Returns the id, for the log line that goes with the response.
 */
export function setRequestIdHeader(response: Pick<ServerResponse, 'setHeader' | 'headersSent'>, id: string = generateRequestId()): string {
  if (!response.headersSent) response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
