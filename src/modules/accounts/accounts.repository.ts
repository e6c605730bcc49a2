import type { Db } from '../../db/database.js';
import type { AgencyAccountDatum } from '../../db/schema.js';
import { columnsFromSealed, sealedFromColumns, type SealedSecret } from './vault.js';

/** Every read takes the legal entity first: one entity's accounts and logins never reach another. */
export function createAccountsRepository(db: Db) {
  // The secret columns are never selected by a listing.
  const LOGIN_COLUMNS = ['id', 'legal_entity_id', 'agency_account_id', 'region_code', 'name', 'login_url', 'is_supported', 'created_at', 'updated_at'] as const;

  return {
    legalEntityExists: async (legalEntityId: string) =>
      Boolean(await db.selectFrom('legal_entities').select('id').where('id', '=', legalEntityId).executeTakeFirst()),

    insertAccount: (row: { id: string; legal_entity_id: string; region_code: string; agency_id: string; name: string; data: AgencyAccountDatum[] }) =>
      db.insertInto('agency_accounts').values({ ...row, data: JSON.stringify(row.data) }).returningAll().executeTakeFirstOrThrow(),

    findAccount: (legalEntityId: string, id: string) =>
      db.selectFrom('agency_accounts').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    findAccounts: (legalEntityId: string, regionCode?: string) => {
      let query = db.selectFrom('agency_accounts').selectAll().where('legal_entity_id', '=', legalEntityId);
      if (regionCode) query = query.where('region_code', '=', regionCode);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    insertLogin: (row: {
      id: string; legal_entity_id: string; agency_account_id: string | null; region_code: string; name: string; login_url: string;
      is_supported: boolean; secret: SealedSecret;
    }) => {
      const { secret, ...rest } = row;
      return db.insertInto('account_logins')
        .values({ ...rest, ...columnsFromSealed(secret) })
        .returning(LOGIN_COLUMNS).executeTakeFirstOrThrow();
    },

    findLogins: (legalEntityId: string, regionCode?: string) => {
      let query = db.selectFrom('account_logins').select(LOGIN_COLUMNS).where('legal_entity_id', '=', legalEntityId);
      if (regionCode) query = query.where('region_code', '=', regionCode);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    /** Replaces one login's sealed secret; scoped to the entity, and to one agency account when given. */
    updateLoginSecret: (legalEntityId: string, id: string, secret: SealedSecret, agencyAccountId?: string) => {
      let query = db.updateTable('account_logins')
        .set({ ...columnsFromSealed(secret), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id);
      if (agencyAccountId !== undefined) query = query.where('agency_account_id', '=', agencyAccountId);
      return query.returning(LOGIN_COLUMNS).executeTakeFirst();
    },

    /** The sealed secret of one login, for the reveal page and connectors; scoped like every other read. */
    findLoginSecret: async (legalEntityId: string, id: string): Promise<SealedSecret | undefined> => {
      const row = await db.selectFrom('account_logins').select(['secret_ciphertext', 'secret_iv', 'secret_tag', 'key_id', 'secret_aad_version'])
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst();
      return row && sealedFromColumns(row);
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
export type LoginListRow = Awaited<ReturnType<AccountsRepository['findLogins']>>[number];
