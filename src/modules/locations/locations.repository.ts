import type { Db } from '../../db/database.js';
import type { LocationConfigState } from './locations.fns.js';

export function createLocationsRepository(db: Db) {
  return {
    findLocations: (legalEntityId: string) =>
      db.selectFrom('legal_entity_locations').selectAll().where('legal_entity_id', '=', legalEntityId).execute(),

    /** Row lock so concurrent updates of one location apply one after the other. */
    findLocationForUpdate: (legalEntityId: string, regionId: string) =>
      db
        .selectFrom('legal_entity_locations')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .where('region_id', '=', regionId)
        .forUpdate()
        .executeTakeFirst(),

    /** Idempotent: adding a location twice is one location. */
    upsertLocation: (legalEntityId: string, regionId: string, config: LocationConfigState) =>
      db
        .insertInto('legal_entity_locations')
        .values({ legal_entity_id: legalEntityId, region_id: regionId, ...config })
        .onConflict((oc) => oc.columns(['legal_entity_id', 'region_id']).doUpdateSet({ ...config, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** Inserts the location if missing (true when it did); the lock then serialises its updates. */
    ensureLocation: async (legalEntityId: string, regionId: string): Promise<boolean> =>
      (
        await db
          .insertInto('legal_entity_locations')
          .values({ legal_entity_id: legalEntityId, region_id: regionId })
          .onConflict((oc) => oc.columns(['legal_entity_id', 'region_id']).doNothing())
          .returning('region_id')
          .execute()
      ).length > 0,

    /** Every location of the entity, row-locked (payroll sync replaces the whole employee picture). */
    findLocationsForUpdate: (legalEntityId: string) =>
      db
        .selectFrom('legal_entity_locations')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .orderBy('region_id')
        .forUpdate()
        .execute(),

    /** Payroll's write: the employee settings of one location, adding it (marked as payroll's) when missing. */
    setEmployeesFromPayroll: (legalEntityId: string, regionId: string, employeeCount: number) => {
      const employees = { has_employees: employeeCount > 0, employee_count: employeeCount };
      return db
        .insertInto('legal_entity_locations')
        .values({ legal_entity_id: legalEntityId, region_id: regionId, ...employees, added_by: 'payroll' })
        .onConflict((oc) => oc.columns(['legal_entity_id', 'region_id']).doUpdateSet({ ...employees, updated_at: new Date() }))
        .execute();
    },

    isPayrollConnected: async (legalEntityId: string) => {
      const row = await db.selectFrom('legal_entities').select('payroll_connected_at').where('id', '=', legalEntityId).executeTakeFirst();
      return Boolean(row?.payroll_connected_at);
    },
  };
}

export type LocationsRepository = ReturnType<typeof createLocationsRepository>;
