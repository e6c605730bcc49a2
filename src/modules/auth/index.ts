import type { FastifyPluginAsync } from 'fastify';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { SignupService } from '../legal-entities/contract.js';
import { createAccessTokens } from './access-tokens.js';
import type { TokenSigningKeys } from './contract.js';
import { authRoutes } from './auth.routes.js';

export interface AuthModuleDeps {
  /** Instance keys: the first signs, every one verifies (see access-tokens.ts). */
  signingKeys: TokenSigningKeys;
  ttlSeconds: number;
  /** Whether an API key is still active (modules/platforms): a revoked key's tokens are refused. With its platform's pinned API version. */
  apiKeyActive: (apiKeyId: string) => Promise<boolean | { apiVersion: string }>;
  now?: () => number;
}

/** Access tokens for one legal entity (POST /accounts/auth, /v2/auth); the bearer hook verifies them. */
export function createAuthModule(deps: AuthModuleDeps) {
  const tokens = createAccessTokens({
    keys: deps.signingKeys,
    ttlSeconds: deps.ttlSeconds,
    apiKeyActive: deps.apiKeyActive,
    now: deps.now,
  });
  const jobs: JobDefinition[] = [];
  return {
    tokens,
    jobs,
    /** Its routes read the entity and its signup state through legal-entities. */
    routes(http: { auth: AuthHooks; signup: Pick<SignupService, 'get' | 'signupState'> }): FastifyPluginAsync {
      return async (app) => {
        await app.register(authRoutes({ signup: http.signup, tokens, auth: http.auth }));
      };
    },
  };
}

export type AuthModule = ReturnType<typeof createAuthModule>;
