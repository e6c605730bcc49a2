import { createHmac, randomBytes } from 'node:crypto';
import { UnauthorizedError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/secrets.js';
import type { AccessScope } from '../../http/principals.js';

const TOKEN_PREFIX = 'sh_at_';
const expired = () => new UnauthorizedError('Access token expired: request a new one from POST /accounts/auth');
/** The unpadded base64url alphabet: the only spelling `issue` produces. */
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Verified tokens are remembered (bounded) so a client's repeated calls skip the HMAC and JSON work. */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Access tokens are HMAC-signed (not stored), so checking one costs no database round trip. The key is an
 * instance key (see system/instance-keys.ts): shared by every process of the installation, sealed at rest.
 * `signingKeys[0]` signs; every key given verifies, so after `statehouse tokens rotate-key` the previous key
 * keeps accepting the tokens it signed until they expire.
 */
export function createAccessTokens(signingKeys: readonly Buffer[], ttlSeconds: number, now: () => number = Date.now) {
  if (signingKeys.length === 0) throw new Error('access tokens need a signing key');
  const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(TOKEN_PREFIX).update(payload).digest('base64url');
  const sign = (payload: string) => mac(signingKeys[0]!, payload);
  const signedByAny = (payload: string, signature: string) => {
    let ok = false;
    for (const key of signingKeys) ok = safeEqual(Buffer.from(signature), Buffer.from(mac(key, payload))) || ok; // every key, always
    return ok;
  };
  const verified = new Map<string, { scope: AccessScope; expiresAtMs: number }>();

  return {
    ttlSeconds,

    issue(scope: AccessScope & { apiKeyId: string }) {
      const expiresAt = Math.floor(now() / 1000) + ttlSeconds;
      const payload = Buffer.from(
        JSON.stringify({ v: 1, p: scope.platformId, e: scope.legalEntityId, k: scope.apiKeyId, x: expiresAt, n: randomBytes(6).toString('base64url') }),
      ).toString('base64url');
      return { token: `${TOKEN_PREFIX}${payload}.${sign(payload)}`, expiresAt: new Date(expiresAt * 1000) };
    },

    /** Resolves an Authorization header; every failure is a 401 with `WWW-Authenticate: Bearer`. */
    verify(authorization: string | undefined): AccessScope {
      if (!authorization) throw new UnauthorizedError('Not authenticated');
      const match = /^bearer\s+(\S+)\s*$/i.exec(authorization.trim());
      if (!match) throw new UnauthorizedError('Not authenticated: use the header "Authorization: Bearer <access_token>"');
      const token = match[1]!;
      const known = verified.get(token);
      if (known) {
        if (known.expiresAtMs > now()) return known.scope;
        verified.delete(token);
        throw expired();
      }
      const invalid = () => new UnauthorizedError('Invalid access token');
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 1024) throw invalid();
      const [payload, signature, extra] = token.slice(TOKEN_PREFIX.length).split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      // One canonical spelling per token: the signature is compared as the exact text `issue` writes, so
      // padding, other alphabets or different spare bits in the last character are all invalid. (Decoding
      // first would accept look-alikes: several strings, one token.) The payload is signed as text already.
      if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) throw invalid();
      if (!signedByAny(payload, signature)) throw invalid();
      let claims: { v?: unknown; p?: unknown; e?: unknown; x?: unknown };
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (claims.v !== 1 || typeof claims.p !== 'string' || typeof claims.e !== 'string' || typeof claims.x !== 'number') throw invalid();
      if (claims.x * 1000 <= now()) throw expired();
      const scope = { platformId: claims.p, legalEntityId: claims.e };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, { scope, expiresAtMs: claims.x * 1000 });
      return scope;
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
