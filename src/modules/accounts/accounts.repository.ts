import type { Db } from '../../db/database.js';
import type { AgencyAccountDatum, AgencyAccountDetails } from '../../db/schema.js';
import { columnsFromSealed, sealedFromColumns, type SealedSecret } from '../../crypto/vault.js';

const SECRET_COLUMNS = ['secret_ciphertext', 'secret_iv', 'secret_tag', 'key_id', 'secret_aad_version'] as const;

/**
 * Every query of agency accounts, logins and their reveal audit trail. Every read takes the legal entity
 * first: one entity's accounts and logins never reach another. The exceptions are the operator's views
 * across entities (the reveal trail, filters optional) and the vault's re-sealing of every login.
 */
function accountQueries(db: Db) {
  // The secret columns are never selected by a listing.
  const LOGIN_COLUMNS = [
    'id',
    'legal_entity_id',
    'agency_account_id',
    'region_code',
    'name',
    'login_url',
    'is_supported',
    'created_at',
    'updated_at',
  ] as const;

  return {
    legalEntityExists: async (legalEntityId: string) =>
      Boolean(await db.selectFrom('legal_entities').select('id').where('id', '=', legalEntityId).executeTakeFirst()),

    /** The platform owning the entity (an event's owner). */
    platformOf: async (legalEntityId: string) =>
      (await db.selectFrom('legal_entities').select('platform_id').where('id', '=', legalEntityId).executeTakeFirst())?.platform_id,

    insertAccount: (row: {
      id: string;
      legal_entity_id: string;
      region_code: string;
      agency_id: string;
      name: string;
      data: AgencyAccountDatum[];
    }) =>
      db
        .insertInto('agency_accounts')
        .values({ ...row, data: JSON.stringify(row.data) })
        .returningAll()
        .executeTakeFirstOrThrow(),

    findAccount: (legalEntityId: string, id: string) =>
      db.selectFrom('agency_accounts').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    findAccounts: (legalEntityId: string, regionCode?: string) => {
      let query = db.selectFrom('agency_accounts').selectAll().where('legal_entity_id', '=', legalEntityId);
      if (regionCode) query = query.where('region_code', '=', regionCode);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    /** The account row locked for the transaction: concurrent connects of one account queue behind it. */
    lockAccount: (legalEntityId: string, id: string) =>
      db
        .selectFrom('agency_accounts')
        .select('id')
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst(),

    /** The account's data, locked: a connection's sync merges into what is there now. */
    lockAccountData: async (legalEntityId: string, id: string): Promise<AgencyAccountDatum[]> =>
      (
        await db
          .selectFrom('agency_accounts')
          .select('data')
          .where('legal_entity_id', '=', legalEntityId)
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirstOrThrow()
      ).data,

    updateAccountDetails: (legalEntityId: string, id: string, details: AgencyAccountDetails, data: AgencyAccountDatum[]) =>
      db
        .updateTable('agency_accounts')
        .set({ details: JSON.stringify(details), data: JSON.stringify(data), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .execute(),

    /** A connector signed in and worked with this login: automation can use it. */
    markLoginSupported: (legalEntityId: string, loginId: string) =>
      db
        .updateTable('account_logins')
        .set({ is_supported: true })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', loginId)
        .execute(),

    insertLogin: (row: {
      id: string;
      legal_entity_id: string;
      agency_account_id: string | null;
      region_code: string;
      name: string;
      login_url: string;
      is_supported: boolean;
      secret: SealedSecret;
    }) => {
      const { secret, ...rest } = row;
      return db
        .insertInto('account_logins')
        .values({ ...rest, ...columnsFromSealed(secret) })
        .returning(LOGIN_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    findLogins: (legalEntityId: string, regionCode?: string) => {
      let query = db.selectFrom('account_logins').select(LOGIN_COLUMNS).where('legal_entity_id', '=', legalEntityId);
      if (regionCode) query = query.where('region_code', '=', regionCode);
      return query.orderBy('created_at').orderBy('id').execute();
    },

    /** Replaces one login's sealed secret; scoped to the entity, and to one agency account when given. */
    updateLoginSecret: (legalEntityId: string, id: string, secret: SealedSecret, agencyAccountId?: string) => {
      let query = db
        .updateTable('account_logins')
        .set({ ...columnsFromSealed(secret), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id);
      if (agencyAccountId !== undefined) query = query.where('agency_account_id', '=', agencyAccountId);
      return query.returning(LOGIN_COLUMNS).executeTakeFirst();
    },

    /** The sealed secret of one login, for the reveal page and connectors; scoped like every other read. */
    findLoginSecret: async (legalEntityId: string, id: string): Promise<SealedSecret | undefined> => {
      const row = await db
        .selectFrom('account_logins')
        .select(SECRET_COLUMNS)
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && sealedFromColumns(row);
    },

    /** The audit record of one view of a login's credentials (GET /hosted/logins/{login_id}). */
    insertReveal: (row: {
      id: string;
      legal_entity_id: string;
      login_id: string;
      platform_id: string;
      hosted_session_id: string;
      browser_session_id: string;
    }) => db.insertInto('login_reveals').values(row).execute(),

    /** The operator's audit trail: newest first, at most 1,000 rows, optionally of one entity and/or platform. */
    findReveals: (filter: { legalEntityId?: string | undefined; platformId?: string | undefined }) => {
      let query = db
        .selectFrom('login_reveals')
        .innerJoin('account_logins', (join) =>
          join
            .onRef('account_logins.id', '=', 'login_reveals.login_id')
            .onRef('account_logins.legal_entity_id', '=', 'login_reveals.legal_entity_id'),
        )
        .select([
          'login_reveals.id',
          'login_reveals.login_id',
          'account_logins.name as login_name',
          'login_reveals.legal_entity_id',
          'login_reveals.platform_id',
          'login_reveals.hosted_session_id',
          'login_reveals.browser_session_id',
          'login_reveals.revealed_at',
        ])
        .orderBy('login_reveals.revealed_at', 'desc')
        .limit(1000);
      if (filter.legalEntityId) query = query.where('login_reveals.legal_entity_id', '=', filter.legalEntityId);
      if (filter.platformId) query = query.where('login_reveals.platform_id', '=', filter.platformId);
      return query.execute();
    },

    /** Vault rotation: a batch of logins (of every entity) sealed under another key or an older binding. */
    findStaleSecrets: (currentKeyId: string, currentAadVersion: number, limit: number) =>
      db
        .selectFrom('account_logins')
        .select(['id', ...SECRET_COLUMNS])
        .where((eb) => eb.or([eb('key_id', '<>', currentKeyId), eb('secret_aad_version', '<>', currentAadVersion)]))
        .orderBy('id')
        .limit(limit)
        .execute(),

    /** Replaces a login's sealed secret only if it still holds the one read (same key and iv); returns the rows changed. */
    resealIfUnchanged: async (id: string, read: { key_id: string; secret_iv: Buffer }, secret: SealedSecret) =>
      Number(
        (
          await db
            .updateTable('account_logins')
            .set(columnsFromSealed(secret))
            .where('id', '=', id)
            .where('key_id', '=', read.key_id)
            .where('secret_iv', '=', read.secret_iv)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    countLogins: async () =>
      Number(
        (
          await db
            .selectFrom('account_logins')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      ),
  };
}

type AccountQueries = ReturnType<typeof accountQueries>;

export function createAccountsRepository(db: Db) {
  return {
    ...accountQueries(db),
    /** Runs `work` in one transaction, with the queries over it (an operator action and its audit line commit together). */
    inTransaction: <T>(work: (repo: AccountQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => work(accountQueries(trx), trx)),
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
export type LoginListRow = Awaited<ReturnType<AccountsRepository['findLogins']>>[number];
