import type { Db } from '../../db/database.js';
import { columnsFromSealed, sealedFromColumns, type Vault } from './vault.js';

const BATCH = 200;

/**
 * After a key rotation (`STATEHOUSE_VAULT_KEY=new,old`), re-seals every login secret still under an
 * old key with the current one, so the old key can then be removed from the configuration. Each row is
 * updated only if it still holds the ciphertext that was read: a credential changed meanwhile (already
 * under the new key) is never overwritten with an older value. Safe to run again or beside a live server.
 */
export async function reencryptLoginSecrets(db: Db, vault: Vault): Promise<{ reencrypted: number; alreadyCurrent: number }> {
  const current = vault.currentKeyId();
  let reencrypted = 0;
  for (;;) {
    const rows = await db.selectFrom('account_logins')
      .select(['id', 'secret_ciphertext', 'secret_iv', 'secret_tag', 'key_id'])
      .where('key_id', '<>', current).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const sealed = vault.seal(vault.open(sealedFromColumns(row)));
      const updated = await db.updateTable('account_logins')
        .set(columnsFromSealed(sealed))
        .where('id', '=', row.id).where('key_id', '=', row.key_id).where('secret_iv', '=', row.secret_iv)
        .executeTakeFirst();
      reencrypted += Number(updated.numUpdatedRows);
    }
  }
  const { count } = await db.selectFrom('account_logins').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return { reencrypted, alreadyCurrent: Number(count) - reencrypted };
}
