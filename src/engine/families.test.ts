import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { REGIONS } from '../catalog/regions.js';
import { NO_STATE_SALES_TAX } from '../catalog/coverage.js';
import { catalogProblems } from './catalog-check.js';
import { planTasks } from './engine.js';
import type { EngineInput, PlannedTask } from './engine.types.js';

/**
 * The requirement families issue 14 added, planned from the real catalog: who gets a seller's permit, posters,
 * workers' compensation, a minimum tax, the federal filings — and that the catalog passes its consistency check.
 */
const catalog = loadCatalog();
const today = '2026-11-24';
const familyOf = (t: PlannedTask) => (t.kind === 'requirement' ? catalog.requirement(t.definitionId)?.definition.family : undefined);

const plan = (over: Partial<EngineInput['entity']>, locations: EngineInput['locations'], tasks: EngineInput['tasks'] = []) =>
  planTasks(catalog, {
    today,
    tasks,
    entity: {
      entityType: 'c_corp',
      taxClassification: 'corp',
      incorporationRegion: 'DE',
      incorporationDate: '2021-04-12',
      accountingYearEnd: 12,
      onboardedOn: '2026-11-01',
      ...over,
    },
    locations,
  });

/** Answered questions of the whole business (stored in the federal anchor, Delaware here). */
const answers = (given: Record<string, boolean>): EngineInput['tasks'] =>
  Object.entries(given).map(([definitionId, answer]) => ({
    kind: 'question',
    definitionId,
    regionCode: 'DE',
    status: 'done',
    completedOn: '2026-11-02',
    answer,
  }));

