import type { Db } from '../../db/database.js';

/** Every query of the payroll connection: the two columns it owns on `legal_entities`, over the database or a transaction. */
export function createPayrollRepository(db: Db) {
  return {
    connection: (legalEntityId: string) =>
      db
        .selectFrom('legal_entities')
        .select(['payroll_connected_at', 'last_payroll_update'])
        .where('id', '=', legalEntityId)
        .executeTakeFirstOrThrow(),

    /** The connection, row-locked: a disconnect waits for a sync in progress, and the reverse. */
    connectionForUpdate: (legalEntityId: string) =>
      db
        .selectFrom('legal_entities')
        .select(['payroll_connected_at', 'last_payroll_update'])
        .where('id', '=', legalEntityId)
        .forUpdate()
        .executeTakeFirstOrThrow(),

    /** The first connection counts; connecting again changes nothing (false). */
    markConnected: async (legalEntityId: string, at: Date): Promise<boolean> =>
      (
        await db
          .updateTable('legal_entities')
          .set({ payroll_connected_at: at, updated_at: at })
          .where('id', '=', legalEntityId)
          .where('payroll_connected_at', 'is', null)
          .executeTakeFirst()
      ).numUpdatedRows > 0n,

    /** Employee settings return to the API; the time of the last sync stays as history. False: it was not connected. */
    markDisconnected: async (legalEntityId: string, at: Date): Promise<boolean> =>
      (
        await db
          .updateTable('legal_entities')
          .set({ payroll_connected_at: null, updated_at: at })
          .where('id', '=', legalEntityId)
          .where('payroll_connected_at', 'is not', null)
          .executeTakeFirst()
      ).numUpdatedRows > 0n,

    async recordSync(legalEntityId: string, at: Date): Promise<void> {
      await db.updateTable('legal_entities').set({ last_payroll_update: at, updated_at: at }).where('id', '=', legalEntityId).execute();
    },
  };
}

export type PayrollRepository = ReturnType<typeof createPayrollRepository>;
