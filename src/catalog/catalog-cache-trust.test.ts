import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildCatalogCache, parseCatalogYaml, schemaDigest, schemaForFile } from './catalog-cache.js';
import { QuestionsFileSchema, RegionFileSchema } from './catalog.schema.js';

/** The build's catalog cache vouches for a file's schema check only for the same text and the same schema. */
describe('the catalog cache: trusted by content hash and schema', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-cache-'));
  cpSync(fileURLToPath(new URL('../../test/fixtures/catalog', import.meta.url)), dir, { recursive: true });
  const broken = path.join(dir, 'regions', 'CO.yaml');
  writeFileSync(broken, readFileSync(broken, 'utf8').replace('priority: high', 'priority: urgent'));
  const files = [path.join(dir, 'questions.yaml'), ...readdirSync(path.join(dir, 'regions')).map((f) => path.join(dir, 'regions', f))];
  const cache = buildCatalogCache(files);

  it('holds only the files that passed their schema, noting which schema', () => {
    expect(Object.keys(cache)).toHaveLength(files.length - 1);
    expect(Object.values(cache).map((entry) => entry.schema).sort()).toEqual(
      [schemaDigest(QuestionsFileSchema), ...Array<string>(files.length - 2).fill(schemaDigest(RegionFileSchema))].sort());
  });

  it('skips the check for a cached text under the same schema, and only then', () => {
    for (const file of files.filter((f) => f !== broken)) {
      const text = readFileSync(file, 'utf8');
      expect(parseCatalogYaml(text, schemaForFile(file), cache)).toEqual({ data: parseYaml(text), checked: true });
    }
    const region = readFileSync(files[1]!, 'utf8');
    // Another schema (e.g. the catalog format changed since the build): the content is still served, but checked again.
    const changed = Type.Object({ region: Type.String() });
    expect(parseCatalogYaml(region, changed, cache)).toEqual({ data: parseYaml(region), checked: false });
    // Any edit of the text misses the cache.
    expect(parseCatalogYaml(`${region}\n# edited\n`, RegionFileSchema, cache)).toEqual({ data: parseYaml(region), checked: false });
    expect(parseCatalogYaml(readFileSync(broken, 'utf8'), RegionFileSchema, cache).checked).toBe(false);
  });
});

describe('the schema of a catalog file', () => {
  it('follows the catalog layout, whatever the folders above the catalog are named', () => {
    for (const root of ['/srv/statehouse', '/work/handbook', '/work/families', '/work/handbook/policies']) {
      expect(schemaForFile(`${root}/catalog/questions.yaml`)).toBe(QuestionsFileSchema);
      expect(schemaForFile(`${root}/catalog/regions/CA.yaml`)).toBe(RegionFileSchema);
      expect(schemaForFile(`${root}/catalog/federal.yaml`)).toBe(RegionFileSchema);
      expect(schemaForFile(`${root}/catalog/handbook/questions.yaml`)).not.toBe(QuestionsFileSchema);
    }
  });
});
