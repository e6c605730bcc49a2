import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput, TaskState } from './engine.types.js';

/**
 * Issue 24, employer families planned from the real catalog: Form I-9 for every employer (federal), Form 1099-NEC
 * for a business that pays contractors (federal, January 31), and the states' E-Verify mandates on both sides of
 * each statute's employee threshold. `~` marks an estimated date.
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const answer = (definitionId: string, regionCode: string, value: unknown): TaskState => ({
  kind: 'question',
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-20',
  answer: value,
});
const lines = (input: EngineInput) =>
  planTasks(catalog, input)
    .map(
      (t) =>
        `${t.regionCode} ${t.kind === 'question' ? '?' : ''}${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`,
    )
    .sort();
const FAMILY_IDS = /us-uscis-form-i9|us-irs-form-1099-nec|pays-contractors|e-verify|work-authorization-verification/;
const ofFamilies = (input: EngineInput) => lines(input).filter((l) => FAMILY_IDS.test(l));

/** A corporation incorporated in `home` with one location; the contractors question answered when given. */
const business = (home: string, location: { regionCode: string; employees: number }, paysContractors?: boolean): EngineInput => ({
  today,
  tasks: paysContractors === undefined ? [] : [answer('pays-contractors', home, paysContractors)],
  entity: {
    entityType: 'c_corp',
    taxClassification: 'corp',
    incorporationRegion: home,
    incorporationDate: '2020-03-10',
    accountingYearEnd: 12,
    onboardedOn: '2026-11-01',
  },
  locations: [
    { regionCode: location.regionCode, hasEmployees: location.employees > 0, hasPhysicalLocation: true, employeeCount: location.employees },
  ],
});

describe('Form I-9 (employment-eligibility, federal)', () => {
  const ofFamilies = (input: EngineInput) => lines(input).filter((l) => l.includes('us-uscis-form-i9'));
  it('is a task for any employer, once, in the federal anchor, whatever the state', () => {
    expect(ofFamilies(business('DE', { regionCode: 'NY', employees: 1 }, false))).toEqual(['DE us-uscis-form-i9 -']);
    expect(ofFamilies(business('TX', { regionCode: 'TX', employees: 3 }, false))).toEqual(['TX us-uscis-form-i9 -']);
  });

  it('is no task for a business without employees', () => {
    expect(ofFamilies(business('DE', { regionCode: 'NY', employees: 0 }, false))).toEqual([]);
  });
});

describe('Form 1099-NEC (information-return, federal)', () => {
  it('asks once, in the federal anchor, whether the business pays contractors', () => {
    expect(ofFamilies(business('DE', { regionCode: 'NY', employees: 0 }))).toEqual(['DE ?pays-contractors -']);
  });

  it('is due January 31 when the business pays contractors, and no task when it does not', () => {
    expect(ofFamilies(business('DE', { regionCode: 'NY', employees: 0 }, true))).toEqual([
      'DE ?pays-contractors -',
      'DE us-irs-form-1099-nec 2027-01-31',
    ]);
    expect(ofFamilies(business('DE', { regionCode: 'NY', employees: 0 }, false))).toEqual(['DE ?pays-contractors -']);
  });

  it('falls due every January 31, for the payments of the year before, from the year after incorporation', () => {
    // Incorporated 2026-01-15: the 2026 payments are reported by 2027-01-31 (not 2026-01-31, before any payment).
    const young = business('DE', { regionCode: 'NY', employees: 0 }, true);
    young.entity.incorporationDate = '2026-01-15';
    expect(ofFamilies(young)).toContain('DE us-irs-form-1099-nec 2027-01-31');
    // After that date, the next one is a year later.
    expect(ofFamilies({ ...business('DE', { regionCode: 'NY', employees: 0 }, true), today: '2027-02-15' })).toContain(
      'DE us-irs-form-1099-nec 2028-01-31',
    );
  });
});

describe('state E-Verify mandates (e-verify)', () => {
  /** The E-Verify task of a business incorporated and employing `employees` people in `code` (nothing else). */
  const everify = (code: string, employees: number) =>
    ofFamilies(business(code, { regionCode: code, employees }, false)).filter(
      (l) => !l.includes('us-uscis-form-i9') && !l.includes('pays-contractors'),
    );

  it('applies to every employer in Alabama, Arizona, Mississippi and South Carolina, and to none without employees', () => {
    for (const code of ['AL', 'AZ', 'MS', 'SC']) {
      expect(everify(code, 1), code).toEqual([`${code} ${code.toLowerCase()}-e-verify -`]);
      expect(everify(code, 0), code).toEqual([]);
    }
  });

  it("follows each statute's threshold: Georgia more than 10, North Carolina and Florida 25, Tennessee 35, Utah 150", () => {
    for (const [code, threshold] of [
      ['GA', 11],
      ['NC', 25],
      ['FL', 25],
      ['TN', 35],
      ['UT', 150],
    ] as const) {
      expect(everify(code, threshold - 1), `${code} below`).toEqual([]);
      expect(everify(code, threshold), `${code} at`).toEqual([`${code} ${code.toLowerCase()}-e-verify -`]);
    }
  });

  it('asks the number of employees before deciding a threshold state', () => {
    const input = business('NC', { regionCode: 'NC', employees: 1 }, false);
    input.locations[0]!.employeeCount = null;
    expect(lines(input).some((l) => l.includes('nc-e-verify'))).toBe(false);
    expect(lines(input)).toContain('NC ?employee-count -');
  });

  it("plans Louisiana's E-Verify-or-documents verification for any Louisiana employer", () => {
    expect(everify('LA', 2)).toEqual(['LA la-work-authorization-verification -']);
  });

  it('is no task where only public employers or contractors must use E-Verify (Texas, Virginia) or nothing requires it (California)', () => {
    for (const code of ['TX', 'VA', 'CA']) expect(everify(code, 200), code).toEqual([]);
    expect(catalog.familyCells.get('e-verify')!.get('TX')!.notApplicable!.reason).toMatch(/only of public employers/);
  });
});
