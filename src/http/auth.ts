import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessScope, AccessTokens } from '../modules/auth/access-tokens.js';
import type { PlatformPrincipal, PlatformsService } from '../modules/platforms/platforms.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `apiKey` hook: the platform calling a signup or auth operation. */
    platform: PlatformPrincipal | null;
    /** Set by the `bearer` hook: the legal entity (and its platform) a token is scoped to. */
    scope: AccessScope | null;
  }
}

export interface AuthHooks {
  apiKey(request: FastifyRequest): Promise<void>;
  bearer(request: FastifyRequest): Promise<void>;
}

/**
 * Route `onRequest` hooks: authentication runs before the body is read or parsed, so a request without
 * valid credentials costs no parsing (FastAPI parses first; see docs/decisions.md, "Cheap refusal").
 */
export function registerAuth(app: FastifyInstance, platforms: PlatformsService, tokens: AccessTokens): AuthHooks {
  app.decorateRequest('platform', null);
  app.decorateRequest('scope', null);
  return {
    async apiKey(request) {
      request.platform = await platforms.authenticate(request.headers.authorization);
    },
    async bearer(request) {
      request.scope = tokens.verify(request.headers.authorization);
    },
  };
}

/** For handlers behind the hooks above; the hooks guarantee these are set. */
export const platformOf = (request: FastifyRequest) => request.platform as PlatformPrincipal;
export const scopeOf = (request: FastifyRequest) => request.scope as AccessScope;
