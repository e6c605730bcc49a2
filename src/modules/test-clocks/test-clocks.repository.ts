import type { Db } from '../../db/database.js';

/** Every query of the test clocks; `db` is the database or the caller's transaction (a planning change). */
export function createTestClocksRepository(db: Db) {
  return {
    /** The frozen time of the entities that have a clock: one lookup of the unique entity index. */
    frozenOf: async (legalEntityIds: readonly string[]): Promise<Map<string, Date>> => {
      if (legalEntityIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('test_clocks')
        .select(['legal_entity_id', 'frozen_time'])
        .where('legal_entity_id', 'in', [...legalEntityIds])
        .execute();
      return new Map(rows.map((r) => [r.legal_entity_id, r.frozen_time]));
    },

    find: (platformId: string, id: string) =>
      db.selectFrom('test_clocks').selectAll().where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst(),

    findForEntity: (legalEntityId: string) =>
      db.selectFrom('test_clocks').selectAll().where('legal_entity_id', '=', legalEntityId).executeTakeFirst(),

    list: (platformId: string) =>
      db.selectFrom('test_clocks').selectAll().where('platform_id', '=', platformId).orderBy('created_at').orderBy('id').execute(),

    insert: (row: { id: string; platform_id: string; legal_entity_id: string; frozen_time: Date }) =>
      db.insertInto('test_clocks').values(row).returningAll().executeTakeFirstOrThrow(),

    setFrozen: (legalEntityId: string, id: string, frozenTime: Date) =>
      db
        .updateTable('test_clocks')
        .set({ frozen_time: frozenTime, updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    remove: async (legalEntityId: string, id: string): Promise<void> => {
      await db.deleteFrom('test_clocks').where('legal_entity_id', '=', legalEntityId).where('id', '=', id).execute();
    },
  };
}

export type TestClocksRepository = ReturnType<typeof createTestClocksRepository>;
export type TestClockRow = NonNullable<Awaited<ReturnType<TestClocksRepository['find']>>>;
