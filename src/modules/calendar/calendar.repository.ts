import type { Db } from '../../db/database.js';
import type { Insertable } from 'kysely';
import type { CalendarFeedsTable, TaskRow } from '../../db/schema.js';

/** What the feed shows of a task; the rest of a task row stays in the database. */
export type FeedTaskRow = Pick<
  TaskRow,
  | 'id'
  | 'kind'
  | 'definition_id'
  | 'region_code'
  | 'period_key'
  | 'due_date'
  | 'due_date_rule'
  | 'due_date_exact'
  | 'due_date_question'
  | 'status'
  | 'revision'
  | 'updated_at'
>;

/** A new subscription row: every column but the ones the database fills. */
export type NewFeedRow = Omit<Insertable<CalendarFeedsTable>, 'created_at' | 'revoked_at'>;

/** Every query of the calendar feeds; tenant first. */
export function createCalendarRepository(db: Db) {
  return {
    /** The entity's live feed (at most one: a partial unique index). */
    findLive: (platformId: string, legalEntityId: string) =>
      db
        .selectFrom('calendar_feeds')
        .select(['id', 'token_sealed', 'token_iv', 'token_tag', 'key_id', 'created_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('platform_id', '=', platformId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),

    /** Inserts a live feed unless the entity already has one (a concurrent request won): then nothing. */
    insertLive: async (row: NewFeedRow) =>
      (await db
        .insertInto('calendar_feeds')
        .values(row)
        .onConflict((oc) => oc.column('legal_entity_id').where('revoked_at', 'is', null).doNothing())
        .returning(['id', 'created_at'])
        .executeTakeFirst()) ?? null,

    /** Revokes the entity's live feed; the number of feeds revoked (0 or 1). */
    revokeLive: async (platformId: string, legalEntityId: string) =>
      Number(
        (
          await db
            .updateTable('calendar_feeds')
            .set({ revoked_at: new Date() })
            .where('legal_entity_id', '=', legalEntityId)
            .where('platform_id', '=', platformId)
            .where('revoked_at', 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    /** Live feeds whose token is sealed under another key than the current one (key rotation), a batch at a time. */
    findStaleTokens: (currentKeyId: string, limit: number, onePerKey = false) => {
      const query = db
        .selectFrom('calendar_feeds')
        .select(['id', 'token_sealed', 'token_iv', 'token_tag', 'key_id'])
        .where('key_id', '<>', currentKeyId)
        .where('revoked_at', 'is', null);
      return (onePerKey ? query.distinctOn('key_id').orderBy('key_id') : query.orderBy('id')).limit(limit).execute();
    },

    /** Re-seals a token if the row still holds the sealing that was read; 1 when it did. */
    resealIfUnchanged: async (
      id: string,
      read: { keyId: string; iv: Buffer },
      sealed: { ciphertext: Buffer; iv: Buffer; tag: Buffer; keyId: string },
    ) =>
      Number(
        (
          await db
            .updateTable('calendar_feeds')
            .set({ token_sealed: sealed.ciphertext, token_iv: sealed.iv, token_tag: sealed.tag, key_id: sealed.keyId })
            .where('id', '=', id)
            .where('key_id', '=', read.keyId)
            .where('token_iv', '=', read.iv)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    countLive: async () =>
      Number(
        (
          await db
            .selectFrom('calendar_feeds')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('revoked_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),

    /**
     * The feed of a live token with its entity's name and dated open tasks, in one query: one row per task
     * (task columns null when there is none), no row for an unknown or revoked token. Tasks as the task list
     * shows them (applicable or acted on), ordered by due date.
     */
    feedByTokenHash: (tokenHash: Buffer) =>
      db
        .selectFrom('calendar_feeds as f')
        .innerJoin('legal_entities as le', 'le.id', 'f.legal_entity_id')
        .leftJoin('tasks as t', (join) =>
          join
            .onRef('t.legal_entity_id', '=', 'f.legal_entity_id')
            .on('t.due_date', 'is not', null)
            .on('t.status', 'in', ['todo', 'in-progress'])
            .on((eb) => eb.or([eb('t.applicable', '=', true), eb('t.acted_at', 'is not', null)])),
        )
        .select([
          'le.business_name',
          't.id',
          't.kind',
          't.definition_id',
          't.region_code',
          't.period_key',
          't.due_date',
          't.status',
          't.revision',
          't.updated_at',
          't.due_date_rule',
          't.due_date_exact',
          't.due_date_question',
        ])
        .where('f.token_hash', '=', tokenHash)
        .where('f.revoked_at', 'is', null)
        .orderBy('t.due_date')
        .orderBy('t.id')
        .execute(),
  };
}

export type CalendarRepository = ReturnType<typeof createCalendarRepository>;
