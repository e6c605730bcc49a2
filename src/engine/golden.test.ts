import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Golden scenarios over the real catalog: what a business owes, and when, in three typical setups.
 * A change to the catalog that changes these answers must be deliberate: update the expectation with it.
 * `~` marks an estimated date (a fact it depends on is not known yet: see src/engine/schedule.ts).
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const lines = (input: EngineInput) =>
  planTasks(catalog, input)
    .map(
      (t) =>
        `${t.regionCode} ${t.kind === 'question' ? '?' : ''}${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`,
    )
    .sort();

describe('golden scenarios', () => {
  it('a Delaware C corporation with an office and employees in California and remote employees in New York', () => {
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
      locations: [
        { regionCode: 'CA', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 12 },
        { regionCode: 'NY', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 3 },
      ],
    };
    expect(lines(input)).toEqual([
      // A city tax is asked per locality (Los Angeles, Long Beach, Oakland, Sacramento, San Diego, San Francisco, San José):
      // the business has premises and employees in California.
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?in-locality -',
      'CA ?operations-start-date -',
      'CA ?registration-date -',
      'CA ca-corporation-minimum-franchise-tax 2027-04-15 ~',
      'CA ca-edd-employer-registration 2026-11-16 ~', // 15 days after wages, assumed to start on onboarding (2026-11-01)
      'CA ca-foreign-qualification-corporation -',
      'CA ca-form-100-corporation-franchise-tax-return 2027-04-15 ~', // issue 24: the state corporate return (income-tax-return family)
      'CA ca-new-hire-reporting -',
      'CA ca-registered-agent -',
      'CA ca-state-disability-insurance 2026-11-16 ~',
      'CA ca-statement-of-information-initial-corporation 2027-01-30 ~', // 90 days after an assumed registration on 2026-11-01
      'CA ca-unemployment-insurance 2026-11-16 ~',
      'CA ca-workers-compensation -',
      'CA ca-workplace-posters -',
      'CA employee-handbook -',
      // CalSavers (12 California employees) needs to know whether the business offers a retirement plan: asked once, in the federal anchor.
      'DE ?offers-retirement-plan -',
      'DE ?pays-contractors -', // asked once, in the federal anchor: Form 1099-NEC depends on it
      // What the business sells decides the sales-tax permits (California's seller's permit, New York's certificate of
      // authority): asked once for the whole business, in the state of incorporation, until answered.
      'DE ?sells-digital-products -',
      'DE ?sells-tangible-goods -',
      'DE de-annual-franchise-tax-report-corporation 2027-03-01',
      'DE de-registered-agent -',
      // Federal requirements, once, in the state of incorporation, on the whole business's facts (15 employees).
      'DE us-dol-workplace-posters -',
      'DE us-irs-ein -',
      'DE us-irs-form-1120 2027-04-15',
      'DE us-irs-form-940 2027-01-31',
      'DE us-irs-form-941 2027-01-31',
      'DE us-irs-form-941 2027-04-30',
      'DE us-irs-form-941 2027-07-31',
      'DE us-irs-form-941 2027-10-31',
      'DE us-ssa-form-w2-w3 2027-01-31',
      'DE us-uscis-form-i9 -', // Form I-9 for every hire: the business has employees
      'NY ?in-locality -', // the commuter transportation district: asked before its payroll tax (ny-mctmt) is planned
      'NY ?in-locality -', // New York City: asked before the city's business corporation tax return (ny-nyc-business-corporation-tax-nyc2) is planned
      'NY ?operations-start-date -',
      'NY ?registration-date -',
      'NY employee-handbook -',
      'NY ny-disability-benefits 2026-12-01 ~',
      'NY ny-employer-registration -',
      'NY ny-foreign-qualification-corporation -',
      'NY ny-franchise-tax-ct3 2027-04-15 ~', // fiscal year 2026 (assumed registered 2026-11-01), 15th day of the 4th month after
      'NY ny-local-income-tax-withholding -',
      'NY ny-new-hire-reporting -',
      'NY ny-paid-family-leave 2026-12-01 ~',
      'NY ny-process-agent -',
      'NY ny-unemployment-insurance -',
      'NY ny-workers-compensation -',
      'NY ny-workplace-posters -',
    ]);

    // Once California registration is done (2026-11-15) and payroll started there (2026-11-20), dates follow.
    const after = lines({
      ...input,
      tasks: [
        {
          kind: 'requirement',
          definitionId: 'ca-foreign-qualification-corporation',
          regionCode: 'CA',
          status: 'done',
          completedOn: '2026-11-15',
          answer: null,
        },
        {
          kind: 'question',
          definitionId: 'operations-start-date',
          regionCode: 'CA',
          status: 'done',
          completedOn: '2026-11-20',
          answer: '2026-11-20',
        },
      ],
    }).filter((l) => l.startsWith('CA '));
    expect(after).toEqual(
      expect.arrayContaining([
        'CA ca-statement-of-information-initial-corporation 2027-02-13', // 90 days after registration
        'CA ca-edd-employer-registration 2026-12-05', // 15 days after the first wages
      ]),
    );
    expect(after.some((l) => l.includes('?registration-date'))).toBe(false);

    // A seller of goods: California (premises) and New York (employees, physical nexus) both want a permit.
    const sellsGoods = lines({
      ...input,
      tasks: [
        {
          kind: 'question',
          definitionId: 'sells-tangible-goods',
          regionCode: 'DE',
          status: 'done',
          completedOn: '2026-11-20',
          answer: true,
        },
        {
          kind: 'question',
          definitionId: 'sells-digital-products',
          regionCode: 'DE',
          status: 'done',
          completedOn: '2026-11-20',
          answer: false,
        },
      ],
    });
    expect(sellsGoods).toEqual(expect.arrayContaining(['CA ca-sellers-permit -', 'NY ny-sales-tax-certificate-of-authority -']));
    // The answered questions stay on the plan, once, where they were asked.
    expect(sellsGoods.filter((l) => l.includes('?sells-'))).toEqual(['DE ?sells-digital-products -', 'DE ?sells-tangible-goods -']);
  });

  it('a Texas LLC with no employees', () => {
    expect(
      lines({
        today,
        tasks: [],
        entity: {
          entityType: 'llc',
          taxClassification: 'disregarded',
          incorporationRegion: 'TX',
          incorporationDate: '2023-06-20',
          accountingYearEnd: 12,
          onboardedOn: '2026-11-01',
        },
        locations: [{ regionCode: 'TX', hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }],
      }),
    ).toEqual([
      'TX ?pays-contractors -',
      // Texas taxes goods and data processing (SaaS): its sales-tax permit waits for what the business sells.
      'TX ?sells-digital-products -',
      'TX ?sells-tangible-goods -',
      'TX tx-franchise-tax-report 2027-05-15',
      'TX tx-public-information-report 2027-05-15',
      'TX tx-registered-agent -',
    ]);
  });

  it('a Wyoming LLC taxed as an S corporation in Wyoming, Colorado (employees) and Florida (an office)', () => {
    expect(
      lines({
        today,
        tasks: [],
        entity: {
          entityType: 'llc',
          taxClassification: 's_corp',
          incorporationRegion: 'WY',
          incorporationDate: '2022-08-05',
          accountingYearEnd: 12,
          onboardedOn: '2026-11-01',
        },
        locations: [
          { regionCode: 'WY', hasEmployees: false, hasPhysicalLocation: false, employeeCount: 0 },
          { regionCode: 'CO', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 5 },
          { regionCode: 'FL', hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 },
        ],
      }),
    ).toEqual([
      'CO ?in-locality -', // Denver's occupational privilege tax: asked, the business has Colorado employees
      'CO ?in-locality -', // Aurora's business licence: asked too (any business activity in Aurora)
      'CO ?registration-date -',
      'CO co-dr-0106-partnership-s-corporation-return 2027-04-15 ~', // issue 24: the Colorado pass-through return (income-tax-return family)
      'CO co-famli -',
      // FAMLI premiums and wage report, quarterly from the quarter of the (assumed) Colorado registration on 2026-11-01.
      'CO co-famli-quarterly-premiums 2027-01-31 ~',
      'CO co-famli-quarterly-premiums 2027-04-30 ~',
      'CO co-famli-quarterly-premiums 2027-07-31 ~',
      'CO co-famli-quarterly-premiums 2027-10-31 ~',
      'CO co-foreign-qualification -',
      'CO co-new-hire-reporting -',
      'CO co-registered-agent -',
      'CO co-unemployment-insurance -',
      'CO co-withholding-registration -',
      'CO co-workers-compensation -',
      'CO co-workplace-posters -',
      'CO employee-handbook -',
      // Florida's county and city business tax receipts (Miami-Dade, Miami, Orange County, Orlando, Duval/Jacksonville,
      // Hillsborough, Tampa): asked, the business has an office there.
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?in-locality -',
      'FL ?registration-date -',
      'FL fl-annual-report-llc 2027-05-01 ~', // May 1 of the year after an assumed registration in 2026
      'FL fl-foreign-qualification-llc -',
      'FL fl-registered-agent -',
      'WY ?offers-retirement-plan -', // Colorado SecureSavings (5 Colorado employees): asked once, in the federal anchor
      'WY ?pays-contractors -',
      // Florida's sales-tax registration (the office is physical nexus) waits for what the business sells; Colorado's
      // license too (employees), which also taxes digital products.
      'WY ?sells-digital-products -',
      'WY ?sells-tangible-goods -',
      'WY us-dol-workplace-posters -',
      'WY us-irs-ein -',
      'WY us-irs-form-1120-s 2027-03-15',
      'WY us-irs-form-940 2027-01-31',
      'WY us-irs-form-941 2027-01-31',
      'WY us-irs-form-941 2027-04-30',
      'WY us-irs-form-941 2027-07-31',
      'WY us-irs-form-941 2027-10-31',
      'WY us-ssa-form-w2-w3 2027-01-31',
      'WY us-uscis-form-i9 -', // the Colorado employees count for the whole business
      'WY wy-annual-report-llc 2027-08-01', // the first day of the anniversary month
      'WY wy-registered-agent -',
    ]);
  });

  it("a New Mexico corporation: its biennial report follows the business ID's last digit, estimated until it is given", () => {
    const entity = {
      entityType: 'c_corp',
      taxClassification: 'corp',
      incorporationRegion: 'NM',
      incorporationDate: '2020-03-10',
      accountingYearEnd: 12,
      onboardedOn: '2026-11-01',
    };
    const digit = (answer: number) => [
      {
        kind: 'question' as const,
        definitionId: 'registration-number-digit',
        regionCode: 'NM',
        status: 'done',
        completedOn: '2026-11-20',
        answer,
      },
    ];
    const report = (tasks: EngineInput['tasks']) =>
      lines({ today, tasks, entity, locations: [] }).filter((l) => l.includes('biennial') || l.includes('?registration-number-digit'));
    // Even digits report for taxable years ending in even years (12.3.2.9 NMAC). Unknown digit: the registration year's
    // cycle (2020, even) → the fiscal year 2026 report, due 2027-04-15, estimated.
    expect(report([])).toEqual(['NM ?registration-number-digit -', 'NM nm-biennial-report-corporation 2027-04-15 ~']);
    // Even digit: the same report, exact. Odd digit: fiscal years 2025 (due 2026-04-15, before onboarding) and 2027 (due 2028).
    expect(report(digit(4))).toEqual(['NM ?registration-number-digit -', 'NM nm-biennial-report-corporation 2027-04-15']);
    expect(report(digit(7))).toEqual(['NM ?registration-number-digit -']);
    // A whole number given instead of its last digit counts by that digit (1358 → 8, even).
    expect(report(digit(1358))).toEqual(report(digit(4)));
  });

  it('a Delaware LLC with an office in the District of Columbia: the biennial report in the years opposite to registration', () => {
    const input = (tasks: EngineInput['tasks']): EngineInput => ({
      today,
      tasks,
      entity: {
        entityType: 'llc',
        taxClassification: 'disregarded',
        incorporationRegion: 'DE',
        incorporationDate: '2021-03-10',
        accountingYearEnd: 12,
        onboardedOn: '2026-11-01',
      },
      locations: [{ regionCode: 'DC', hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }],
    });
    const report = (tasks: EngineInput['tasks']) => lines(input(tasks)).filter((l) => l.includes('dc-biennial-report'));
    // Registration unknown, assumed 2026-11-01 (even): odd years from 2027 → 2027-04-01, estimated.
    expect(report([])).toEqual(['DC dc-biennial-report 2027-04-01 ~']);
    // Registered 2024-05-01 (even): 2025, 2027 → 2027-04-01 exact. Registered 2025-06-01 (odd): 2026 (before onboarding), 2028.
    const registered = (answer: string) => [
      { kind: 'question' as const, definitionId: 'registration-date', regionCode: 'DC', status: 'done', completedOn: '2026-11-20', answer },
    ];
    expect(report(registered('2024-05-01'))).toEqual(['DC dc-biennial-report 2027-04-01']);
    expect(report(registered('2025-06-01'))).toEqual([]);
  });
});
