import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A row of `instance_secrets`: the key sealed with the vault key (iv, tag and key id null: plaintext from before sealing). */
export interface InstanceKeyRow {
  name: string;
  value: Buffer;
  iv: Buffer | null;
  tag: Buffer | null;
  key_id: string | null;
}
export type SealedColumns = { value: Buffer; iv: Buffer; tag: Buffer; key_id: string };

const KEY_COLUMNS = ['name', 'value', 'iv', 'tag', 'key_id'] as const;

/**
 * The system module's queries: the installation's instance keys (not a tenant's rows: one set per
 * installation) and the readiness probe. `db` may be a transaction.
 */
export function createSystemRepository(db: Db) {
  return {
    /** GET /readyz: the cheapest statement that needs a working connection. */
    ping: async () => {
      await sql`select 1`.execute(db);
    },

    /** Inserts the key unless a row of that name exists (two processes starting at once: the first wins). */
    insertKeyIfAbsent: (name: string, sealed: SealedColumns) =>
      db
        .insertInto('instance_secrets')
        .values({ name, ...sealed })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute(),

    insertKey: (name: string, sealed: SealedColumns) =>
      db
        .insertInto('instance_secrets')
        .values({ name, ...sealed })
        .execute(),

    findKey: (name: string): Promise<InstanceKeyRow | undefined> =>
      db.selectFrom('instance_secrets').select(KEY_COLUMNS).where('name', '=', name).executeTakeFirst(),

    /** The row locked for the rest of the transaction (a rotation serialises with another one or a first start). */
    findKeyForUpdate: (name: string): Promise<InstanceKeyRow | undefined> =>
      db.selectFrom('instance_secrets').select(KEY_COLUMNS).where('name', '=', name).forUpdate().executeTakeFirst(),

    /**
     * What changes whenever one of these rows is written (a rotation, a re-sealing): each row's name and
     * transaction id (xmin). A primary-key lookup of two rows; '' when none exists.
     */
    keysRevision: async (names: readonly string[]): Promise<string> =>
      (
        await sql<{ revision: string | null }>`
        select string_agg(name || '@' || xmin::text, ',' order by name) as revision
        from instance_secrets where name = any(${[...names]}::text[])`.execute(db)
      ).rows[0]?.revision ?? '',

    findKeys: (): Promise<InstanceKeyRow[]> => db.selectFrom('instance_secrets').select(KEY_COLUMNS).orderBy('name').execute(),

    deleteKey: (name: string) => db.deleteFrom('instance_secrets').where('name', '=', name).execute(),

    renameKey: (name: string, newName: string, sealed: SealedColumns) =>
      db
        .updateTable('instance_secrets')
        .set({ name: newName, ...sealed })
        .where('name', '=', name)
        .execute(),

    /** Replaces a row's sealing only if it still holds what was read (value and key id); returns the rows changed. */
    resealIfUnchanged: async (row: InstanceKeyRow, sealed: SealedColumns) => {
      let query = db.updateTable('instance_secrets').set(sealed).where('name', '=', row.name).where('value', '=', row.value);
      query = row.key_id === null ? query.where('key_id', 'is', null) : query.where('key_id', '=', row.key_id);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },
  };
}

export type SystemRepository = ReturnType<typeof createSystemRepository>;
