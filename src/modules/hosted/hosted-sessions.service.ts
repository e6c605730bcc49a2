import type { Db } from '../../db/database.js';
import type { HostedSessionRow } from '../../db/schema.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';

export type SessionPurpose = HostedSessionRow['purpose'];

/** Path of every hosted-session link; the token segment is redacted from logs (see app.ts). */
export const HOSTED_SESSION_PATH = '/hosted/s/';

export interface IssuedSession {
  id: string;
  url: string;
  created_at: string;
  expires_at: string;
}

export type SessionLookup =
  | { state: 'valid'; session: HostedSessionRow }
  | { state: 'used' | 'expired' | 'unknown' };

/**
 * Links handed to end users: a 256-bit single-use token, stored only as its SHA-256
 * hash, valid until `expires_at` and until it is used once.
 */
export function createHostedSessionsService(db: Db, publicBaseUrl: string, now: () => Date = () => new Date()) {
  return {
    async issue(input: { purpose: SessionPurpose; legalEntityId: string; callbackUrl: string | null; ttlSeconds: number }): Promise<IssuedSession> {
      const token = newSecret('');
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + input.ttlSeconds * 1000);
      const id = newId(ID_PREFIX.hostedSession);
      await db.insertInto('hosted_sessions').values({
        id,
        purpose: input.purpose,
        legal_entity_id: input.legalEntityId,
        token_hash: hashSecret(token),
        callback_url: input.callbackUrl,
        created_at: createdAt,
        expires_at: expiresAt,
      }).execute();
      return { id, url: `${publicBaseUrl}${HOSTED_SESSION_PATH}${token}`, created_at: createdAt.toISOString(), expires_at: expiresAt.toISOString() };
    },

    async lookup(token: string): Promise<SessionLookup> {
      const session = await db.selectFrom('hosted_sessions').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirst();
      if (!session) return { state: 'unknown' };
      if (session.consumed_at) return { state: 'used' };
      if (session.expires_at.getTime() <= now().getTime()) return { state: 'expired' };
      return { state: 'valid', session };
    },

    /** Marks the link used; exactly one concurrent caller gets the session back. */
    consume: (token: string, executor: Db = db) =>
      executor.updateTable('hosted_sessions').set({ consumed_at: now() })
        .where('token_hash', '=', hashSecret(token)).where('consumed_at', 'is', null).where('expires_at', '>', now())
        .returningAll().executeTakeFirst(),

    /** The most recent callback a platform gave for this entity's signup, to reuse in a fresh link. */
    async lastCallbackUrl(legalEntityId: string): Promise<string | null> {
      const row = await db.selectFrom('hosted_sessions').select('callback_url')
        .where('legal_entity_id', '=', legalEntityId).where('purpose', '=', 'signup')
        .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      return row?.callback_url ?? null;
    },
  };
}

export type HostedSessionsService = ReturnType<typeof createHostedSessionsService>;
