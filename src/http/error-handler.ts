import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Router from 'find-my-way';
import { createOutageLog, DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_DETAIL, isDatabaseUnavailable } from '../db/unavailable.js';
import { fieldError, HttpError, InvalidInputError, InvalidInputsError, RequestValidationError } from '../lib/errors.js';
import { summariseIssues, unauthorizedStyle } from './error-shapes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'platform': errors render as `{message, detail}` (and 422 as `{message, detail, body}`),
     * the shape the reference gives the /v2/signup family. Default: FastAPI's `{detail}`.
     */
    errorStyle?: 'platform';
    /**
     * 'PlatformHttpException': a 422 is `{message, detail: <one sentence>, errors: [ValidationIssue, ...]}`,
     * the shape the reference v2 document gives this operation's 422 (`detail` a string; see docs/errors.md).
     */
    validationShape?: 'PlatformHttpException';
    /**
     * Request parts that hold secrets (e.g. `['body', 'secrets']`): a 422 about them, or about a part
     * that contains them, never echoes the value (`input` is "[redacted]").
     */
    secretInputs?: (string | number)[][];
    /**
     * Where a service's InvalidInputError points in this request: a request part (default 'body'),
     * or a function from the fact's path to a full `loc` (e.g. a multipart file field).
     */
    inputAt?: 'body' | 'query' | ((path: (string | number)[]) => (string | number)[]);
  }
}

function send(reply: FastifyReply, status: number, payload: unknown, headers: Record<string, string> = {}) {
  // Errors are serialised here, not by per-route response schemas, so their shape never depends on a route.
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(payload));
}

function render(request: FastifyRequest, status: number, detail: string, style?: 'platform') {
  // A 401 has one shape per path family, whatever the operation (docs/errors.md).
  const chosen = status === 401 ? unauthorizedStyle(request.url) : (style ?? request.routeOptions.config?.errorStyle);
  return chosen === 'platform' ? { message: STATUS_CODES[status] ?? 'Error', detail } : { detail };
}

/** Errors on pages a person reads (the hosted pages) are rendered as pages, not JSON. */
export interface PageErrors {
  matches(request: FastifyRequest): boolean;
  send(reply: FastifyReply, status: number, headers: Record<string, string>): unknown;
}

export function registerErrorHandling(app: FastifyInstance, bodyLimit: number, pages?: PageErrors): void {
  // One warning per outage, not a stack per request.
  const outage = createOutageLog((message) => app.log.warn(message));
  app.setErrorHandler(
    (thrown: FastifyError | HttpError | RequestValidationError | InvalidInputError | InvalidInputsError, request, reply) => {
      const error =
        thrown instanceof InvalidInputError
          ? locate(thrown, request)
          : thrown instanceof InvalidInputsError
            ? new RequestValidationError(
                thrown.errors.flatMap((e) => locate(e, request).issues),
                locate(thrown.errors[0]!, request).body,
              )
            : thrown;
      const unavailable = isDatabaseUnavailable(error);
      if (unavailable) outage(`${request.method} ${request.routeOptions.url ?? 'request'}`, error);
      const [status, payload, headers = {}] = unavailable
        ? [503, render(request, 503, DATABASE_UNAVAILABLE_DETAIL), { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) }]
        : describe(error, request, bodyLimit);
      if (status >= 500 && !unavailable && !(error instanceof HttpError)) request.log.error({ err: error }, 'unhandled error');
      if (pages?.matches(request)) return pages.send(reply, status, headers);
      return send(reply, status, payload, headers);
    },
  );
}

/** A domain error placed in this request: the route says where the operation's input came from. */
function locate(error: InvalidInputError, request: FastifyRequest): RequestValidationError {
  const at = request.routeOptions.config?.inputAt ?? 'body';
  const loc = typeof at === 'function' ? at(error.path) : [at, ...error.path];
  return fieldError(loc, error.reason, error.input, at === 'body' ? request.body : null);
}

function describe(
  error: FastifyError | HttpError | RequestValidationError,
  request: FastifyRequest,
  bodyLimit: number,
): [number, unknown, Record<string, string>?] {
  if (error instanceof RequestValidationError) {
    const config = request.routeOptions.config;
    const payload =
      config?.validationShape === 'PlatformHttpException'
        ? { message: 'Validation error', detail: summariseIssues(error.issues), errors: error.issues }
        : config?.errorStyle === 'platform'
          ? { message: 'Validation error', detail: error.issues, body: isObject(error.body) ? error.body : null }
          : { detail: error.issues };
    return [422, payload];
  }
  if (error instanceof HttpError) return [error.status, render(request, error.status, error.detail, error.style), error.headers];
  const status = (error as FastifyError).statusCode;
  if (status === 413) return [413, render(request, 413, `Request body is larger than the limit of ${bodyLimit} bytes`)];
  if (status !== undefined && status >= 400 && status < 500)
    return [status, render(request, status, publicMessage(error as FastifyError, status))];
  return [500, render(request, 500, 'Internal Server Error')];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fastify's client-error messages are safe to show, but keep them short and free of internals. */
function publicMessage(error: FastifyError, status: number): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Unsupported Media Type';
  if (error.code?.startsWith('FST_ERR_CTP')) return 'The request body could not be read';
  return STATUS_CODES[status] ?? 'Bad Request';
}

/**
 * Unknown paths get FastAPI's `{"detail":"Not Found"}`; a known path with the wrong method gets 405 with an Allow
 * header. One trailing-slash rule for every path (docs/decisions/0078-paging-and-trailing-slashes.md): a path that
 * is registered without its trailing slash answers 307 to it (method and body kept, like FastAPI's redirect_slashes),
 * whether or not the slashed form happens to fall on a parametric route with an empty last parameter (`/tasks/` would
 * otherwise be `/tasks/:task_id` with task_id ''). A shadow router of every registered route answers which.
 */
export const MAX_PARAM_LENGTH = 8192;

export function registerNotFound(app: FastifyInstance): void {
  const shadow = Router({ maxParamLength: MAX_PARAM_LENGTH });
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      methods.add(method);
      if (!shadow.hasRoute(method as never, route.url)) shadow.on(method as never, route.url, () => {});
    }
  });
  const slashRedirect = (request: FastifyRequest): string | null => {
    const [path = '/', query] = request.url.split(/\?(.*)/s);
    if (path.length <= 1 || !path.endsWith('/') || shadow.find(request.method as never, path.slice(0, -1)) === null) return null;
    return `${path.slice(0, -1)}${query ? `?${query}` : ''}`;
  };
  // A slashed path that matched a route only through an empty last parameter is the unslashed path's, not that route's.
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    // Wildcard routes (`/docs/*`, static files) serve their own `…/` (the docs UI lives at /docs/).
    if (route === undefined || !/\/:[^/]+$/.test(route) || !request.url.split('?')[0]!.endsWith('/')) return;
    const target = slashRedirect(request);
    if (target !== null) return reply.redirect(target, 307);
    return send(reply, 404, { detail: 'Not Found' });
  });
  app.setNotFoundHandler((request, reply) => {
    const target = slashRedirect(request);
    if (target !== null) return reply.redirect(target, 307);
    const path = request.url.split('?')[0] ?? '/';
    const allowed = [...methods].filter((m) => shadow.find(m as never, path) !== null);
    if (allowed.length > 0) return send(reply, 405, { detail: 'Method Not Allowed' }, { allow: allowed.sort().join(', ') });
    return send(reply, 404, { detail: 'Not Found' });
  });
}
