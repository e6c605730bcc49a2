import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { packagePath } from '../lib/package-root.js';

/**
 * Parsing the catalog's YAML is most of a start's work (about a second on a quiet 2-core machine).
 * The build (`npm run build`) stores every catalog file's parsed content as JSON, keyed by the
 * SHA-256 of its text; at start a file whose text still has that hash is taken from the cache, any
 * other (an edited catalog, a test fixture) is parsed as before. The cache is only ever a shortcut.
 */
export const CATALOG_CACHE_FILE = packagePath('dist', 'catalog-cache.json');

/** SHA-256 of a file's text → its parsed content as JSON text (parsed at each use: every load gets its own objects). */
type Cache = Record<string, string>;
let cache: Cache | null = null;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The parsed YAML text, from the build's cache when the text is unchanged. */
export function parseCatalogYaml(text: string): unknown {
  cache ??= readCache();
  const hash = sha256(text);
  return Object.hasOwn(cache, hash) ? JSON.parse(cache[hash]!) : parseYaml(text);
}

function readCache(): Cache {
  try {
    return JSON.parse(readFileSync(CATALOG_CACHE_FILE, 'utf8')) as Cache;
  } catch {
    return {};
  }
}

/** Writes the cache for every YAML file of the catalog directory. */
export function writeCatalogCache(dir = packagePath('catalog')): number {
  const entries: Cache = {};
  const files = [path.join(dir, 'questions.yaml'), ...readdirSync(path.join(dir, 'regions')).filter((f) => f.endsWith('.yaml')).map((f) => path.join(dir, 'regions', f))];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    entries[sha256(text)] = JSON.stringify(parseYaml(text));
  }
  writeFileSync(CATALOG_CACHE_FILE, JSON.stringify(entries));
  return files.length;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`catalog cache: ${writeCatalogCache()} files in ${CATALOG_CACHE_FILE}\n`);
}
