import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { VaultError, type Vault } from '../accounts/vault.js';

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

type Row = { name: string; value: Buffer; iv: Buffer | null; tag: Buffer | null; key_id: string | null };

/**
 * Keys that sign what Statehouse hands out (access tokens, CSRF tokens, file links). They are shared through
 * the database, so every process accepts every other's tokens, but stored sealed with the vault key
 * (AES-256-GCM, associated data naming the key): a database dump alone signs nothing. The key itself never
 * changes when the vault key rotates — only its sealing — so live tokens and links stay valid.
 */
export function createInstanceKeys(db: Db, vault: Vault) {
  const cache = new Map<string, Promise<Buffer>>();

  const sealedColumns = (name: string, key: Buffer) => {
    const sealed = vault.sealBytes(key, aad(name));
    return { value: sealed.ciphertext, iv: sealed.iv, tag: sealed.tag, key_id: sealed.keyId };
  };

  function open(row: Row): Buffer {
    if (row.key_id === null || row.iv === null || row.tag === null) return row.value; // plaintext from before sealing
    try {
      return vault.openBytes({ ciphertext: row.value, iv: row.iv, tag: row.tag, keyId: row.key_id }, aad(row.name));
    } catch (error) {
      throw new VaultError(`the instance key '${row.name}' cannot be opened: ${(error as Error).message}`);
    }
  }

  /** Seals a plaintext row from before, unless another process did so meanwhile. */
  async function sealLegacy(row: Row): Promise<void> {
    await db.updateTable('instance_secrets').set(sealedColumns(row.name, row.value))
      .where('name', '=', row.name).where('key_id', 'is', null).where('value', '=', row.value).execute();
  }

  async function load(name: InstanceKeyName): Promise<Buffer> {
    // Two processes starting at once: one insert wins, both read the winner's key.
    await db.insertInto('instance_secrets').values({ name, ...sealedColumns(name, randomBytes(KEY_BYTES)) })
      .onConflict((oc) => oc.column('name').doNothing()).execute();
    const row = await db.selectFrom('instance_secrets').select(['name', 'value', 'iv', 'tag', 'key_id']).where('name', '=', name).executeTakeFirstOrThrow();
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
      const row = await db.selectFrom('instance_secrets').select(['name', 'value', 'iv', 'tag', 'key_id']).where('name', '=', previousName(name)).executeTakeFirst();
      return row ? open(row) : null;
    },

    /**
     * Replaces a key with a fresh one and keeps the replaced key as the previous one (dropping any older).
     * Processes read keys at start: restart them afterwards (see docs/security.md).
     */
    async rotate(name: InstanceKeyName): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // Serialises with a concurrent rotation or first start (the row lock), so no key is lost.
        const current = await trx.selectFrom('instance_secrets').select(['name', 'value', 'iv', 'tag', 'key_id']).where('name', '=', name).forUpdate().executeTakeFirst();
        await trx.deleteFrom('instance_secrets').where('name', '=', previousName(name)).execute();
        if (current) {
          // Re-sealed under its new name: the associated data names the row.
          await trx.updateTable('instance_secrets').set({ name: previousName(name), ...sealedColumns(previousName(name), open(current)) }).where('name', '=', name).execute();
        }
        await trx.insertInto('instance_secrets').values({ name, ...sealedColumns(name, randomBytes(KEY_BYTES)) }).execute();
      });
      cache.delete(name);
    },

    /**
     * Re-seals every instance key not under the current vault key (or still in plaintext). Each row is
     * replaced only if it still holds what was read, so it is safe beside live servers and to re-run.
     */
    async reseal(): Promise<{ resealed: number; alreadyCurrent: number }> {
      const current = vault.currentKeyId();
      const rows = await db.selectFrom('instance_secrets').select(['name', 'value', 'iv', 'tag', 'key_id']).orderBy('name').execute();
      // Every key is opened before any row changes: one that cannot be opened stops the command, changing nothing.
      const stale = rows.filter((row) => row.key_id !== current).map((row) => ({ row, key: open(row) }));
      let resealed = 0;
      for (const { row, key } of stale) {
        let query = db.updateTable('instance_secrets').set(sealedColumns(row.name, key)).where('name', '=', row.name).where('value', '=', row.value);
        query = row.key_id === null ? query.where('key_id', 'is', null) : query.where('key_id', '=', row.key_id);
        resealed += Number((await query.executeTakeFirst()).numUpdatedRows);
      }
      return { resealed, alreadyCurrent: rows.length - resealed };
    },
  };
}

export type InstanceKeys = ReturnType<typeof createInstanceKeys>;
