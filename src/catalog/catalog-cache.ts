import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { parse as parseYaml } from 'yaml';
import { packagePath } from '../lib/package-root.js';
import { FamilyFileSchema, QuestionsFileSchema, RegionFileSchema } from './catalog.schema.js';
import { HandbookQuestionsFileSchema, PolicyFileSchema } from './handbook.schema.js';

/**
 * Parsing the catalog's YAML and checking it against its schema were most of a start's work. The build
 * (`npm run build`) stores every catalog file's parsed content as JSON, keyed by the SHA-256 of its text,
 * once the content has passed its file's schema, and notes which schema that was (a digest of the schema
 * itself). At start a file whose text still has that hash is taken from the cache, and its schema check
 * is skipped while the schema is the same; any other file (an edited catalog, a test fixture, a changed
 * schema) is parsed and checked as before. The cache is only ever a shortcut.
 */
export const CATALOG_CACHE_FILE = packagePath('dist', 'catalog-cache.json');

/** A cached file: its parsed content as JSON text (parsed at each use: every load gets its own objects) and the digest of the schema it passed. */
interface CacheEntry {
  json: string;
  schema: string;
}

/** SHA-256 of a file's text → its entry. */
export type CatalogCache = Record<string, CacheEntry>;
let shared: CatalogCache | null = null;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

const schemaDigests = new WeakMap<TSchema, string>();
/** Identifies a schema by its content, so a cache written for another version of it is not trusted. */
export function schemaDigest(schema: TSchema): string {
  let digest = schemaDigests.get(schema);
  if (digest === undefined) schemaDigests.set(schema, (digest = sha256(JSON.stringify(schema))));
  return digest;
}

/**
 * The parsed YAML text, from the build's cache when the text is unchanged. `checked` is true when the
 * content is known to pass `schema` (it passed it at build time), so the caller need not check it again.
 */
export function parseCatalogYaml(text: string, schema: TSchema, cache: CatalogCache = (shared ??= readCache())): { data: unknown; checked: boolean } {
  const hash = sha256(text);
  const entry = Object.hasOwn(cache, hash) ? cache[hash] : undefined;
  if (!entry) return { data: parseYaml(text), checked: false };
  return { data: JSON.parse(entry.json), checked: entry.schema === schemaDigest(schema) };
}

function readCache(): CatalogCache {
  try {
    return JSON.parse(readFileSync(CATALOG_CACHE_FILE, 'utf8')) as CatalogCache;
  } catch {
    return {};
  }
}

/** The schema a catalog file must pass, by its place: the handbook's files (catalog/handbook/) or the requirements'. */
export function schemaForFile(file: string): TSchema {
  const name = path.basename(file);
  const parent = path.basename(path.dirname(file));
  const grandparent = path.basename(path.dirname(path.dirname(file)));
  // By the catalog's own layout only: the folders above it (a checkout named `handbook`) say nothing.
  if (parent === 'handbook' && name === 'questions.yaml') return HandbookQuestionsFileSchema;
  if (parent === 'policies' && grandparent === 'handbook') return PolicyFileSchema;
  if (parent === 'regions') return RegionFileSchema;
  if (grandparent === 'families' && !['questions.yaml', 'federal.yaml'].includes(name)) return FamilyFileSchema;
  return name === 'questions.yaml' ? QuestionsFileSchema : RegionFileSchema;
}

/** Cache entries for these files: those whose content passes its schema (any other is left to the loader to report). */
export function buildCatalogCache(files: string[]): CatalogCache {
  const entries: CatalogCache = {};
  const checkers = new Map<TSchema, ReturnType<typeof Compile>>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const data: unknown = parseYaml(text);
    const schema = schemaForFile(file);
    if (!checkers.has(schema)) checkers.set(schema, Compile(schema));
    if (checkers.get(schema)!.Check(data)) entries[sha256(text)] = { json: JSON.stringify(data), schema: schemaDigest(schema) };
  }
  return entries;
}

/** Writes the cache for every YAML file of the catalog directory; returns how many files it holds. */
export function writeCatalogCache(dir = packagePath('catalog')): number {
  const yamlIn = (sub: string) => readdirSync(path.join(dir, sub)).filter((f) => f.endsWith('.yaml')).map((f) => path.join(dir, sub, f));
  const families = existsSync(path.join(dir, 'families')) ? readdirSync(path.join(dir, 'families')).sort().flatMap((family) => yamlIn(path.join('families', family))) : [];
  const files = [path.join(dir, 'questions.yaml'), path.join(dir, 'federal.yaml'), ...yamlIn('regions'), ...families, path.join(dir, 'handbook', 'questions.yaml'), ...yamlIn(path.join('handbook', 'policies'))];
  const entries = buildCatalogCache(files);
  writeFileSync(CATALOG_CACHE_FILE, JSON.stringify(entries));
  return Object.keys(entries).length;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`catalog cache: ${writeCatalogCache()} files in ${CATALOG_CACHE_FILE}\n`);
}
