import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG_DIR, readChecked } from './catalog.js';
import type { Criteria } from './criteria.schema.js';
import type { RegionFile, RequirementDefinition } from './catalog.schema.js';

/** The regions of issue 14's verification pass, part r6 (Tennessee to Wyoming). */
const REGIONS = ['TN', 'TX', 'UT', 'VA', 'VT', 'WA', 'WI', 'WV', 'WY'] as const;
/** City taxes that only businesses in that city owe: each must ask about its city, never apply state-wide. */
const CITY_TAXES: Record<string, string> = {
  'wa-seattle-business-license-tax': 'wa-seattle',
  'wa-seattle-payroll-expense-tax': 'wa-seattle',
  'wv-charleston-city-service-fee': 'wv-charleston',
  'wv-huntington-city-service-fee': 'wv-huntington',
};

const files = new Map(REGIONS.map((code) => [code, readChecked<RegionFile>(path.join(CATALOG_DIR, 'regions', `${code}.yaml`))]));

function localitiesNamed(criteria: Criteria): string[] {
  return [...(criteria.in_locality ? [criteria.in_locality] : []), ...(criteria.any ?? []).flatMap(localitiesNamed)];
}

function family(code: string, name: RequirementDefinition['family']): RequirementDefinition[] {
  return files.get(code as (typeof REGIONS)[number])!.requirements.filter((r) => r.family === name);
}

describe('catalog, Tennessee to Wyoming', () => {
  it('names only localities its own file declares, with ids of the region', () => {
    for (const [code, file] of files) {
      const declared = new Set((file.localities ?? []).map((l) => l.id));
      for (const id of declared) expect(id.startsWith(`${code.toLowerCase()}-`), id).toBe(true);
      for (const requirement of file.requirements) {
        for (const locality of localitiesNamed(requirement.applies_when)) expect(declared.has(locality), `${requirement.id} → ${locality}`).toBe(true);
      }
    }
  });

  it('plans a city tax only for businesses in that city', () => {
    for (const [id, locality] of Object.entries(CITY_TAXES)) {
      const code = id.slice(0, 2).toUpperCase() as (typeof REGIONS)[number];
      const requirement = files.get(code)!.requirements.find((r) => r.id === id);
      expect(requirement?.applies_when.in_locality, id).toBe(locality);
    }
  });

  it('gives every region a seller registration for premises, workplace posters for employers and workers’ compensation', () => {
    for (const code of REGIONS) {
      const permits = family(code, 'sales-tax-permit');
      // Issue 24: premises are one branch of the permit's nexus (with employees and sales into the state).
      expect(permits.map((p) => [p.applies_when.any?.some((branch) => branch.has_physical_location === true), p.category]), code).toEqual([[true, 'sales-tax']]);
      const posters = family(code, 'posters');
      expect(posters.map((p) => p.applies_when.has_employees), code).toEqual([true]);
      expect(posters[0]?.tags, code).toEqual(expect.arrayContaining(['notices', 'employee-requirement']));
      expect(family(code, 'workers-compensation').length, `${code} workers-compensation`).toBeGreaterThan(0);
    }
  });

  it('keeps every confirmed requirement backed by a page read in the verification pass, and every uncertain one explained', () => {
    for (const [code, file] of files) {
      for (const r of file.requirements) {
        if (r.confidence === 'confirmed') expect(r.verification?.length ?? 0, `${code} ${r.id}`).toBeGreaterThan(0);
        else expect(r.notes ?? '', `${code} ${r.id}`).not.toBe('');
      }
      const uncertain = file.requirements.filter((r) => r.confidence === 'uncertain').length;
      expect(uncertain / file.requirements.length, `${code} uncertain share`).toBeLessThanOrEqual(0.2);
    }
  });

  it('counts workers’ compensation thresholds in employees where the law does (Tennessee 5, Virginia 3)', () => {
    expect(family('TN', 'workers-compensation').map((r) => r.applies_when.employee_count_gte)).toEqual([5]);
    expect(family('VA', 'workers-compensation').map((r) => r.applies_when.employee_count_gte)).toEqual([3]);
  });
});
