import type { Db } from '../../db/database.js';
import { createAccountsRepository } from './accounts.repository.js';
import { CURRENT_LOGIN_AAD_VERSION, sealedFromColumns, type Vault } from '../../crypto/vault.js';

const BATCH = 200;

export interface ReencryptResult {
  /** Login secrets re-sealed (an old vault key or an older associated-data binding). */
  reencrypted: number;
  alreadyCurrent: number;
}

/**
 * After a key rotation (`STATEHOUSE_VAULT_KEY=new,old`), re-seals every secret still under an old key with the
 * current one, so the old key can then be removed from the configuration; login secrets still bound by the
 * legacy associated data are re-sealed bound to their login. Each row is updated only if it still holds what
 * was read: a credential changed meanwhile (already current) is never overwritten with an older value. Safe to
 * run again or beside a live server. (`statehouse vault reencrypt` re-seals the instance keys first, see
 * modules/system/instance-keys.ts: one that cannot be opened stops everything.)
 */
export async function reencryptLoginSecrets(db: Db, vault: Vault): Promise<ReencryptResult> {
  const repo = createAccountsRepository(db);
  const current = vault.currentKeyId();
  let reencrypted = 0;
  for (;;) {
    const rows = await repo.findStaleSecrets(current, CURRENT_LOGIN_AAD_VERSION, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      const sealed = vault.seal(vault.open(sealedFromColumns(row), row.id), row.id);
      reencrypted += await repo.resealIfUnchanged(row.id, row, sealed);
    }
  }
  return { reencrypted, alreadyCurrent: (await repo.countLogins()) - reencrypted };
}
