import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';

// Regions of the issue 14 verification pass handled together (MT NC ND NE NH NJ NM NV): the shape rules their data
// relies on, so an edit that breaks one is caught here before the consistency check runs.
const catalog = loadCatalog();
const CODES = ['MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV'] as const;
const region = (code: string) => {
  const file = catalog.regions.get(code);
  if (!file) throw new Error(`no region ${code}`);
  return file;
};
const requirement = (code: string, id: string) => {
  const found = region(code).requirements.find((r) => r.id === id);
  if (!found) throw new Error(`no requirement ${id}`);
  return found;
};

describe('catalog regions MT NC ND NE NH NJ NM NV', () => {
  it('records a verification for every confirmed requirement and explains every uncertain one', () => {
    for (const code of CODES) {
      for (const r of region(code).requirements) {
        if (r.confidence === 'confirmed') expect(r.verification?.length ?? 0, r.id).toBeGreaterThan(0);
        else expect(r.notes ?? '', r.id).not.toBe('');
      }
    }
  });

  it('plans municipal taxes only for businesses in the locality, never for every employer of the state', () => {
    for (const code of CODES) {
      // The region's localities as loaded: its region file's and its family files' (catalog/families/<family>/<CODE>.yaml).
      const localities = region(code).localities;
      for (const r of region(code).requirements.filter((q) => q.family === 'local-payroll-tax' || q.family === 'local-business-tax')) {
        expect(r.applies_when.in_locality, r.id).toBeDefined();
        expect(localities.has(r.applies_when.in_locality ?? ''), r.id).toBe(true);
      }
    }
    expect(requirement('NJ', 'nj-newark-payroll-tax').applies_when.in_locality).toBe('nj-newark');
    expect(requirement('NJ', 'nj-jersey-city-payroll-tax').applies_when.in_locality).toBe('nj-jersey-city');
    expect(requirement('NV', 'nv-clark-county-business-license').applies_when.in_locality).toBe('nv-clark-county-unincorporated');
  });

  it('schedules the quarterly returns every quarter, due the last day of the month after it', () => {
    for (const [code, id] of [['NJ', 'nj-jersey-city-payroll-tax'], ['NM', 'nm-workers-compensation-fee'], ['NV', 'nv-modified-business-tax']] as const) {
      expect(requirement(code, id).schedule, id).toEqual({ every: '1q', due: { rule: 'quarter_end', offset_months: 1, day: 'last' } });
    }
  });

  it('has a seller registration in every region with a statewide sales tax and none in Montana or New Hampshire', () => {
    for (const code of CODES) {
      const has = region(code).requirements.some((r) => r.family === 'sales-tax-permit');
      expect(has, code).toBe(code !== 'MT' && code !== 'NH');
    }
  });

  it('has a workplace posters requirement for employers in every region', () => {
    for (const code of CODES) {
      const posters = region(code).requirements.filter((r) => r.family === 'posters');
      expect(posters.length, code).toBe(1);
      expect(posters[0]?.applies_when.has_employees, code).toBe(true);
    }
  });
});
