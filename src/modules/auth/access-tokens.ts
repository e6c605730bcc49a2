import { createHmac, randomBytes } from 'node:crypto';
import { UnauthorizedError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import type { AccessScope } from '../../http/principals.js';
import type { AccessTokens, TokenSigningKeys } from './contract.js';

const TOKEN_PREFIX = 'sh_at_';
const revoked = () =>
  new UnauthorizedError('Access token revoked: the API key that requested it was revoked; request a new one with an active key');
const expired = () => new UnauthorizedError('Access token expired: request a new one from POST /accounts/auth');
/** The unpadded base64url alphabet: the only spelling `issue` produces. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Verified tokens are remembered (bounded) so a client's repeated calls skip the HMAC and JSON work. */
const VERIFIED_CACHE_SIZE = 10_000;

/** Fixed keys (tests, tools): never reloaded. */
export const fixedSigningKeys = (keys: readonly Buffer[]): TokenSigningKeys => ({ get: async () => keys, reload: async () => null });

export interface AccessTokensDeps {
  keys: TokenSigningKeys;
  ttlSeconds: number;
  /**
   * Whether the API key that minted a token is still active: asked on every request that presents a token, so a
   * revoked key's tokens are refused at once by every process (one primary-key lookup; see
   * docs/decisions/0067-several-processes-one-database.md). The same lookup may answer the key's platform's pinned
   * API version (docs/versions.md), which the verified scope then carries.
   */
  apiKeyActive: (apiKeyId: string) => Promise<boolean | { apiVersion: string }>;
  now?: () => number;
}

/**
 * Access tokens are HMAC-signed (not stored): checking one costs no signature work once verified (a bounded
 * cache) and one indexed lookup of the API key that minted it. The key is an instance key (see
 * system/instance-keys.ts): shared by every process of the installation, sealed at rest. After
 * `statehouse tokens rotate-key` the previous key keeps accepting the tokens it signed until they expire, and a
 * token signed with a key this process has not read yet makes it re-read the keys once.
 */
export function createAccessTokens(deps: AccessTokensDeps): AccessTokens {
  const { keys, ttlSeconds, apiKeyActive } = deps;
  const now = deps.now ?? Date.now;
  const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(TOKEN_PREFIX).update(payload).digest('base64url');
  const signedByAny = (candidates: readonly Buffer[], payload: string, signature: string) => {
    let ok = false;
    for (const key of candidates) ok = safeEqual(Buffer.from(signature), Buffer.from(mac(key, payload))) || ok; // every key, always
    return ok;
  };
  // Each entry remembers the key set it was verified under: once the keys change (a rotation dropped a key), it is
  // verified again rather than trusted for the rest of its life.
  const verified = new Map<string, { scope: AccessScope; apiKeyId: string; expiresAtMs: number; keys: readonly Buffer[] }>();
  /** The scope as this request sees it: with the platform's pinned version when the key's lookup answered one. */
  const withActiveKey = async (scope: AccessScope, apiKeyId: string): Promise<AccessScope> => {
    const active = await apiKeyActive(apiKeyId);
    if (!active) throw revoked();
    return active === true ? scope : { ...scope, apiVersion: active.apiVersion };
  };

  return {
    ttlSeconds,

    async issue(scope: AccessScope & { apiKeyId: string }) {
      const [signingKey] = await keys.get();
      if (!signingKey) throw new Error('access tokens need a signing key');
      const expiresAt = Math.floor(now() / 1000) + ttlSeconds;
      const payload = Buffer.from(
        JSON.stringify({
          v: 1,
          p: scope.platformId,
          e: scope.legalEntityId,
          k: scope.apiKeyId,
          x: expiresAt,
          n: randomBytes(6).toString('base64url'),
        }),
      ).toString('base64url');
      return { token: `${TOKEN_PREFIX}${payload}.${mac(signingKey, payload)}`, expiresAt: new Date(expiresAt * 1000) };
    },

    /** Resolves an Authorization header; every failure is a 401 with `WWW-Authenticate: Bearer`. */
    async verify(authorization: string | undefined): Promise<AccessScope> {
      if (!authorization) throw new UnauthorizedError('Not authenticated');
      const match = /^bearer\s+(\S+)\s*$/i.exec(authorization.trim());
      if (!match) throw new UnauthorizedError('Not authenticated: use the header "Authorization: Bearer <access_token>"');
      const token = match[1]!;
      const current = await keys.get();
      const known = verified.get(token);
      if (known) {
        if (known.expiresAtMs <= now()) {
          verified.delete(token);
          throw expired();
        }
        if (known.keys === current) {
          return withActiveKey(known.scope, known.apiKeyId);
        }
        verified.delete(token);
      }
      const invalid = () => new UnauthorizedError('Invalid access token');
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 1024) throw invalid();
      const [payload, signature, extra] = token.slice(TOKEN_PREFIX.length).split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      // One canonical spelling per token: the signature is compared as the exact text `issue` writes, so
      // padding, other alphabets or different spare bits in the last character are all invalid. (Decoding
      // first would accept look-alikes: several strings, one token.) The payload is signed as text already.
      if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) throw invalid();
      let verifiedUnder = current;
      if (!signedByAny(current, payload, signature)) {
        // Perhaps signed by a process that read a newer key (a rotation): re-read the keys once, then decide.
        const reloaded = await keys.reload();
        if (!reloaded || !signedByAny(reloaded, payload, signature)) throw invalid();
        verifiedUnder = reloaded;
      }
      let claims: { v?: unknown; p?: unknown; e?: unknown; k?: unknown; x?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (
        claims.v !== 1 ||
        typeof claims.p !== 'string' ||
        typeof claims.e !== 'string' ||
        typeof claims.k !== 'string' ||
        typeof claims.x !== 'number'
      )
        throw invalid();
      if (claims.x * 1000 <= now()) throw expired();
      const scope = { platformId: claims.p, legalEntityId: claims.e };
      const answered = await withActiveKey(scope, claims.k);
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { scope, apiKeyId: claims.k, expiresAtMs: claims.x * 1000, keys: verifiedUnder });
      return answered;
    },
  };
}
