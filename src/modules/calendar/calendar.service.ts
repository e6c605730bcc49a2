import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AccessScope } from '../../http/principals.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import type { Vault } from '../../crypto/vault.js';
import { renderFeed } from './calendar-ics.js';
import { CALENDAR_FEED_PATH, type CalendarService, type CalendarSubscription } from './contract.js';
import { createCalendarRepository, type CalendarRepository, type FeedTaskRow } from './calendar.repository.js';

const TOKEN_PREFIX = 'shcal_';
/** The token newSecret makes: the prefix and 32 random bytes in base64url. Anything else is never looked up. */
const TOKEN_SHAPE = /^shcal_[A-Za-z0-9_-]{43}$/;
const FEED_ID_PREFIX = 'cal';

/** What a sealed token is bound to: this very feed row, so a sealed token copied onto another row does not open. */
export const tokenAad = (feedId: string) => Buffer.from(`statehouse:calendar-token:v1\n${feedId}`);

export interface CalendarServiceDeps {
  db: Db;
  catalog: Catalog;
  vault: Pick<Vault, 'sealBytes' | 'openBytes'>;
  /** PUBLIC_BASE_URL: the feed URLs and the events' links start with it. */
  publicBaseUrl: string;
  repositoryFor?: (db: Db) => CalendarRepository;
}

/**
 * An entity's calendar subscription: one secret URL at a time, handed out again until it is revoked (its token
 * sealed in the vault for that), and the feed behind it, found by the token's SHA-256.
 */
export function createCalendarService(deps: CalendarServiceDeps): CalendarService {
  const repository = (deps.repositoryFor ?? createCalendarRepository)(deps.db);
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  const urlOf = (token: string) => `${base}${CALENDAR_FEED_PATH}${token}.ics`;

  async function current(scope: AccessScope): Promise<CalendarSubscription | null> {
    const row = await repository.findLive(scope.platformId, scope.legalEntityId);
    if (!row) return null;
    const token = deps.vault.openBytes(
      { ciphertext: row.token_sealed, iv: row.token_iv, tag: row.token_tag, keyId: row.key_id },
      tokenAad(row.id),
    );
    return { url: urlOf(token.toString('utf8')), created_at: row.created_at.toISOString() };
  }

  return {
    current,

    /** The live URL, or a new one when there is none (`created`). Two requests at once get the same URL. */
    async subscribe(scope: AccessScope): Promise<CalendarSubscription & { created: boolean }> {
      // A revocation between the two steps leaves no live feed and no conflict: the next round inserts.
      for (let round = 0; round < 3; round++) {
        const live = await current(scope);
        if (live) return { ...live, created: false };
        const id = newId(FEED_ID_PREFIX);
        const token = newSecret(TOKEN_PREFIX);
        const sealed = deps.vault.sealBytes(Buffer.from(token, 'utf8'), tokenAad(id));
        const inserted = await repository.insertLive({
          id,
          platform_id: scope.platformId,
          legal_entity_id: scope.legalEntityId,
          token_hash: hashSecret(token),
          token_sealed: sealed.ciphertext,
          token_iv: sealed.iv,
          token_tag: sealed.tag,
          key_id: sealed.keyId,
        });
        if (inserted) return { url: urlOf(token), created_at: inserted.created_at.toISOString(), created: true };
      }
      throw new Error('the calendar feed changed under three subscriptions in a row');
    },

    /** Revokes the live URL (it answers 404 from now on); false when there was none. */
    revoke: async (scope: AccessScope): Promise<boolean> => (await repository.revokeLive(scope.platformId, scope.legalEntityId)) > 0,

    /** The iCalendar text behind a token, or null for an unknown or revoked one. */
    async feed(token: string): Promise<string | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      const rows = await repository.feedByTokenHash(hashSecret(token));
      if (rows.length === 0) return null;
      const tasks = rows.filter((r): r is typeof r & FeedTaskRow => r.id !== null);
      return renderFeed(deps.catalog, { publicBaseUrl: base }, { businessName: rows[0]!.business_name, tasks });
    },
  };
}
