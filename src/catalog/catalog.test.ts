import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { coverageProblems } from './coverage.js';
import { CatalogError, REGIONS } from './regions.js';

const catalog = loadCatalog();
const NO_WAGE_TAX = ['AK', 'FL', 'NH', 'NV', 'SD', 'TN', 'TX', 'WA', 'WY'];

describe('the compliance catalog', () => {
  it('covers all 51 regions with every family the rules require', () => {
    expect(catalog.regions.size).toBe(51);
    expect(REGIONS.flatMap((r) => coverageProblems(catalog, r.code))).toEqual([]);
  });

  it('withholds state income tax exactly where the state taxes wages', () => {
    const without = [...catalog.regions.values()].filter((r) => !r.wageIncomeTax).map((r) => r.region.code).sort();
    expect(without).toEqual(NO_WAGE_TAX);
  });

  it('gives every requirement official https sources and an agency of its own region', () => {
    for (const region of catalog.regions.values()) {
      for (const requirement of region.requirements) {
        expect(requirement.sources.length).toBeGreaterThan(0);
        expect(requirement.sources.every((s) => s.startsWith('https://'))).toBe(true);
        expect(region.agencies.has(requirement.agency)).toBe(true);
        if (requirement.confidence === 'uncertain') expect(requirement.notes, requirement.id).toBeTruthy();
      }
    }
  });

  it('is frozen', () => {
    const ca = catalog.regions.get('CA')!.requirements[0]!;
    expect(Object.isFrozen(ca)).toBe(true);
    expect(() => {
      (ca as { title: string }).title = 'changed';
    }).toThrow();
  });

  it('fails loudly on a broken file, naming the file and the field', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-'));
    cpSync(fileURLToPath(new URL('../../test/fixtures/catalog', import.meta.url)), dir, { recursive: true });
    const file = path.join(dir, 'regions', 'CO.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('priority: high', 'priority: urgent'));
    expect(() => loadCatalog(dir)).toThrow(CatalogError);
    expect(() => loadCatalog(dir)).toThrow(new RegExp(`${file.replace(/[/.]/g, '\\$&')}: /requirements/0/priority`));

    writeFileSync(file, readFileSync(file, 'utf8').replace('priority: urgent', 'priority: high').replace('unlocks: [co-initial-report]', 'unlocks: [co-missing]'));
    expect(() => loadCatalog(dir)).toThrow(/\/requirements\/0\/unlocks\/0: unknown requirement 'co-missing'/);
  });
});
