import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RegionFile } from './catalog.schema.js';
import { CATALOG_DIR, loadCatalog } from './catalog.js';

// Issue 14, regions NY OH OK OR PA RI SC SD: the locality and family rules the loader does not check.
const CODES = ['NY', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD'];
const fileText = (code: string) => readFileSync(path.join(CATALOG_DIR, 'regions', `${code}.yaml`), 'utf8');
const file = (code: string) => parse(fileText(code)) as RegionFile;

type Criteria = RegionFile['requirements'][number]['applies_when'];
const localitiesIn = (criteria: Criteria): string[] => [
  ...(criteria.in_locality ? [criteria.in_locality] : []),
  ...(criteria.any ?? []).flatMap((branch) => localitiesIn(branch as Criteria)),
];

describe('catalog regions NY OH OK OR PA RI SC SD', () => {
  it('names only localities its own file declares, and declares none it does not use', () => {
    for (const code of CODES) {
      const region = file(code);
      const declared = (region.localities ?? []).map((l) => l.id);
      const used = region.requirements.flatMap((r) => localitiesIn(r.applies_when));
      for (const id of used) expect(declared, `${code}: ${id}`).toContain(id);
      for (const id of declared) expect(used, `${code}: ${id} is declared but unused`).toContain(id);
    }
  });

  it('plans the taxes only some employers owe by locality, not for every employer of the state', () => {
    const byLocality = new Map(
      CODES.flatMap((code) => file(code).requirements.map((r) => [r.id, localitiesIn(r.applies_when)] as const)),
    );
    const local = {
      'ny-mctmt': 'ny-mctd',
      'ny-nyc-unincorporated-business-tax': 'ny-new-york-city',
      'or-trimet-transit-payroll-tax': 'or-trimet-district',
      'or-lane-transit-payroll-tax': 'or-lane-transit-district',
      'or-portland-multnomah-business-tax': 'or-portland-multnomah',
      'pa-philadelphia-wage-tax': 'pa-philadelphia',
      'pa-philadelphia-birt': 'pa-philadelphia',
      'pa-pittsburgh-payroll-expense-tax': 'pa-pittsburgh',
    };
    for (const [id, locality] of Object.entries(local)) expect(byLocality.get(id), id).toEqual([locality]);
  });

  it('has a sales tax permit and a posters requirement in each region, except Oregon which has no sales tax', () => {
    const catalog = loadCatalog();
    for (const code of CODES) {
      const families = new Set(catalog.regions.get(code)!.requirements.map((r) => r.family));
      expect(families.has('posters'), code).toBe(true);
      expect(families.has('sales-tax-permit'), code).toBe(code !== 'OR');
    }
    expect(fileText('OR')).toMatch(/^# No statewide sales tax: /m);
  });
});
