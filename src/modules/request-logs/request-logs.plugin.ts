// The hooks that record every API request of a platform (docs/request-logs.md): an onSend hook keeps the body of
// an error response, an onResponse hook hands the entry to the buffer (after the response is sent), an onClose
// hook writes what is buffered. No routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '../../http/auth.js'; // request.platform and request.scope
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/contract.js';
import type { RequestLogBuffer } from './request-log-buffer.js';
import { pathOf, routePattern } from './request-logs.fns.js';

/** Longest idempotency key, entity id and route kept (longer ones are cut: a log never refuses a request). */
const MAX_KEY = 255;
const MAX_ID = 64;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: requests of this route are not recorded (the request logs' own reads, which a console polls). */
    unlogged?: boolean;
  }
}

const bounded = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;

/** The entity a request is about: its token's, else the one it names (path, query, then a JSON body's field). */
function entityOf(request: FastifyRequest): string | null {
  if (request.scope) return request.scope.legalEntityId;
  const named = (part: unknown) =>
    part !== null && typeof part === 'object' ? bounded((part as Record<string, unknown>).legal_entity_id, MAX_ID) : null;
  return named(request.params) ?? named(request.query) ?? named(request.body);
}

export function requestLogsPlugin(buffer: RequestLogBuffer, now: () => Date) {
  const errorBodies = new WeakMap<FastifyRequest, string>();
  // Route patterns are few and fixed: converted once each.
  const routes = new Map<string, string>();
  const routeOf = (url: string | undefined) =>
    url === undefined ? null : (routes.get(url) ?? routes.set(url, routePattern(url)).get(url)!);

  const plugin = async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode >= 400 && (request.platform || request.scope)) {
        if (typeof payload === 'string') errorBodies.set(request, payload);
        else if (Buffer.isBuffer(payload)) errorBodies.set(request, payload.toString('utf8'));
      }
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      const platformId = request.platform?.platformId ?? request.scope?.platformId;
      if (platformId && request.routeOptions.config.unlogged !== true) {
        buffer.push({
          platform_id: platformId,
          created_at: now(),
          method: request.method,
          path: pathOf(request.url),
          route: routeOf(request.routeOptions.url),
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
          request_id: request.id,
          idempotency_key: bounded(request.headers[IDEMPOTENCY_KEY_HEADER], MAX_KEY),
          legal_entity_id: entityOf(request),
          api_key_id: request.platform?.apiKeyId ?? null,
          errorPayload: reply.statusCode >= 400 ? (errorBodies.get(request) ?? null) : null,
        });
      }
      done();
    });
    app.addHook('onClose', async () => buffer.close());
  };
  // Its hooks see every route of the app, not only this plugin's (what fastify-plugin does).
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
