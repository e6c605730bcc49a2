import type { Db } from '../../db/database.js';
import type { BrowserSessionRow, HostedPurpose, HostedScope } from '../../db/schema.js';

/** A hosted-session link as stored: only its token's hash, never the token. */
export interface NewLink {
  id: string;
  purpose: HostedPurpose;
  scope: HostedScope;
  legalEntityId: string;
  tokenHash: Buffer;
  callbackUrl: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface UsedLink {
  id: string;
  legal_entity_id: string;
  purpose: HostedPurpose;
  scope: HostedScope;
  callback_url: string | null;
}

export interface NewBrowserSession {
  id: string;
  tokenHash: Buffer;
  link: UsedLink;
  expiresAt: Date;
}

/** Names a hosted page shows: the platform's (its display name when branded) and the business's; and the platform's brand. */
export interface PageNames {
  platformId: string;
  platformName: string;
  businessName: string;
  brand: { accent_color: string | null; logo_sha256: string | null } | null;
}

/**
 * Every query of hosted sessions: the links (`hosted_sessions`) and the browser sessions opened from them
 * (`hosted_browser_sessions`). `db` may be a transaction. Links and browser sessions are found by their
 * token's hash, which is unique and names one entity's row; everything else filters by legal entity first.
 */
export function createHostedSessionsRepository(db: Db) {
  return {
    async insertLink(link: NewLink): Promise<void> {
      await db
        .insertInto('hosted_sessions')
        .values({
          id: link.id,
          purpose: link.purpose,
          scope: JSON.stringify(link.scope),
          legal_entity_id: link.legalEntityId,
          token_hash: link.tokenHash,
          callback_url: link.callbackUrl,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
        })
        .execute();
    },

    /** Marks an unused, unexpired link used; of concurrent callers exactly one gets the link back. */
    consumeLink: (tokenHash: Buffer, at: Date): Promise<UsedLink | undefined> =>
      db
        .updateTable('hosted_sessions')
        .set({ consumed_at: at })
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .returning(['id', 'legal_entity_id', 'purpose', 'scope', 'callback_url'])
        .executeTakeFirst(),

    /** A link as its confirmation page needs it; reading it never uses it up. */
    findLink: (
      tokenHash: Buffer,
    ): Promise<{ legal_entity_id: string; purpose: HostedPurpose; consumed_at: Date | null; expires_at: Date } | undefined> =>
      db
        .selectFrom('hosted_sessions')
        .select(['legal_entity_id', 'purpose', 'consumed_at', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst(),

    /** When a link could not be used: whether it exists and whether it was used. */
    findLinkUse: (tokenHash: Buffer): Promise<{ consumed_at: Date | null } | undefined> =>
      db.selectFrom('hosted_sessions').select(['consumed_at']).where('token_hash', '=', tokenHash).executeTakeFirst(),

    insertBrowserSession: (session: NewBrowserSession): Promise<BrowserSessionRow> =>
      db
        .insertInto('hosted_browser_sessions')
        .values({
          id: session.id,
          token_hash: session.tokenHash,
          hosted_session_id: session.link.id,
          legal_entity_id: session.link.legal_entity_id,
          purpose: session.link.purpose,
          scope: JSON.stringify(session.link.scope ?? {}),
          callback_url: session.link.callback_url,
          expires_at: session.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),

    findBrowserSession: (tokenHash: Buffer): Promise<BrowserSessionRow | undefined> =>
      db.selectFrom('hosted_browser_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),

    async deleteBrowserSession(legalEntityId: string, id: string): Promise<void> {
      await db.deleteFrom('hosted_browser_sessions').where('legal_entity_id', '=', legalEntityId).where('id', '=', id).execute();
    },

    async lastSignupCallbackUrl(legalEntityId: string): Promise<string | null> {
      const row = await db
        .selectFrom('hosted_sessions')
        .select('callback_url')
        .where('legal_entity_id', '=', legalEntityId)
        .where('purpose', '=', 'signup')
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.callback_url ?? null;
    },

    async pageNames(legalEntityId: string): Promise<PageNames> {
      const row = await db
        .selectFrom('legal_entities')
        .innerJoin('platforms', 'platforms.id', 'legal_entities.platform_id')
        .leftJoin('platform_brands', 'platform_brands.platform_id', 'platforms.id')
        .select(['platforms.id as platform_id', 'platforms.name as platform_name', 'legal_entities.business_name'])
        .select(['platform_brands.display_name', 'platform_brands.accent_color', 'platform_brands.logo_sha256'])
        .where('legal_entities.id', '=', legalEntityId)
        .executeTakeFirstOrThrow();
      return {
        platformId: row.platform_id,
        platformName: row.display_name ?? row.platform_name,
        businessName: row.business_name,
        brand: { accent_color: row.accent_color, logo_sha256: row.logo_sha256 },
      };
    },

    /** A platform's logo by its SHA-256: content-addressed, the same bytes whoever uploaded them. */
    findLogo: (sha256: string): Promise<{ logo: Buffer; logo_content_type: string } | undefined> =>
      db
        .selectFrom('platform_brands')
        .select(['logo', 'logo_content_type'])
        .where('logo_sha256', '=', sha256)
        .where('logo', 'is not', null)
        .limit(1)
        .executeTakeFirst() as Promise<{ logo: Buffer; logo_content_type: string } | undefined>,
  };
}

export type HostedSessionsRepository = ReturnType<typeof createHostedSessionsRepository>;
