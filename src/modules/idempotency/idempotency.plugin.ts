import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { RawBody } from '../../http/body-parsers.js';
import { fieldError, HttpError } from '../../lib/errors.js';
import { fingerprintOf, IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER, replayedHeaders } from './idempotency.fns.js';
import type { KeyClaim } from './idempotency.repository.js';
import type { IdempotencyService } from './idempotency.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request holds while its operation runs (set by the idempotency plugin). */
    idempotencyClaim: KeyClaim | null;
  }
}

/** A route `onRequest` hook that authenticates a credential (API key, access token, operator key). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hooks are compared by identity only
type CredentialHook = (...args: any[]) => unknown;

export interface IdempotencyHttpDeps {
  /** The hooks whose routes take Idempotency-Key: a route is marked when its `onRequest` includes one. */
  credentialHooks: CredentialHook[];
}

/** 1–255 printable ASCII characters (a UUID, or any token the client keeps for its retries). */
export const IdempotencyKeySchema = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Makes a retry of this request safe: the same key with the same request (kept 24 hours by default) returns the first response ' +
    '(with `Idempotent-Replayed: true`) without doing the work again. 1–255 printable ASCII characters, e.g. a UUID. See docs/idempotency.md.',
});

class KeyInFlightError extends HttpError {
  override readonly style = 'platform';
  constructor(retryAfterSeconds: number) {
    super(409, 'A request with this Idempotency-Key is still in progress; retry once it has completed', {
      'retry-after': String(retryAfterSeconds),
    });
  }
}

const MISMATCH =
  'This Idempotency-Key was already used with a different request (method, path, query, body or legal entity); use a new key for a new request';

/** Who the key belongs to: the platform (API key or entity token), or the operator key. */
function callerOf(request: FastifyRequest): { scope: string; legalEntityId: string | null } | null {
  if (request.scope) return { scope: `platform:${request.scope.platformId}`, legalEntityId: request.scope.legalEntityId };
  if (request.platform) return { scope: `platform:${request.platform.platformId}`, legalEntityId: null };
  if (request.operator) return { scope: `operator:${request.operator.keyId}`, legalEntityId: null };
  return null;
}

function withKeyHeader(options: RouteOptions): void {
  const schema = (options.schema ?? {}) as { headers?: { properties?: Record<string, unknown> } };
  const headers = schema.headers ?? Type.Object({});
  options.schema = {
    ...schema,
    headers: { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_KEY_HEADER]: Type.Optional(IdempotencyKeySchema) } },
  };
}

/**
 * Idempotency-Key on every POST and PATCH of the API. Registered before the routes: as each is added, a POST or
 * PATCH behind a credential hook gets the header in its schema (checked by the app's validation with the rest of
 * the request), a `preHandler` that claims the key once the request is valid, and an `onSend` that keeps or lets go
 * of the answer. Other routes get nothing (no cost at all); a marked route without the header pays a property check.
 */
export function idempotencyPlugin(service: IdempotencyService, deps: IdempotencyHttpDeps): FastifyPluginAsync {
  const credentialHooks = new Set(deps.credentialHooks);

  async function claimKey(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (typeof key !== 'string') return;
    const caller = callerOf(request);
    if (!caller) return;
    const body = request.body instanceof RawBody ? Buffer.from(request.body.text) : request.body;
    const fingerprint = fingerprintOf({
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      params: request.params,
      query: request.query,
      body,
      legalEntityId: caller.legalEntityId,
    });
    const outcome = await service.begin(caller.scope, key, fingerprint);
    switch (outcome.kind) {
      case 'run':
        request.idempotencyClaim = outcome.claim;
        return;
      case 'replay':
        return reply
          .code(outcome.response.status)
          .headers({ ...outcome.response.headers, [REPLAYED_HEADER]: 'true' })
          .send(outcome.response.body);
      case 'mismatch':
        throw fieldError(['header', IDEMPOTENCY_KEY_HEADER], MISMATCH, key, request.body);
      case 'in_flight':
        throw new KeyInFlightError(outcome.retryAfterSeconds);
    }
  }

  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    // A streamed body cannot be kept: the key is let go, so a retry runs the operation again.
    const body =
      payload === undefined || payload === null
        ? Buffer.alloc(0)
        : typeof payload === 'string'
          ? Buffer.from(payload)
          : Buffer.isBuffer(payload)
            ? payload
            : null;
    try {
      const result = await service.finish(claim, body && { status: reply.statusCode, headers: replayedHeaders(reply.getHeaders()), body });
      if (result === 'lost') request.log.warn("an idempotent request ran past its key's lock and another request took the key over");
    } catch (error) {
      // The operation's answer still goes out; the key stays in flight until its lock lapses.
      request.log.warn({ err: error }, 'could not record the response of an idempotent request');
    }
    return payload;
  }

  const plugin = async (app: FastifyInstance) => {
    app.decorateRequest('idempotencyClaim', null);
    app.addHook('onRoute', (options) => {
      const methods = [options.method].flat();
      const hooks = [options.onRequest ?? []].flat();
      if (!methods.some((m) => m === 'POST' || m === 'PATCH') || !hooks.some((hook) => credentialHooks.has(hook))) return;
      withKeyHeader(options);
      // Last of the route's own preHandlers (after the app's validation): only a request about to run takes the key.
      options.preHandler = [...[options.preHandler ?? []].flat(), claimKey];
      options.onSend = [...[options.onSend ?? []].flat(), keepAnswer];
    });
  };
  // Its onRoute hook sees every route of the app, not only this plugin's (what fastify-plugin does).
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
