import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PlatformsService } from '../platforms/contract.js';

/** Name of the file in the data directory that keeps the demo API key (mode 0600). */
export const DEMO_KEY_FILE = 'demo-api-key';

export interface DemoKeyOptions {
  /** Where the key is kept: `<data dir>/demo-api-key`. */
  file: string;
  /** true: print the kept key again when it still works (`serve --demo`); false: always a fresh one (`statehouse demo`). */
  reuse: boolean;
}

/**
 * The demo platform's API key. The database keeps only its hash, so to print the same key at every
 * `npm start` the key itself is kept in a file of the data directory, readable by its owner only.
 * A kept key that no longer authenticates the demo platform (revoked, another database) is replaced.
 * A fresh key revokes the demo platform's other keys: their secrets were only ever printed.
 */
export async function demoApiKey(platforms: PlatformsService, platformId: string, options: DemoKeyOptions | undefined): Promise<string> {
  if (options?.reuse) {
    const kept = await readKept(options.file);
    if (
      kept &&
      (await platforms.authenticate(kept).then(
        (p) => p.platformId === platformId,
        () => false,
      ))
    )
      return kept;
  }
  const old = await platforms.listKeys(platformId);
  const issued = await platforms.rotateKey(platformId);
  for (const key of old) if (!key.revoked_at) await platforms.revokeKey(key.id);
  if (options) await keep(options.file, issued.key);
  return issued.key;
}

/** Keeps the key of a newly created demo platform. */
export async function keepDemoApiKey(options: DemoKeyOptions | undefined, key: string): Promise<void> {
  if (options) await keep(options.file, key);
}

async function readKept(file: string): Promise<string | null> {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  const key = text?.trim();
  return key ? key : null;
}

/** Written to a temporary file first and renamed, so a crash never leaves half a key. */
async function keep(file: string, key: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(temporary, `${key}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
}
