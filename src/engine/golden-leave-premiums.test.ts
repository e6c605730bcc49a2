import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Disability insurance and paid family and medical leave premiums (families disability-insurance and paid-leave),
 * planned from the real catalog: the coverage or registration once, and the program's own quarterly report where
 * it has one (catalog/families/paid-leave). Dates computed by hand from each program's rule.
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const FAMILIES = ['disability-insurance', 'paid-leave'];
const byRegion = [...catalog.regions.values()].flatMap((r) => r.requirements.map((definition) => ({ region: r.region.code, definition })));
const LEAVE = new Set(byRegion.filter((r) => FAMILIES.includes(r.definition.family)).map((r) => r.definition.id));
const leaveLines = (input: EngineInput) =>
  planTasks(catalog, input)
    .filter((t) => t.kind === 'requirement' && LEAVE.has(t.definitionId))
    .map((t) => `${t.regionCode} ${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`)
    .sort();
// A business formed at home in 2020, so its registration date (the start of quarterly filings) is known.
const homeEmployer = (region: string, employeeCount: number, entityType = 'llc'): EngineInput => ({
  today,
  tasks: [
    {
      kind: 'question',
      definitionId: 'operations-start-date',
      regionCode: region,
      status: 'done',
      completedOn: '2026-11-10',
      answer: '2026-11-10',
    },
  ],
  entity: {
    entityType,
    taxClassification: entityType === 'llc' ? 'disregarded' : 'corp',
    incorporationRegion: region,
    incorporationDate: '2020-03-10',
    accountingYearEnd: 12,
    onboardedOn: '2026-11-01',
  },
  locations: [{ regionCode: region, hasEmployees: employeeCount > 0, hasPhysicalLocation: true, employeeCount }],
});
// The quarters whose report falls in the planning window (today to a year ahead), due the last day of the month after.
const monthAfterQuarter = (id: string, region: string) =>
  ['2027-01-31', '2027-04-30', '2027-07-31', '2027-10-31'].map((d) => `${region} ${id} ${d}`);

