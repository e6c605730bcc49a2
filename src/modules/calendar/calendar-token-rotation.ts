import type { Db } from '../../db/database.js';
import type { Vault } from '../../crypto/vault.js';
import { createCalendarRepository } from './calendar.repository.js';
import { tokenAad } from './calendar.service.js';

const BATCH = 200;

/**
 * Key rotation of the sealed calendar tokens, beside the login secrets and automation inputs (`statehouse vault
 * reencrypt`): `check` opens one live token per old key before anything is written, so an unconfigured key stops the
 * command having changed nothing; `reencrypt` re-seals every live token still under an old key (same binding: the
 * feed's id), each row only if it still holds what was read. Revoked tokens are never opened again and stay as they are.
 */
export function createCalendarTokenRotation(db: Db, vault: Pick<Vault, 'sealBytes' | 'openBytes' | 'currentKeyId'>) {
  const repository = createCalendarRepository(db);
  type Stale = Awaited<ReturnType<typeof repository.findStaleTokens>>[number];
  const open = (row: Stale) =>
    vault.openBytes({ ciphertext: row.token_sealed, iv: row.token_iv, tag: row.token_tag, keyId: row.key_id }, tokenAad(row.id));

  return {
    async check(): Promise<void> {
      for (const row of await repository.findStaleTokens(vault.currentKeyId(), BATCH, true)) open(row);
    },

    async reencrypt(): Promise<{ reencrypted: number; alreadyCurrent: number }> {
      let reencrypted = 0;
      for (;;) {
        const rows = await repository.findStaleTokens(vault.currentKeyId(), BATCH);
        if (rows.length === 0) break;
        for (const row of rows) {
          reencrypted += await repository.resealIfUnchanged(
            row.id,
            { keyId: row.key_id, iv: row.token_iv },
            vault.sealBytes(open(row), tokenAad(row.id)),
          );
        }
      }
      return { reencrypted, alreadyCurrent: (await repository.countLive()) - reencrypted };
    },
  };
}
