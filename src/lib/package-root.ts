import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding Statehouse's package.json, where catalog/ and public/ live. Found by
 * walking up from this module, so a file's data is found the same way whether the code runs
 * from src/ (tsx, tests) or compiled from dist/src/ (npm start, the binary).
 */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
