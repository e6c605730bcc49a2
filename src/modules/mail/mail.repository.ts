import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MailType } from '../../db/schema.js';
import type { MailFilter as MailItemFilter } from './contract.js';

/** Advisory lock key (any fixed bigint) guarding the file store's writes against garbage collection. */
const FILE_STORE_LOCK = 0x53_746f_7265; // "Store"

/**
 * Every query of mail items. Listings take the legal entity first; a signed download link names only
 * the item (its signature, checked by the service, binds the entity). `db` may be a transaction.
 */
export function createMailRepository(db: Db) {
  return {
    legalEntityExists: async (legalEntityId: string) =>
      Boolean(await db.selectFrom('legal_entities').select('id').where('id', '=', legalEntityId).executeTakeFirst()),

    /** The platform owning the entity (its events' owner). */
    platformOf: async (legalEntityId: string) =>
      (await db.selectFrom('legal_entities').select('platform_id').where('id', '=', legalEntityId).executeTakeFirst())?.platform_id,

    insertItem: (row: {
      id: string;
      legal_entity_id: string;
      region_code: string | null;
      type: MailType;
      received_on: string;
      sender: string | null;
      subject: string | null;
      file_sha256: string;
      file_size: number;
      file_name: string | null;
    }) => db.insertInto('mail_items').values(row).returningAll().executeTakeFirstOrThrow(),

    /** The entity's mail, newest received first; dates inclusive. */
    findItems: (legalEntityId: string, filter: MailItemFilter) => {
      let query = db.selectFrom('mail_items').selectAll().where('legal_entity_id', '=', legalEntityId);
      if (filter.startDate) query = query.where('received_on', '>=', filter.startDate);
      if (filter.endDate) query = query.where('received_on', '<=', filter.endDate);
      if (filter.regionCode) query = query.where('region_code', '=', filter.regionCode.toUpperCase());
      return query.orderBy('received_on', 'desc').orderBy('id').execute();
    },

    /** The entity's item, marked opened (the first time only): the documents page stops calling it new. */
    markOpened: (legalEntityId: string, id: string, at: Date) =>
      db
        .updateTable('mail_items')
        .set({ opened_at: sql<Date>`coalesce(opened_at, ${at})` })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),

    /** The item behind a signed link (the link names no entity; its signature covers it). */
    findItemForLink: (id: string) => db.selectFrom('mail_items').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Of these files, the ones some mail item refers to. */
    findReferencedFiles: async (sha256s: string[]) =>
      new Set(
        (await db.selectFrom('mail_items').select('file_sha256').distinct().where('file_sha256', 'in', sha256s).execute()).map(
          (r) => r.file_sha256,
        ),
      ),

    /** Uploads take the file store's lock shared, for the rest of their transaction. */
    lockFileStoreShared: async () => {
      await sql`select pg_advisory_xact_lock_shared(${FILE_STORE_LOCK}::bigint)`.execute(db);
    },

    /** Garbage collection takes it exclusively: no upload is between its file write and its row commit meanwhile. */
    lockFileStoreExclusive: async () => {
      await sql`select pg_advisory_xact_lock(${FILE_STORE_LOCK}::bigint)`.execute(db);
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