describe('disability insurance and paid leave premiums', () => {
  it('a New York employer gets disability benefits (DBL) and Paid Family Leave coverage, 30 days after its first payroll', () => {
    expect(leaveLines(homeEmployer('NY', 4, 'c_corp'))).toEqual([
      'NY ny-disability-benefits 2026-12-10',
      'NY ny-paid-family-leave 2026-12-10',
    ]);
  });

  it('a Minnesota employer registers for Paid Leave and pays its premiums every quarter', () => {
    expect(leaveLines(homeEmployer('MN', 3))).toEqual([
      'MN mn-paid-leave -',
      ...monthAfterQuarter('mn-paid-leave-quarterly-premiums', 'MN'),
    ]);
  });

  it('a Texas employer, and a Minnesota business without employees, get none', () => {
    expect(leaveLines(homeEmployer('TX', 25, 'c_corp'))).toEqual([]);
    expect(leaveLines(homeEmployer('MN', 0))).toEqual([]);
  });

  it('Washington: Paid Leave set up once, then one quarterly report for Paid Leave and WA Cares', () => {
    expect(leaveLines(homeEmployer('WA', 2))).toEqual([
      'WA wa-paid-family-medical-leave -',
      ...monthAfterQuarter('wa-paid-leave-quarterly-report', 'WA'),
    ]);
  });

  it('Connecticut states its contributions due on the last day of each quarter', () => {
    expect(leaveLines(homeEmployer('CT', 2))).toEqual([
      'CT ct-paid-leave -',
      'CT ct-paid-leave-quarterly-contributions 2026-12-31',
      'CT ct-paid-leave-quarterly-contributions 2027-03-31',
      'CT ct-paid-leave-quarterly-contributions 2027-06-30',
      'CT ct-paid-leave-quarterly-contributions 2027-09-30',
    ]);
  });

  it("Massachusetts, Colorado, Maine and DC: the program's own quarterly return, by the end of the month after the quarter", () => {
    expect(leaveLines(homeEmployer('MA', 1))).toEqual([
      'MA ma-paid-family-medical-leave -',
      ...monthAfterQuarter('ma-pfml-quarterly-return', 'MA'),
    ]);
    expect(leaveLines(homeEmployer('CO', 1))).toEqual(['CO co-famli -', ...monthAfterQuarter('co-famli-quarterly-premiums', 'CO')]);
    expect(leaveLines(homeEmployer('ME', 1))).toEqual([
      'ME me-paid-family-medical-leave -',
      ...monthAfterQuarter('me-pfml-quarterly-report', 'ME'),
    ]);
    expect(leaveLines(homeEmployer('DC', 1, 'c_corp'))).toEqual([
      'DC dc-universal-paid-leave -',
      ...monthAfterQuarter('dc-universal-paid-leave-quarterly-report', 'DC'),
    ]);
  });

  it('Delaware Paid Leave from 10 employees in Delaware, not below', () => {
    expect(leaveLines(homeEmployer('DE', 9, 'c_corp'))).toEqual([]);
    expect(leaveLines(homeEmployer('DE', 10, 'c_corp'))).toEqual([
      'DE de-paid-leave -',
      ...monthAfterQuarter('de-paid-leave-quarterly-report', 'DE'),
    ]);
  });

  it('California, New Jersey, Rhode Island and Hawaii: the payroll setup only; their premiums are reported on the payroll tax returns', () => {
    expect(leaveLines(homeEmployer('CA', 5, 'c_corp'))).toEqual(['CA ca-state-disability-insurance 2026-11-25']); // 15 days after the first wages
    expect(leaveLines(homeEmployer('NJ', 5))).toEqual(['NJ nj-family-leave-insurance -', 'NJ nj-temporary-disability-insurance -']);
    expect(leaveLines(homeEmployer('RI', 5))).toEqual(['RI ri-temporary-disability-insurance -']);
    expect(leaveLines(homeEmployer('HI', 5))).toEqual(['HI hi-temporary-disability-insurance -']);
  });

  it("a foreign employer's quarterly reports are estimated until its registration date is known", () => {
    const input: EngineInput = {
      today,
      tasks: [],
      entity: {
        entityType: 'c_corp',
        taxClassification: 'corp',
        incorporationRegion: 'DE',
        incorporationDate: '2020-03-10',
        accountingYearEnd: 12,
        onboardedOn: '2026-11-01',
      },
      locations: [{ regionCode: 'MA', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 3 }],
    };
    expect(leaveLines(input)).toEqual([
      'MA ma-paid-family-medical-leave -',
      ...monthAfterQuarter('ma-pfml-quarterly-return', 'MA').map((l) => `${l} ~`),
    ]);
  });

  it('gives every region a cell for both families: requirements, not applicable, or covered by another requirement', () => {
    for (const family of FAMILIES) {
      const cells = catalog.familyCells.get(family) ?? new Map();
      for (const code of catalog.regions.keys()) {
        const present = byRegion.some((r) => r.region === code && r.definition.family === family);
        const cell = cells.get(code);
        expect(present || cell?.notApplicable !== undefined || cell?.coveredBy !== undefined, `${family} ${code}`).toBe(true);
      }
      expect(catalog.regions.size).toBe(51);
    }
    // Paid sick leave is not this premium cell: Illinois' paid leave law is in its region file, its disability cell says why.
    expect(catalog.familyCells.get('disability-insurance')?.get('IL')?.notApplicable?.reason).toMatch(/paid sick leave, not insurance/);
    expect(catalog.familyCells.get('paid-leave')?.get('CA')?.coveredBy?.requirements).toEqual(['ca-state-disability-insurance']);
    expect(catalog.familyCells.get('paid-leave')?.get('IL')?.notApplicable?.reason).toMatch(
      /Paid Leave for All Workers Act is paid leave the employer grants directly/,
    );
    expect(catalog.requirement('il-paid-leave-for-all-workers')?.definition.family).toBe('other');
  });
});
