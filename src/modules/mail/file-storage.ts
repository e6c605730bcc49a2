import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** What the store knows about a stored file: its content key (hex SHA-256 of the bytes) and size. */
export interface StoredFile {
  sha256: string;
  size: number;
}

/**
 * Content-addressed file storage for mail PDFs. `put` returns only once the bytes are durable, so a
 * caller may record the key right after. The local implementation below keeps files on disk; an
 * S3-compatible implementation would implement the same interface (key = object name, `put` resolving
 * after the PUT is acknowledged, `read` streaming a GET).
 */
export interface FileStorage {
  /** Stores the bytes (a no-op when the same content is already stored) and returns their key. */
  put(bytes: Buffer): Promise<StoredFile>;
  /** A stream of the stored bytes, or null when no file has this key. */
  read(sha256: string): Promise<{ stream: Readable; size: number } | null>;
  exists(sha256: string): Promise<boolean>;
  /** Every stored file with its last write, for garbage collection. */
  list(): AsyncIterable<{ sha256: string; writtenAt: Date }>;
  /** Removes a stored file (no-op when absent). Only garbage collection calls this. */
  remove(sha256: string): Promise<void>;
  /** Removes write leftovers (temporary files of interrupted writes) older than `before`; returns how many. */
  removeLeftovers(before: Date): Promise<number>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Files under `<rootDir>/sha256/<first 2 hex>/<hash>` (rootDir is `<data dir>/files` by default).
 * A write goes to a temporary file in the same directory, is fsynced, renamed into place and the
 * directory fsynced: a crash leaves either no file or the whole file, never a torn one.
 */
export function createLocalFileStorage(rootDir: string): FileStorage {
  const pathOf = (sha256: string) => {
    // Keys come from our database, but a path is built from them: never let one escape the root.
    if (!SHA256_HEX.test(sha256)) throw new Error(`Invalid file key '${sha256}'`);
    return path.join(rootDir, 'sha256', sha256.slice(0, 2), sha256);
  };

  async function sizeOf(file: string): Promise<number | null> {
    try {
      const info = await stat(file);
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async function fsyncDirectory(dir: string) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const target = pathOf(sha256);
      // Same content, same key: the file already there is these bytes (it was only ever renamed in whole).
      if ((await sizeOf(target)) === bytes.length) return { sha256, size: bytes.length };
      const dir = path.dirname(target);
      const created = await mkdir(dir, { recursive: true });
      const temp = path.join(dir, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } catch (error) {
        await handle.close();
        await unlink(temp).catch(() => {});
        throw error;
      }
      await handle.close();
      try {
        await rename(temp, target);
      } catch (error) {
        await unlink(temp).catch(() => {});
        throw error;
      }
      await fsyncDirectory(dir);
      // A directory made just now is itself an entry of its parent: make those entries durable too.
      if (created)
        for (let d = path.dirname(dir); d.length >= path.dirname(created).length && d !== path.dirname(d); d = path.dirname(d))
          await fsyncDirectory(d);
      return { sha256, size: bytes.length };
    },

    async read(sha256) {
      const file = pathOf(sha256);
      const size = await sizeOf(file);
      if (size === null) return null;
      return { stream: createReadStream(file), size };
    },

    exists: async (sha256) => (await sizeOf(pathOf(sha256))) !== null,

    async *list() {
      for (const dir of await entriesOf(path.join(rootDir, 'sha256'))) {
        for (const name of await entriesOf(path.join(rootDir, 'sha256', dir))) {
          if (!SHA256_HEX.test(name)) continue;
          const info = await stat(path.join(rootDir, 'sha256', dir, name)).catch(() => null);
          if (info?.isFile()) yield { sha256: name, writtenAt: info.mtime };
        }
      }
    },

    async remove(sha256) {
      await unlink(pathOf(sha256)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },

    async removeLeftovers(before) {
      let removed = 0;
      for (const dir of await entriesOf(path.join(rootDir, 'sha256'))) {
        for (const name of await entriesOf(path.join(rootDir, 'sha256', dir))) {
          if (!name.endsWith('.tmp')) continue;
          const file = path.join(rootDir, 'sha256', dir, name);
          const info = await stat(file).catch(() => null);
          if (
            info &&
            info.mtime < before &&
            (await unlink(file).then(
              () => true,
              () => false,
            ))
          )
            removed++;
        }
      }
      return removed;
    },
  };
}

async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
