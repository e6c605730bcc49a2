// What other modules may use of auth: the access tokens of one legal entity (issued by POST /accounts/auth, /v2/auth;
// verified by the bearer hook in http/auth.ts) and the signing keys they take.
import type { AccessScope } from '../../http/principals.js';

/** The signing keys as every process shares them (system/instance-keys.ts `verifying`): the first signs, each verifies. */
export interface TokenSigningKeys {
  /** The keys as last read (re-read at most a second after another process rotated them). */
  get(): Promise<readonly Buffer[]>;
  /** Re-reads them now if they changed in the database (a token signed by a process that already rotated); null if unchanged. */
  reload(): Promise<readonly Buffer[] | null>;
}

/** Access tokens for one legal entity (implemented by createAccessTokens in access-tokens.ts). */
export interface AccessTokens {
  /** How long a token lives. */
  ttlSeconds: number;
  /** A token for the scope, signed with the current key. */
  issue(scope: AccessScope & { apiKeyId: string }): Promise<{ token: string; expiresAt: Date }>;
  /** Resolves an Authorization header; every failure is a 401 with `WWW-Authenticate: Bearer`. */
  verify(authorization: string | undefined): Promise<AccessScope>;
}
