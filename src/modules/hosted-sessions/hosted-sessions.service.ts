import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { BrowserSessionRow, HostedPurpose, HostedScope } from '../../db/schema.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import { hashSecret, newSecret, safeEqual } from '../../lib/secrets.js';

export type SessionPurpose = HostedPurpose;

/** Path of every hosted-session link; the token segment is redacted from logs (see app.ts). */
export const HOSTED_SESSION_PATH = '/hosted/s/';
/** How long a browser stays signed in to a hosted page after opening its link. */
export const BROWSER_SESSION_MINUTES = 60;
export const SESSION_COOKIE = 'statehouse_session';

export interface IssuedSession {
  id: string;
  url: string;
  created_at: string;
  expires_at: string;
}

export type Exchange =
  | { state: 'ok'; cookieToken: string; session: BrowserSessionRow }
  | { state: 'used' | 'expired' | 'unknown' };

/**
 * Hosted-page access in two steps. A link handed to the end user carries a 256-bit single-use token
 * (stored only as its SHA-256 hash) valid until `expires_at`. Opening it exchanges it for a browser
 * session: a second random token in an HttpOnly cookie, scoped to that legal entity and purpose.
 */
export function createHostedSessionsService(
  db: Db,
  publicBaseUrl: string,
  now: () => Date = () => new Date(),
  /** The CSRF key (an instance key, sealed at rest); only the hosted pages' forms need it. */
  csrfKey: () => Promise<Buffer> = () => Promise.reject(new Error('no CSRF key given to this hosted-sessions service')),
) {
  const csrfFor = async (sessionId: string) => createHmac('sha256', await csrfKey()).update(sessionId).digest('base64url');

  return {
    async issue(input: { purpose: SessionPurpose; legalEntityId: string; callbackUrl: string | null; ttlSeconds: number; scope?: HostedScope }): Promise<IssuedSession> {
      const token = newSecret('');
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + input.ttlSeconds * 1000);
      const id = newId(ID_PREFIX.hostedSession);
      await db.insertInto('hosted_sessions').values({
        id,
        purpose: input.purpose,
        scope: JSON.stringify(input.scope ?? {}),
        legal_entity_id: input.legalEntityId,
        token_hash: hashSecret(token),
        callback_url: input.callbackUrl,
        created_at: createdAt,
        expires_at: expiresAt,
      }).execute();
      return { id, url: `${publicBaseUrl}${HOSTED_SESSION_PATH}${token}`, created_at: createdAt.toISOString(), expires_at: expiresAt.toISOString() };
    },

    /** Uses up a link (exactly one concurrent caller wins) and opens a browser session for it. */
    async exchange(token: string): Promise<Exchange> {
      const tokenHash = hashSecret(token);
      return db.transaction().execute(async (trx) => {
        const link = await trx.updateTable('hosted_sessions').set({ consumed_at: now() })
          .where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).where('expires_at', '>', now())
          .returningAll().executeTakeFirst();
        if (!link) {
          const known = await trx.selectFrom('hosted_sessions').select(['consumed_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
          return { state: !known ? 'unknown' : known.consumed_at ? 'used' : 'expired' };
        }
        const cookieToken = newSecret('');
        const session = await trx.insertInto('hosted_browser_sessions').values({
          id: newId('hbs'),
          token_hash: hashSecret(cookieToken),
          hosted_session_id: link.id,
          legal_entity_id: link.legal_entity_id,
          purpose: link.purpose,
          scope: JSON.stringify(link.scope ?? {}),
          callback_url: link.callback_url,
          expires_at: new Date(now().getTime() + BROWSER_SESSION_MINUTES * 60_000),
        }).returningAll().executeTakeFirstOrThrow();
        return { state: 'ok', cookieToken, session };
      });
    },

    /** The browser session a cookie names, if it has not expired. */
    async browserSession(cookieToken: string | undefined): Promise<BrowserSessionRow | null> {
      if (!cookieToken || cookieToken.length > 128) return null;
      const session = await db.selectFrom('hosted_browser_sessions').selectAll().where('token_hash', '=', hashSecret(cookieToken)).executeTakeFirst();
      return session && session.expires_at.getTime() > now().getTime() ? session : null;
    },

    endBrowserSession: (id: string) => db.deleteFrom('hosted_browser_sessions').where('id', '=', id).execute(),

    /** A form token bound to the browser session (HMAC, nothing stored). */
    csrfToken: csrfFor,

    async verifyCsrf(sessionId: string, token: unknown): Promise<boolean> {
      if (typeof token !== 'string' || token.length > 100) return false;
      // Compared as text: decoding base64url first would accept look-alikes (padding, spare bits).
      return safeEqual(Buffer.from(token), Buffer.from(await csrfFor(sessionId)));
    },

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
