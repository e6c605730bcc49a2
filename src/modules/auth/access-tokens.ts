import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { UnauthorizedError } from '../../lib/errors.js';
import { safeEqual } from '../../lib/secrets.js';

/** What a bearer token proves: one legal entity of one platform, until it expires. */
export interface AccessScope {
  platformId: string;
  legalEntityId: string;
}

const TOKEN_PREFIX = 'sh_at_';
const expired = () => new UnauthorizedError('Access token expired: request a new one from POST /accounts/auth');
const SIGNING_KEY_NAME = 'access-token-signing-key';

/**
 * Access tokens are HMAC-signed (not stored), so checking one costs no database
 * round trip. The signing key lives in the database, generated on first start, so
 * every process sharing a database accepts every other's tokens.
 */
export async function loadSigningKey(db: Db): Promise<Buffer> {
  await db
    .insertInto('instance_secrets')
    .values({ name: SIGNING_KEY_NAME, value: randomBytes(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('instance_secrets').select('value').where('name', '=', SIGNING_KEY_NAME).executeTakeFirstOrThrow();
  return row.value;
}

/** Verified tokens are remembered (bounded) so a client's repeated calls skip the HMAC and JSON work. */
const VERIFIED_CACHE_SIZE = 10_000;

export function createAccessTokens(signingKey: Buffer, ttlSeconds: number, now: () => number = Date.now) {
  const sign = (payload: string) => createHmac('sha256', signingKey).update(TOKEN_PREFIX).update(payload).digest();
  const verified = new Map<string, { scope: AccessScope; expiresAtMs: number }>();

  return {
    ttlSeconds,

    issue(scope: AccessScope & { apiKeyId: string }) {
      const expiresAt = Math.floor(now() / 1000) + ttlSeconds;
      const payload = Buffer.from(
        JSON.stringify({ v: 1, p: scope.platformId, e: scope.legalEntityId, k: scope.apiKeyId, x: expiresAt, n: randomBytes(6).toString('base64url') }),
      ).toString('base64url');
      return { token: `${TOKEN_PREFIX}${payload}.${sign(payload).toString('base64url')}`, expiresAt: new Date(expiresAt * 1000) };
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
      if (!safeEqual(Buffer.from(signature, 'base64url'), sign(payload))) throw invalid();
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
