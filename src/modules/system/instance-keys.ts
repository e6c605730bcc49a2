import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { VaultError, type Vault } from '../accounts/vault.js';
import { createSystemRepository, type InstanceKeyRow } from './system.repository.js';

/** The installation's own keys, one row each in `instance_secrets`. */
export const INSTANCE_KEY = {
  accessTokens: 'access-token-signing-key',
  csrf: 'hosted-csrf-key',
  fileLinks: 'file-link-key',
} as const;

export type InstanceKeyName = (typeof INSTANCE_KEY)[keyof typeof INSTANCE_KEY];

const KEY_BYTES = 32;
/** After a rotation the replaced key stays, under this suffix, to verify what it signed (one rotation back). */
const PREVIOUS_SUFFIX = '.previous';

/** Binds a sealed key to its row: the CSRF key's ciphertext copied onto the signing key's row does not open. */
const aad = (name: string) => Buffer.from(`statehouse:instance-key:v1\n${name}`);

/**
 * Keys that sign what Statehouse hands out (access tokens, CSRF tokens, file links). They are shared through
 * the database, so every process accepts every other's tokens, but stored sealed with the vault key
 * (AES-256-GCM, associated data naming the key): a database dump alone signs nothing. The key itself never
 * changes when the vault key rotates — only its sealing — so live tokens and links stay valid.
 */
export function createInstanceKeys(db: Db, vault: Vault) {
  const repo = createSystemRepository(db);
  const cache = new Map<string, Promise<Buffer>>();

  const sealedColumns = (name: string, key: Buffer) => {
    const sealed = vault.sealBytes(key, aad(name));
    return { value: sealed.ciphertext, iv: sealed.iv, tag: sealed.tag, key_id: sealed.keyId };
  };

  function open(row: InstanceKeyRow): Buffer {
    if (row.key_id === null || row.iv === null || row.tag === null) return row.value; // plaintext from before sealing
    try {
      return vault.openBytes({ ciphertext: row.value, iv: row.iv, tag: row.tag, keyId: row.key_id }, aad(row.name));
    } catch (error) {
      throw new VaultError(`the instance key '${row.name}' cannot be opened: ${(error as Error).message}`);
    }
  }

  /** Seals a plaintext row from before, unless another process did so meanwhile. */
  async function sealLegacy(row: InstanceKeyRow): Promise<void> {
    await repo.resealIfUnchanged(row, sealedColumns(row.name, row.value));
  }

  async function load(name: InstanceKeyName): Promise<Buffer> {
    // Two processes starting at once: one insert wins, both read the winner's key.
    await repo.insertKeyIfAbsent(name, sealedColumns(name, randomBytes(KEY_BYTES)));
    const row = await repo.findKey(name);
    if (!row) throw new Error(`the instance key '${name}' vanished right after it was stored`);
    const key = open(row);
    if (row.key_id === null) await sealLegacy(row);
    return key;
  }

  const previousName = (name: InstanceKeyName) => `${name}${PREVIOUS_SUFFIX}`;

  return {
    /** The key (read once per process, then remembered). */
    get(name: InstanceKeyName): Promise<Buffer> {
      let key = cache.get(name);
      if (!key) {
        key = load(name);
        cache.set(name, key);
        key.catch(() => cache.delete(name)); // a failure is not remembered
      }
      return key;
    },

    /** The key a rotation replaced, if any (still accepted for what it signed). */
    async previous(name: InstanceKeyName): Promise<Buffer | null> {
      const row = await repo.findKey(previousName(name));
      return row ? open(row) : null;
    },

    /**
     * Replaces a key with a fresh one and keeps the replaced key as the previous one (dropping any older).
     * Processes read keys at start: restart them afterwards (see docs/security.md).
     */
    async rotate(name: InstanceKeyName): Promise<void> {
      await db.transaction().execute(async (transaction) => {
        const trx = createSystemRepository(transaction);
        // Serialises with a concurrent rotation or first start (the row lock), so no key is lost.
        const current = await trx.findKeyForUpdate(name);
        await trx.deleteKey(previousName(name));
        // Re-sealed under its new name: the associated data names the row.
        if (current) await trx.renameKey(name, previousName(name), sealedColumns(previousName(name), open(current)));
        await trx.insertKey(name, sealedColumns(name, randomBytes(KEY_BYTES)));
      });
      cache.delete(name);
    },

    /**
     * Re-seals every instance key not under the current vault key (or still in plaintext). Each row is
     * replaced only if it still holds what was read, so it is safe beside live servers and to re-run.
     */
    async reseal(): Promise<{ resealed: number; alreadyCurrent: number }> {
      const current = vault.currentKeyId();
      const rows = await repo.findKeys();
      // Every key is opened before any row changes: one that cannot be opened stops the command, changing nothing.
      const stale = rows.filter((row) => row.key_id !== current).map((row) => ({ row, key: open(row) }));
      let resealed = 0;
      for (const { row, key } of stale) resealed += await repo.resealIfUnchanged(row, sealedColumns(row.name, key));
      return { resealed, alreadyCurrent: rows.length - resealed };
    },
  };
}

export type InstanceKeys = ReturnType<typeof createInstanceKeys>;
