import type { Db } from '../../db/database.js';

/** Operator keys: the installation's own principals (no tenant), found by the hash of the key. */
export function createOperatorsRepository(db: Db) {
  return {
    insertKey: (row: { id: string; name: string; key_hash: Buffer; key_hint: string }) =>
      db.insertInto('operator_keys').values(row).returning(['id', 'name', 'key_hint', 'created_at']).executeTakeFirstOrThrow(),

    findKeys: () =>
      db
        .selectFrom('operator_keys')
        .select(['id', 'name', 'key_hint', 'created_at', 'last_used_at', 'revoked_at'])
        .orderBy('created_at')
        .execute(),

    keyExists: async (id: string) => Boolean(await db.selectFrom('operator_keys').select('id').where('id', '=', id).executeTakeFirst()),

    /** Revokes a key not yet revoked; undefined when there is none such. */
    revokeKey: (id: string) =>
      db
        .updateTable('operator_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(['id'])
        .executeTakeFirst(),

    /** The unrevoked key with this hash, stamped as used now. */
    useKey: (keyHash: Buffer) =>
      db
        .updateTable('operator_keys')
        .set({ last_used_at: new Date() })
        .where('key_hash', '=', keyHash)
        .where('revoked_at', 'is', null)
        .returning(['id', 'name'])
        .executeTakeFirst(),

    /** Every platform, by name (the back office's platform filter). */
    listPlatforms: () => db.selectFrom('platforms').select(['id', 'name']).orderBy('name').orderBy('id').execute(),

    /** The operator API works on any legal entity: it only needs to know that one exists. */
    legalEntityExists: async (legalEntityId: string) =>
      Boolean(await db.selectFrom('legal_entities').select('id').where('id', '=', legalEntityId).executeTakeFirst()),
  };
}

export type OperatorsRepository = ReturnType<typeof createOperatorsRepository>;
