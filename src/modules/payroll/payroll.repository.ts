import type { Db } from '../../db/database.js';

/** Every query of the payroll connection: the two columns it owns on `legal_entities`. */
export function createPayrollRepository(db: Db) {
  return {
    async connectedAt(legalEntityId: string): Promise<Date | null> {
      const row = await db.selectFrom('legal_entities').select('payroll_connected_at').where('id', '=', legalEntityId).executeTakeFirstOrThrow();
      return row.payroll_connected_at;
    },

    /** The first connection counts; connecting again changes nothing. */
    async markConnected(legalEntityId: string, at: Date): Promise<void> {
      await db.updateTable('legal_entities').set({ payroll_connected_at: at, last_payroll_update: at, updated_at: at })
        .where('id', '=', legalEntityId).where('payroll_connected_at', 'is', null).execute();
    },
  };
}

export type PayrollRepository = ReturnType<typeof createPayrollRepository>;
