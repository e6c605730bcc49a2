import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { VaultError, type Vault } from '../../crypto/vault.js';
import type { InstanceKeyName, InstanceKeys } from './contract.js';
import { createSystemRepository, type InstanceKeyRow } from './system.repository.js';

const KEY_BYTES = 32;
/** After a rotation the replaced key stays, under this suffix, to verify what it signed (one rotation back). */
const PREVIOUS_SUFFIX = '.previous';

/** How long a process trusts the keys it read before checking the database for a rotation (one tiny query). */
const REVALIDATE_MS = 1000;

interface KeySet {
  /** See SystemRepository.keysRevision. */
  revision: string;
  /** The current key, then the previous one if any. */
  keys: Buffer[];
  checkedAt: number;
}

/** Binds a sealed key to its row: the CSRF key's ciphertext copied onto the signing key's row does not open. */
const aad = (name: string) => Buffer.from(`statehouse:instance-key:v1\n${name}`);

/**
 * Keys that sign what Statehouse hands out (access tokens, CSRF tokens, file links). They are shared through
 * the database, so every process accepts every other's tokens, but stored sealed with the vault key
 * (AES-256-GCM, associated data naming the key): a database dump alone signs nothing. The key itself never
 * changes when the vault key rotates — only its sealing — so live tokens and links stay valid.
 */
export function createInstanceKeys(db: Db, vault: Vault, clock: () => number = Date.now): InstanceKeys {
  const repo = createSystemRepository(db);
  /** Each key as last read, with the revision of its rows and when that revision was last checked. */
  const sets = new Map<InstanceKeyName, KeySet>();
  /** One check at a time per key: a burst of requests (or of forged tokens) shares it. */
  const checking = new Map<InstanceKeyName, Promise<KeySet>>();
  /** Rotations made by this process, per key: a check begun before one does not store what it read. */
  const rotations = new Map<InstanceKeyName, number>();

  const sealedColumns = (name: string, key: Buffer) => {
    const sealed = vault.sealBytes(key, aad(name));
    return { value: sealed.ciphertext, iv: sealed.iv, tag: sealed.tag, key_id: sealed.keyId };
  };

  function open(row: InstanceKeyRow): Buffer {
    if (row.key_id === null || row.iv === null || row.tag === null) return row.value; // plaintext from before sealing
    try {
      return vault.openBytes({ ciphertext: row.value, iv: row.iv, tag: row.tag, keyId: row.key_id }, aad(row.name));
    } catch (error) {
      // The usual cause across hosts: a host that made its own vault key file (docs/scaling.md, "Vault key").
      const otherHost =
        row.key_id !== vault.currentKeyId()
          ? `; this process's vault key is ${vault.currentKeyId()}: every process and host of an installation needs the same STATEHOUSE_VAULT_KEY`
          : '';
      throw new VaultError(`the instance key '${row.name}' cannot be opened: ${(error as Error).message}${otherHost}`);
    }
  }

  /** Seals a plaintext row from before, unless another process did so meanwhile. */
  async function sealLegacy(row: InstanceKeyRow): Promise<void> {
    await repo.resealIfUnchanged(row, sealedColumns(row.name, row.value));
  }

  const previousName = (name: InstanceKeyName) => `${name}${PREVIOUS_SUFFIX}`;
  const revisionOf = (name: InstanceKeyName) => repo.keysRevision([name, previousName(name)]);

  async function load(name: InstanceKeyName): Promise<KeySet> {
    // Two processes starting at once: one insert wins, both read the winner's key.
    await repo.insertKeyIfAbsent(name, sealedColumns(name, randomBytes(KEY_BYTES)));
    // The revision before the rows: a rotation landing in between makes the next check read them again.
    const revision = await revisionOf(name);
    const [row, previousRow] = await Promise.all([repo.findKey(name), repo.findKey(previousName(name))]);
    if (!row) throw new Error(`the instance key '${name}' vanished right after it was stored`);
    const keys = [open(row), ...(previousRow ? [open(previousRow)] : [])];
    if (row.key_id === null) await sealLegacy(row);
    return { revision, keys, checkedAt: clock() };
  }

  /**
   * Re-reads the key's revision (and the keys, if it moved); concurrent callers share one check. A check that
   * began before this process rotated the key does not store what it read (it may predate the rotation).
   */
  function check(name: InstanceKeyName): Promise<KeySet> {
    const running = checking.get(name);
    if (running) return running;
    const known = sets.get(name);
    const generation = rotations.get(name) ?? 0;
    const next = (async () => {
      if (known && (await revisionOf(name)) === known.revision) return { ...known, checkedAt: clock() };
      return load(name);
    })();
    checking.set(name, next);
    next
      .then(
        (set) => {
          if ((rotations.get(name) ?? 0) === generation) sets.set(name, set);
        },
        () => {},
      )
      .finally(() => {
        if (checking.get(name) === next) checking.delete(name);
      });
    return next;
  }

  /** The keys, re-validated against the database at most once per REVALIDATE_MS. */
  async function keySet(name: InstanceKeyName): Promise<KeySet> {
    const known = sets.get(name);
    if (known && clock() - known.checkedAt < REVALIDATE_MS) return known;
    return check(name);
  }

  return {
    /**
     * The key. Read once, then re-validated at most once a second (one indexed lookup), so a rotation by another
     * process or the CLI reaches this one within a second, without a restart.
     */
    async get(name: InstanceKeyName): Promise<Buffer> {
      return (await keySet(name)).keys[0]!;
    },

    /** The key a rotation replaced, if any (still accepted for what it signed). */
    async previous(name: InstanceKeyName): Promise<Buffer | null> {
      return (await keySet(name)).keys[1] ?? null;
    },

    /**
     * The key and the one it replaced, for verifying: `reload` re-reads them at once when they changed (a token
     * signed by a process that already uses a newer key), else answers null.
     */
    verifying(name: InstanceKeyName): { get(): Promise<readonly Buffer[]>; reload(): Promise<readonly Buffer[] | null> } {
      return {
        get: async () => (await keySet(name)).keys,
        reload: async () => {
          const before = sets.get(name);
          const after = await check(name);
          return before && after.revision === before.revision ? null : after.keys;
        },
      };
    },

    /**
     * Replaces a key with a fresh one and keeps the replaced key as the previous one (dropping any older).
     * This process uses the new key at once; every other one within a second (see `get`).
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
      rotations.set(name, (rotations.get(name) ?? 0) + 1);
      checking.delete(name);
      sets.delete(name);
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
