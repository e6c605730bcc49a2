import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SealedBytes } from '../../crypto/vault.js';

/** A key as found when another request already holds it. */
export interface KeyRecord {
  fingerprint: string;
  state: 'in_flight' | 'complete';
  /** Seconds until an in-flight claim may be taken over (≤ 0: now). */
  lockedForSeconds: number;
  response: { status: number; headers: Record<string, string>; sealed: SealedBytes } | null;
}

export interface KeyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  claimId: string;
}

/**
 * Every query of the Idempotency-Key store. Times are the database's clock (`now()`), so every process
 * agrees on when a claim lapses and when a key expires.
 */
export function createIdempotencyRepository(db: Db) {
  return {
    /**
     * Claims the key for this request: inserts it in flight, or takes over a row that a dead request left
     * in flight past its lock (same request only), or one older than the retention (pruned soon anyway).
     * True when this request now holds the key.
     */
    async claim(claim: KeyClaim, lockSeconds: number, retentionHours: number): Promise<boolean> {
      const lockedUntil = sql<Date>`now() + make_interval(secs => ${lockSeconds})`;
      const row = await db
        .insertInto('idempotency_keys')
        .values({
          scope: claim.scope,
          key: claim.key,
          fingerprint: claim.fingerprint,
          state: 'in_flight',
          claim_id: claim.claimId,
          locked_until: lockedUntil,
        })
        .onConflict((oc) =>
          oc.columns(['scope', 'key']).doUpdateSet({
            fingerprint: claim.fingerprint,
            state: 'in_flight',
            claim_id: claim.claimId,
            locked_until: lockedUntil,
            created_at: sql`now()`,
            response_status: null,
            response_headers: null,
            response_body: null,
            response_iv: null,
            response_tag: null,
            response_key_id: null,
          })
            .where(sql<boolean>`(idempotency_keys.state = 'in_flight' and idempotency_keys.locked_until <= now() and idempotency_keys.fingerprint = excluded.fingerprint)
          or idempotency_keys.created_at < now() - make_interval(hours => ${retentionHours})`),
        )
        .returning('claim_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The key as another request left it (undefined: released meanwhile). */
    async find(scope: string, key: string): Promise<KeyRecord | undefined> {
      const row = await db
        .selectFrom('idempotency_keys')
        .select([
          'fingerprint',
          'state',
          'response_status',
          'response_headers',
          'response_body',
          'response_iv',
          'response_tag',
          'response_key_id',
          sql<number>`extract(epoch from locked_until - now())::float8`.as('locked_for'),
        ])
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      const complete =
        row.state === 'complete' &&
        row.response_status !== null &&
        row.response_body &&
        row.response_iv &&
        row.response_tag &&
        row.response_key_id;
      return {
        fingerprint: row.fingerprint,
        state: row.state,
        lockedForSeconds: row.locked_for,
        response: complete
          ? {
              status: row.response_status!,
              headers: row.response_headers ?? {},
              sealed: { ciphertext: row.response_body!, iv: row.response_iv!, tag: row.response_tag!, keyId: row.response_key_id! },
            }
          : null,
      };
    },

    /** Stores the response of the request that holds the key; false when it no longer holds it (taken over). */
    async complete(claim: KeyClaim, status: number, headers: Record<string, string>, sealed: SealedBytes): Promise<boolean> {
      const result = await db
        .updateTable('idempotency_keys')
        .set({
          state: 'complete',
          response_status: status,
          response_headers: JSON.stringify(headers),
          response_body: sealed.ciphertext,
          response_iv: sealed.iv,
          response_tag: sealed.tag,
          response_key_id: sealed.keyId,
        })
        .where('scope', '=', claim.scope)
        .where('key', '=', claim.key)
        .where('claim_id', '=', claim.claimId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Lets the key go (nothing stored), if this request still holds it. */
    async release(claim: KeyClaim): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', claim.scope)
        .where('key', '=', claim.key)
        .where('claim_id', '=', claim.claimId)
        .execute();
    },

    /** Deletes the keys older than the retention; returns how many. */
    async prune(retentionHours: number): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${retentionHours})`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
