import type { Db } from '../../db/database.js';
import type { Vault } from '../../crypto/vault.js';
import { inputAad } from './automation-writer.js';
import { createAutomationsRepository } from './automations.repository.js';

const BATCH = 200;

type StaleInput = Awaited<ReturnType<ReturnType<typeof createAutomationsRepository>['findStaleInputs']>>[number];

export interface InputReencryptResult {
  /** Sealed inputs re-sealed under the current vault key. */
  reencrypted: number;
  alreadyCurrent: number;
}

/**
 * Key rotation for the sensitive inputs of automations (SSN digits, bank details), beside the login secrets
 * (accounts/vault-rotation.ts). `check` opens one input per old key before anything is written, so a key that
 * is not configured stops `statehouse vault reencrypt` having changed nothing; `reencrypt` then re-seals every
 * input still under an old key, each row only if it still holds what was read (an owner's answer re-seals it
 * meanwhile: never overwritten with the older value). Same binding (the automation's id), new key.
 */
export function createAutomationInputRotation(db: Db, vault: Pick<Vault, 'sealBytes' | 'openBytes' | 'currentKeyId'>) {
  const repo = createAutomationsRepository(db);
  const open = (row: StaleInput) =>
    vault.openBytes(
      { ciphertext: row.sealed_input!, iv: row.sealed_input_iv!, tag: row.sealed_input_tag!, keyId: row.sealed_input_key_id! },
      inputAad(row.id),
    );

  return {
    async check(): Promise<void> {
      for (const row of await repo.findOneStaleInputPerKey(vault.currentKeyId())) open(row);
    },

    async reencrypt(): Promise<InputReencryptResult> {
      let reencrypted = 0;
      for (;;) {
        const rows = await repo.findStaleInputs(vault.currentKeyId(), BATCH);
        if (rows.length === 0) break;
        for (const row of rows) {
          const sealed = vault.sealBytes(open(row), inputAad(row.id));
          reencrypted += await repo.resealInputIfUnchanged(row.id, { keyId: row.sealed_input_key_id!, iv: row.sealed_input_iv! }, sealed);
        }
      }
      return { reencrypted, alreadyCurrent: (await repo.countSealedInputs()) - reencrypted };
    },
  };
}
