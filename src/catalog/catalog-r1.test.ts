import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG_DIR, readChecked } from './catalog.js';
import type { Criteria } from './criteria.schema.js';
import type { RegionFile } from './catalog.schema.js';

/** Issue 14, regions AK AL AR AZ CA CO CT DC DE: the local taxes and the new families as data (scripts/check-catalog.ts checks the rest). */
const CODES = ['AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE'] as const;
const file = (code: string) => readChecked<RegionFile>(path.join(CATALOG_DIR, 'regions', `${code}.yaml`));
const localityOf = (criteria: Criteria): string | undefined => criteria.in_locality ?? criteria.any?.map(localityOf).find(Boolean);

describe('catalog regions AK to DE', () => {
  it('ties every city or county tax to a locality the region declares, so it is never planned state-wide', () => {
    for (const code of CODES) {
      const region = file(code);
      const declared = new Set((region.localities ?? []).map((l) => l.id));
      for (const requirement of region.requirements.filter((r) => r.family === 'local-payroll-tax' || r.family === 'local-business-tax')) {
        const locality = localityOf(requirement.applies_when);
        expect(locality, requirement.id).toBeDefined();
        expect(declared.has(locality!), `${requirement.id}: ${locality}`).toBe(true);
      }
      for (const id of declared) expect(region.requirements.some((r) => localityOf(r.applies_when) === id), `${code}: ${id} unused`).toBe(true);
    }
  });

  it('plans the local taxes the issue names for these regions', () => {
    const local = CODES.flatMap((code) => file(code).requirements.filter((r) => r.applies_when.in_locality).map((r) => r.applies_when.in_locality));
    expect(local.sort()).toEqual(['al-birmingham', 'ca-los-angeles', 'ca-san-francisco', 'co-denver', 'de-wilmington']);
  });

  it('registers for a sales tax permit where there is a statewide sales tax, for sellers of taxable goods with premises, employees or economic nexus', () => {
    for (const code of CODES) {
      const permits = file(code).requirements.filter((r) => r.family === 'sales-tax-permit');
      expect(permits.length, code).toBe(code === 'AK' || code === 'DE' ? 0 : 1);
      for (const permit of permits) {
        // Issue 24: the permit follows what the state taxes (goods at least) and nexus (premises, employees, or sales into the state).
        expect(permit.applies_when.sells, code).toContain('tangible_goods');
        expect(permit.applies_when.any, code).toEqual(expect.arrayContaining([{ has_physical_location: true }, { has_employees: true }]));
        expect(permit.applies_when.any?.some((branch) => typeof branch.annual_sales_gte === 'number'), code).toBe(true);
        expect(permit.tags).toEqual(['sales-tax']);
        expect(permit.category).toBe('sales-tax');
      }
    }
  });

  it('asks every employer to display the state posters', () => {
    for (const code of CODES) {
      const posters = file(code).requirements.filter((r) => r.family === 'posters');
      expect(posters.length, code).toBe(1);
      expect(posters[0]!.applies_when).toEqual({ has_employees: true });
      expect(posters[0]!.tags).toEqual(['notices', 'employee-requirement']);
    }
  });

  it('keeps a verification record of the page read for every confirmed requirement', () => {
    for (const code of CODES) {
      for (const requirement of file(code).requirements.filter((r) => r.confidence === 'confirmed')) {
        expect(requirement.verification?.length ?? 0, requirement.id).toBeGreaterThan(0);
      }
    }
  });
});