describe('the families added by issue 14, planned from the real catalog', () => {
  it('the catalog passes its own consistency check (scripts/check-catalog.ts)', () => {
    expect(
      catalogProblems(
        catalog,
        REGIONS.map((r) => r.code),
        { wholeCatalog: true },
      ),
    ).toEqual([]);
  });

  it("a seller's permit for a seller of goods wherever it has premises or employees, except in the states without a sales tax", () => {
    // Issue 24: the permit follows what the business sells and nexus; employees in a state are nexus too.
    const goods = answers({ 'sells-tangible-goods': true });
    for (const { code } of REGIONS.filter((r) => r.code !== 'DE')) {
      const permits = plan({}, [{ regionCode: code, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }], goods).filter(
        (t) => t.regionCode === code && familyOf(t) === 'sales-tax-permit',
      );
      expect(permits.length, code).toBe(NO_STATE_SALES_TAX.has(code) ? 0 : 1);
    }
    const remote = plan({}, [{ regionCode: 'CA', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 2 }], goods);
    expect(remote.some((t) => familyOf(t) === 'sales-tax-permit')).toBe(true);
    // A business that sells nothing a state taxes gets no permit, even with premises there.
    const nothing = answers({ 'sells-tangible-goods': false, 'sells-digital-products': false, 'sells-services': false });
    const consultant = plan({}, [{ regionCode: 'CA', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 2 }], nothing);
    expect(consultant.some((t) => familyOf(t) === 'sales-tax-permit')).toBe(false);
  });

  it("posters in every state with employees, and workers' compensation in each (Texas: its non-subscriber notice)", () => {
    for (const { code } of REGIONS) {
      const tasks = plan({ incorporationRegion: 'DE' }, [
        { regionCode: code, hasEmployees: true, hasPhysicalLocation: false, employeeCount: 60 },
      ]).filter((t) => t.regionCode === code);
      expect(
        tasks.some((t) => familyOf(t) === 'posters'),
        `${code} posters`,
      ).toBe(true);
      expect(
        tasks.some((t) => familyOf(t) === 'workers-compensation'),
        `${code} workers' compensation`,
      ).toBe(true);
    }
  });

  it("California's minimum taxes: the LLC annual tax for an LLC, the minimum franchise tax for a corporation, with dates", () => {
    const llc = plan(
      { entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'CA', incorporationDate: '2024-02-01' },
      [],
    ).filter((t) => familyOf(t) === 'minimum-tax');
    // The first taxable year is its own one-time task (registered 2024-02-01: the 15th day of May, February the first
    // month), planned like every one-time filing even when long past; the later years from 2027-04-15.
    const due = (tasks: PlannedTask[]) => tasks.map((t) => [t.definitionId, t.dueDate]);
    expect(due(llc)).toEqual([
      ['ca-llc-annual-tax', '2027-04-15'],
      ['ca-llc-first-year-annual-tax', '2024-05-15'],
    ]);
    // A new LLC (registered 2026-10-01): the first year's tax on 2027-01-15, then 2027-04-15 for its second taxable year.
    const newLlc = plan(
      { entityType: 'llc', taxClassification: 'disregarded', incorporationRegion: 'CA', incorporationDate: '2026-10-01' },
      [],
    ).filter((t) => familyOf(t) === 'minimum-tax');
    expect(due(newLlc)).toEqual([
      ['ca-llc-annual-tax', '2027-04-15'],
      ['ca-llc-first-year-annual-tax', '2027-01-15'],
    ]);
    const corp = plan({ incorporationRegion: 'CA', incorporationDate: '2024-02-01' }, []).filter((t) => familyOf(t) === 'minimum-tax');
    expect(corp.map((t) => t.definitionId)).toEqual(['ca-corporation-minimum-franchise-tax']);
  });

  it("Georgia's initial net worth return, then the yearly net worth tax; Massachusetts plans no excise for a year before incorporation", () => {
    const netWorth = (over: Partial<EngineInput['entity']>) =>
      plan({ incorporationRegion: 'GA', incorporationDate: '2026-10-01', ...over }, [])
        .filter((t) => t.kind === 'requirement' && t.definitionId.startsWith('ga-') && t.definitionId.includes('net-worth'))
        .map((t) => [t.definitionId, t.dueDate])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    // Incorporated 2026-10-01 (October the first month): the initial return 2027-01-15; the yearly return 2027-04-15 (C) or 2027-03-15 (S).
    expect(netWorth({})).toEqual([
      ['ga-initial-net-worth-return', '2027-01-15'],
      ['ga-net-worth-tax', '2027-04-15'],
    ]);
    expect(netWorth({ taxClassification: 's_corp' })).toEqual([
      ['ga-initial-net-worth-return', '2027-01-15'],
      ['ga-net-worth-tax-s-corporation', '2027-03-15'],
    ]);
    // Massachusetts, incorporated 2026-02-01 and onboarded then: the first excise return is for 2026 (2027-04-15), none for 2025 on 2026-04-15.
    const excise = plan({ incorporationRegion: 'MA', incorporationDate: '2026-02-01', onboardedOn: '2026-02-01' }, [])
      .filter((t) => t.kind === 'requirement' && t.definitionId === 'ma-corporate-excise')
      .map((t) => t.dueDate);
    expect(excise).toEqual(['2027-04-15']);
  });

  it('federal filings once per business, in its state of incorporation: EIN, quarterly 941s, 940 and W-2s with employees', () => {
    const tasks = plan({}, [
      { regionCode: 'CA', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 4 },
      { regionCode: 'NY', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 1 },
    ]).filter((t) => t.definitionId.startsWith('us-'));
    expect(new Set(tasks.map((t) => t.regionCode))).toEqual(new Set(['DE']));
    const dues = (id: string) => tasks.filter((t) => t.definitionId === id).map((t) => t.dueDate);
    expect(dues('us-irs-form-941')).toEqual(['2027-01-31', '2027-04-30', '2027-07-31', '2027-10-31']);
    expect(dues('us-irs-form-940')).toEqual(['2027-01-31']);
    expect(dues('us-ssa-form-w2-w3')).toEqual(['2027-01-31']);
    expect(dues('us-irs-form-1120')).toEqual(['2027-04-15']);
    expect(dues('us-irs-ein')).toEqual([null]);
    expect(dues('us-dol-workplace-posters')).toEqual([null]);
    // Companies formed in the United States owe no beneficial-ownership report since March 2025.
    expect(tasks.some((t) => t.definitionId === 'us-fincen-boi-report')).toBe(false);
  });

  it('without employees: no federal employment filings; an LLC taxed as a partnership files Form 1065', () => {
    const tasks = plan(
      { entityType: 'llc', taxClassification: 'partnership', incorporationRegion: 'WY', incorporationDate: '2023-06-01' },
      [{ regionCode: 'WY', hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }],
    ).filter((t) => t.definitionId.startsWith('us-'));
    expect(tasks.map((t) => t.definitionId).sort()).toEqual(['us-irs-ein', 'us-irs-form-1065']);
    expect(tasks.find((t) => t.definitionId === 'us-irs-form-1065')!.dueDate).toBe('2027-03-15');
  });

  it("a city's tax only for businesses there: Philadelphia is asked about, and planned once the answer is yes", () => {
    const pa = [{ regionCode: 'PA', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 3 }];
    const asked = plan({}, pa).filter((t) => t.regionCode === 'PA');
    expect(asked.some((t) => t.definitionId === 'pa-philadelphia-wage-tax')).toBe(false);
    expect(asked.filter((t) => t.definitionId === 'in-locality').map((t) => t.periodKey)).toEqual(
      expect.arrayContaining(['pa-philadelphia', 'pa-pittsburgh']),
    );
    const answer = (locality: string, yes: boolean) =>
      ({
        kind: 'question',
        definitionId: 'in-locality',
        regionCode: 'PA',
        periodKey: locality,
        status: 'done',
        completedOn: '2026-11-20',
        answer: yes,
      }) as const;
    const yes = plan({}, pa, [answer('pa-philadelphia', true), answer('pa-pittsburgh', false)]).filter((t) => t.regionCode === 'PA');
    expect(yes.some((t) => t.definitionId === 'pa-philadelphia-wage-tax')).toBe(true);
    expect(yes.some((t) => t.definitionId === 'pa-pittsburgh-payroll-expense-tax')).toBe(false);
    // The statewide local earned income tax applies to every Pennsylvania employer, without a question.
    expect(asked.some((t) => t.definitionId === 'pa-local-earned-income-tax')).toBe(true);
  });
});
