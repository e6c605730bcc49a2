import { sql } from 'kysely';
import { preparedQuery, type Db } from '../../db/database.js';
import type { LegalEntityRow } from '../../db/schema.js';
import type { PlannedEntityStore } from '../planning/contract.js';
import type { PayrollConnectionStore } from './payroll-connection.js';
import type { EntityProfile } from './legal-entities.fns.js';

export function toColumns(profile: Partial<EntityProfile>) {
  const { business_address, mailing_address, ...rest } = profile;
  return {
    ...rest,
    ...(business_address !== undefined && { business_address: business_address && JSON.stringify(business_address) }),
    ...(mailing_address !== undefined && { mailing_address: mailing_address && JSON.stringify(mailing_address) }),
  };
}

const FIND_LEGAL_ENTITY = 'select * from legal_entities where id = $1 and platform_id = $2';

export function createLegalEntitiesRepository(db: Db) {
  return {
    /** A new entity: inactive (its owner completes the hosted signup), or active (an import of one onboarded elsewhere). */
    insertLegalEntity: (
      row: { id: string; platform_id: string } & EntityProfile,
      status: 'inactive' | 'active' = 'inactive',
    ): Promise<LegalEntityRow> =>
      db
        .insertInto('legal_entities')
        .values({
          ...toColumns(row),
          id: row.id,
          platform_id: row.platform_id,
          business_name: row.business_name,
          status,
          ...(status === 'active' && { activated_at: new Date(), signup_step: 'done' }),
        })
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** A platform's entities with these external company ids (an import finds what it imported before). */
    findByExternalIds: (platformId: string, externalIds: readonly string[]): Promise<LegalEntityRow[]> =>
      externalIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('legal_entities')
            .selectAll()
            .where('platform_id', '=', platformId)
            .where('external_company_id', 'in', [...externalIds])
            .execute(),

    updateProfile: (platformId: string, id: string, profile: Partial<EntityProfile>) =>
      db
        .updateTable('legal_entities')
        .set({ ...toColumns(profile), updated_at: new Date() })
        .where('platform_id', '=', platformId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),

    /**
     * Every read is scoped by platform: another platform's entity is simply not found.
     * The hottest query of the API, so its SQL is compiled once (see FIND_LEGAL_ENTITY).
     */
    findLegalEntity: async (platformId: string, id: string): Promise<LegalEntityRow | undefined> =>
      (await preparedQuery<LegalEntityRow>(db, 'find-legal-entity', FIND_LEGAL_ENTITY, [id, platformId]))[0],

    /** The hosted signup knows the entity by its session, not by platform. */
    findById: (id: string): Promise<LegalEntityRow | undefined> =>
      db.selectFrom('legal_entities').selectAll().where('id', '=', id).executeTakeFirst(),

    /**
     * A hosted signup step: the details entered (none for the introduction), where to resume, and the steps the owner has
     * now confirmed; only while the entity is inactive.
     */
    saveSignupStep: (id: string, profile: Partial<EntityProfile>, nextStep: string, confirmedSteps: string[]) =>
      db
        .updateTable('legal_entities')
        .set({ ...toColumns(profile), signup_step: nextStep, signup_confirmed_steps: confirmedSteps, updated_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'inactive')
        .returningAll()
        .executeTakeFirst(),

    /** The hosted signup's last step: active, once. */
    completeSignup: (id: string) =>
      db
        .updateTable('legal_entities')
        .set({ status: 'active', activated_at: new Date(), signup_step: 'done', updated_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'inactive')
        .returningAll()
        .executeTakeFirst(),

    activate: (id: string) =>
      db
        .updateTable('legal_entities')
        .set({ status: 'active', activated_at: new Date(), updated_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'inactive')
        .returningAll()
        .executeTakeFirst(),
  };
}

export type LegalEntitiesRepository = ReturnType<typeof createLegalEntitiesRepository>;

/** PostgreSQL unique violation on the per-platform external_company_id index. */
export function isExternalIdConflict(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && e.constraint === 'legal_entities_external_company_id_key';
}

/** Payroll's port over its connection columns (contract.ts PayrollConnectionStore), on `db`: its transaction or the database. */
export const payrollConnectionStore: PayrollConnectionStore = {
  connection: (db, legalEntityId) =>
    db
      .selectFrom('legal_entities')
      .select(['payroll_connected_at', 'last_payroll_update'])
      .where('id', '=', legalEntityId)
      .executeTakeFirstOrThrow(),

  connectionForUpdate: (db, legalEntityId) =>
    db
      .selectFrom('legal_entities')
      .select(['payroll_connected_at', 'last_payroll_update'])
      .where('id', '=', legalEntityId)
      .forUpdate()
      .executeTakeFirstOrThrow(),

  markConnected: async (db, legalEntityId, at) =>
    (
      await db
        .updateTable('legal_entities')
        .set({ payroll_connected_at: at, updated_at: at })
        .where('id', '=', legalEntityId)
        .where('payroll_connected_at', 'is', null)
        .executeTakeFirst()
    ).numUpdatedRows > 0n,

  markDisconnected: async (db, legalEntityId, at) =>
    (
      await db
        .updateTable('legal_entities')
        .set({ payroll_connected_at: null, updated_at: at })
        .where('id', '=', legalEntityId)
        .where('payroll_connected_at', 'is not', null)
        .executeTakeFirst()
    ).numUpdatedRows > 0n,

  async recordSync(db, legalEntityId, at) {
    await db.updateTable('legal_entities').set({ last_payroll_update: at, updated_at: at }).where('id', '=', legalEntityId).execute();
  },
};

/** Planning's port over its columns of legal_entities (planning/contract.ts PlannedEntityStore), in the re-planning's transaction. */
export const plannedEntityStore: PlannedEntityStore = {
  async recordPlanned(db, rows, revision) {
    if (rows.length === 0) return;
    await sql`
      update legal_entities e set next_replan_on = u.next_replan_on, catalog_revision = ${revision}
        from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.nextReplanOn)}::date[]) as u(id, next_replan_on)
       where e.id = u.id
         -- Unchanged (most re-plannings of a fact change): no new row version.
         and (e.next_replan_on is distinct from u.next_replan_on or e.catalog_revision is distinct from ${revision})`.execute(db);
  },
};
