import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessScope, PlatformPrincipal } from './principals.js';

/** What the hooks need of the platforms service and the access tokens (modules/platforms, modules/auth). */
interface ApiKeyAuthenticator {
  authenticate(authorization: string | undefined): Promise<PlatformPrincipal>;
}
interface TokenVerifier {
  verify(authorization: string | undefined): Promise<AccessScope>;
}

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
 * valid credentials costs no parsing (FastAPI parses first; see docs/decisions/0016-cheap-refusal.md).
 */
export function registerAuth(app: FastifyInstance, platforms: ApiKeyAuthenticator, tokens: TokenVerifier): AuthHooks {
  app.decorateRequest('platform', null);
  app.decorateRequest('scope', null);
  return {
    async apiKey(request) {
      request.platform = await platforms.authenticate(request.headers.authorization);
    },
    async bearer(request) {
      request.scope = await tokens.verify(request.headers.authorization);
    },
  };
}

/** For handlers behind the hooks above; the hooks guarantee these are set. */
export const platformOf = (request: FastifyRequest) => request.platform as PlatformPrincipal;
export const scopeOf = (request: FastifyRequest) => request.scope as AccessScope;
