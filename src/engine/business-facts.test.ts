import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { coverageMatrix, matrixProblems } from '../catalog/coverage.js';
import { evaluate, type RegionFacts } from './criteria.js';
import { planTasks } from './engine.js';
import type { EngineInput, PlannedTask, TaskState } from './engine.types.js';

// Issue 24: family files, the business's own questions (what it sells, a retirement plan, contractors) and the
// sales into a region (economic nexus), on a synthetic catalog (test/fixtures/catalog-families).
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/catalog-families', import.meta.url));
const catalog = loadCatalog(FIXTURE);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The fixture with one file written (or edited). */
function loadWith(file: string, write: (text: string) => string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-families-'));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  const target = path.join(dir, file);
  let text = '';
  try {
    text = readFileSync(target, 'utf8');
  } catch {
    // a new file
  }
  writeFileSync(target, write(text));
  return () => loadCatalog(dir);
}

const facts = (over: Partial<RegionFacts> = {}): RegionFacts => ({
  regionCode: 'CO',
  regionName: 'Colorado',
  isHome: false,
  hasEmployees: false,
  hasPhysicalLocation: false,
  employeeCount: 0,
  entityType: 'llc',
  taxClassification: 'partnership',
  business: {},
  annualSales: null,
  annualTransactions: null,
  ...over,
});

const input = (over: Partial<EngineInput> = {}): EngineInput => ({
  entity: {
    entityType: 'llc',
    taxClassification: 'partnership',
    incorporationRegion: 'OR',
    incorporationDate: '2021-05-20',
    accountingYearEnd: 12,
    onboardedOn: '2026-11-01',
  },
  locations: [],
  tasks: [],
  today: '2026-11-22',
  ...over,
});
const answer = (definitionId: string, regionCode: string, value: unknown): TaskState => ({
  kind: 'question',
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-20',
  answer: value,
});
const NEW_QUESTIONS = new Set([
  'sells-tangible-goods',
  'sells-digital-products',
  'sells-services',
  'offers-retirement-plan',
  'pays-contractors',
  'annual-sales',
  'annual-transactions',
]);
/** The questions of issue 24 planned (the fixture's others, such as registration dates, are not what these tests are about). */
const questions = (tasks: PlannedTask[]) =>
  tasks
    .filter((t) => t.kind === 'question' && NEW_QUESTIONS.has(t.definitionId))
    .map((t) => `${t.regionCode}:${t.definitionId}`)
    .sort();
const requirements = (tasks: PlannedTask[]) =>
  tasks
    .filter((t) => t.kind === 'requirement')
    .map((t) => `${t.regionCode}:${t.definitionId}`)
    .sort();

describe('family files (catalog/families/<family>/<CODE>.yaml)', () => {
  it('merge their agencies and requirements into the region, and record the cells without requirements', () => {
    expect(catalog.regions.get('CO')!.requirements.map((r) => r.id)).toContain('co-sales-tax-permit');
    expect(catalog.regions.get('CO')!.agencies.get('co-revenue')!.name).toBe('Test Revenue Department');
    expect(catalog.requirement('co-sales-tax-permit')!.agency.id).toBe('co-revenue');
    expect(catalog.federal.requirements.map((r) => r.id)).toContain('us-irs-form-1099-nec');
    expect(catalog.familyCells.get('gross-receipts-tax')!.get('CO')!.notApplicable!.reason).toBe(
      'The test state has no gross receipts tax.',
    );
    expect(catalog.familyCells.get('gross-receipts-tax')!.get('OR')!.coveredBy!.requirements).toEqual(['or-annual-report-corporation']);
  });

  it('make the coverage matrix: present, not applicable, covered, federal, missing', () => {
    const rows = new Map(coverageMatrix(catalog).map((row) => [row.family, row]));
    expect(rows.get('sales-tax-permit')!.cells.CO).toMatchObject({ status: 'present', requirements: ['co-sales-tax-permit'] });
    expect(rows.get('sales-tax-permit')!.cells.OR!.status).toBe('missing');
    expect(rows.get('gross-receipts-tax')!.cells.CO).toMatchObject({
      status: 'not-applicable',
      sources: ['https://revenue.test.example/taxes'],
    });
    expect(rows.get('gross-receipts-tax')!.cells.OR).toMatchObject({ status: 'covered', requirements: ['or-annual-report-corporation'] });
    expect(rows.get('information-return')!.cells).toMatchObject({ US: { status: 'present' }, CO: { status: 'federal' } });
    expect(rows.get('employment-eligibility')!.cells.US!.status).toBe('missing');
    const problems = matrixProblems(coverageMatrix(catalog));
    expect(problems).toContain(
      'OR: no sales-tax-permit (add catalog/families/sales-tax-permit/OR.yaml: requirements, not_applicable with a cited source, or covered_by)',
    );
    expect(problems.some((p) => p.startsWith('CO: no gross-receipts-tax'))).toBe(false);
  });

  it('refuse a requirement of another family, a file without requirements or reason, an unknown covered_by, a clashing agency', () => {
    expect(loadWith('families/gross-receipts-tax/CO.yaml', () => 'region: CO\nfamily: gross-receipts-tax\n')).toThrow(
      /exactly one of not_applicable or covered_by/,
    );
    expect(loadWith('families/gross-receipts-tax/CO.yaml', (t) => t.replace('family: gross-receipts-tax', 'family: e-verify'))).toThrow(
      /must be the directory's family \(gross-receipts-tax\)/,
    );
    expect(
      loadWith('families/retirement-mandate/OR.yaml', (t) => t.replace('    family: retirement-mandate', '    family: paid-leave')),
    ).toThrow(/holds only that family's requirements/);
    expect(loadWith('families/gross-receipts-tax/OR.yaml', (t) => t.replace('[or-annual-report-corporation]', '[or-nothing]'))).toThrow(
      /covered_by\/requirements\/0: unknown requirement 'or-nothing'/,
    );
    expect(
      loadWith('families/sales-tax-permit/CO.yaml', (t) =>
        t.replace('id: co-revenue, name: Test Revenue Department', 'id: co-sos, name: Another Office'),
      ),
    ).toThrow(/agency co-sos is declared elsewhere/);
    expect(
      loadWith(
        'families/sales-tax-permit/TX.yaml',
        () =>
          'region: TX\nfamily: sales-tax-permit\nnot_applicable: { reason: x, sources: [{ url: https://a.example/b, verified_on: 2026-11-28, says: y }] }\n',
      ),
    ).toThrow(/no region file catalog\/regions\/TX\.yaml/);
    expect(
      loadWith(
        'families/sales-tax-permit/CA.yaml',
        () =>
          'region: TX\nfamily: sales-tax-permit\nnot_applicable: { reason: x, sources: [{ url: https://a.example/b, verified_on: 2026-11-28, says: y }] }\n',
      ),
    ).toThrow(/must be the region code \(or US\) the file is named after/);
  });

  it('refuse a business question titled per region, and a per-region question marked per business', () => {
    expect(
      loadWith('questions.yaml', (t) =>
        t.replace(
          'title: Does the business sell physical products (tangible goods)?',
          'title: Does the business sell physical products in {region}?',
        ),
      ),
    ).toThrow(/a question per business names no \{region\}/);
    expect(
      loadWith('questions.yaml', (t) =>
        t.replace('    fact: sells_tangible_goods\n    per: business\n', '    fact: sells_tangible_goods\n'),
      ),
    ).toThrow(/is a fact of the whole business: per: business/);
  });
});

describe('evaluate: what the business sells, its plan, its contractors, its sales into the region', () => {
  it('sells: holds when it sells one of the kinds listed, with the reason', () => {
    const result = evaluate(
      { sells: ['tangible_goods', 'digital_products'] },
      facts({ business: { sells_tangible_goods: false, sells_digital_products: true } }),
    );
    expect(result.value).toBe(true);
    expect(result.met).toEqual([
      { key: 'sells', reason: 'The business sells software as a service or digital products', data: { sells: 'digital_products' } },
    ]);
    expect(
      evaluate({ sells: ['tangible_goods'] }, facts({ business: { sells_tangible_goods: false, sells_digital_products: true } })).value,
    ).toBe(false);
  });

  it('economic nexus: sales are asked only once nothing else settles it', () => {
    const criteria = { sells: ['tangible_goods' as const], any: [{ has_physical_location: true }, { annual_sales_gte: 100000 }] };
    // What it sells is unknown: that comes first, its sales into the state are not asked yet.
    expect([...evaluate(criteria, facts()).unknown]).toEqual(['sells_tangible_goods']);
    // It sells goods, has no premises: now its sales.
    expect([...evaluate(criteria, facts({ business: { sells_tangible_goods: true } })).unknown]).toEqual(['annual_sales']);
    // Premises settle it without the sales.
    expect(evaluate(criteria, facts({ hasPhysicalLocation: true, business: { sells_tangible_goods: true } })).value).toBe(true);
    const over = evaluate(criteria, facts({ annualSales: 150000, business: { sells_tangible_goods: true } }));
    expect(over.value).toBe(true);
    expect(over.met.map((m) => m.reason)).toContain("The business's sales into Colorado reach $150,000 a year ($100,000 or more)");
    expect(evaluate(criteria, facts({ annualSales: 99999, business: { sells_tangible_goods: true } })).value).toBe(false);
  });

  it('a retirement plan and contractors are flags of the whole business', () => {
    expect(evaluate({ offers_retirement_plan: false }, facts({ business: { offers_retirement_plan: true } })).value).toBe(false);
    expect([...evaluate({ offers_retirement_plan: false }, facts()).unknown]).toEqual(['offers_retirement_plan']);
    expect(evaluate({ pays_contractors: true }, facts({ business: { pays_contractors: true } })).met[0]!.reason).toBe(
      'The business pays independent contractors',
    );
  });
});

describe('planning with the business questions', () => {
  const withCo = (config: { hasEmployees: boolean | null; hasPhysicalLocation: boolean | null; employeeCount?: number | null }) => [
    { regionCode: 'CO', employeeCount: null, ...config },
  ];

  it('asks each business question once, in the anchor region, even when two regions need it', () => {
    const tasks = planTasks(
      catalog,
      input({
        locations: [
          ...withCo({ hasEmployees: false, hasPhysicalLocation: true }),
          { regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 8 },
        ],
      }),
    );
    // The federal 1099-NEC asks about contractors; Colorado's permit what the business sells; Oregon's program its plan.
    expect(questions(tasks)).toEqual([
      'OR:offers-retirement-plan',
      'OR:pays-contractors',
      'OR:sells-digital-products',
      'OR:sells-tangible-goods',
    ]);
    const title = tasks.find((t) => t.definitionId === 'sells-tangible-goods')!;
    expect(title.criteriaMet[0]!.reason).toBe('Needed to decide: Get a sales tax permit');
    expect(requirements(tasks)).not.toContain('CO:co-sales-tax-permit');
  });

  it('answers plan what they decide: a permit with premises, a retirement registration without a plan, 1099-NEC each January', () => {
    const tasks = planTasks(
      catalog,
      input({
        locations: [
          ...withCo({ hasEmployees: false, hasPhysicalLocation: true }),
          { regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 8 },
        ],
        tasks: [
          answer('sells-tangible-goods', 'OR', true),
          answer('offers-retirement-plan', 'OR', false),
          answer('pays-contractors', 'OR', true),
        ],
      }),
    );
    expect(requirements(tasks)).toEqual(
      expect.arrayContaining(['CO:co-sales-tax-permit', 'OR:or-retirement-program', 'OR:us-irs-form-1099-nec']),
    );
    expect(tasks.filter((t) => t.definitionId === 'us-irs-form-1099-nec').map((t) => t.dueDate)).toEqual(['2027-01-31']);
    // Answered questions stay; nothing more is asked of the business.
    expect(questions(tasks)).toEqual(['OR:offers-retirement-plan', 'OR:pays-contractors', 'OR:sells-tangible-goods']);
  });

  it('a plan, no contractors, no goods or digital products: none of those tasks', () => {
    const tasks = planTasks(
      catalog,
      input({
        locations: [
          ...withCo({ hasEmployees: false, hasPhysicalLocation: true }),
          { regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 8 },
        ],
        tasks: [
          answer('sells-tangible-goods', 'OR', false),
          answer('sells-digital-products', 'OR', false),
          answer('offers-retirement-plan', 'OR', true),
          answer('pays-contractors', 'OR', false),
        ],
      }),
    );
    expect(requirements(tasks).filter((id) => /sales-tax|retirement|1099/.test(id))).toEqual([]);
  });

  it('a remote seller: its sales into the state are asked, and decide the permit', () => {
    const remote = withCo({ hasEmployees: false, hasPhysicalLocation: false, employeeCount: 0 });
    const asked = planTasks(catalog, input({ locations: remote, tasks: [answer('sells-tangible-goods', 'OR', true)] }));
    expect(questions(asked)).toContain('CO:annual-sales');
    expect(questions(asked)).toContain('CO:annual-transactions');
    const over = planTasks(
      catalog,
      input({ locations: remote, tasks: [answer('sells-tangible-goods', 'OR', true), answer('annual-sales', 'CO', 250000)] }),
    );
    expect(requirements(over)).toContain('CO:co-sales-tax-permit');
    expect(over.find((t) => t.definitionId === 'co-sales-tax-permit')!.criteriaMet.map((m) => m.key)).toEqual(['sells', 'annual-sales']);
    const under = planTasks(
      catalog,
      input({
        locations: remote,
        tasks: [answer('sells-tangible-goods', 'OR', true), answer('annual-sales', 'CO', 20000), answer('annual-transactions', 'CO', 12)],
      }),
    );
    expect(requirements(under)).not.toContain('CO:co-sales-tax-permit');
  });

  it('answers given in an earlier anchor region still count after the anchor moves', () => {
    const tasks = planTasks(
      catalog,
      input({
        entity: { ...input().entity, incorporationRegion: 'CO' },
        locations: [{ regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 8 }],
        tasks: [answer('pays-contractors', 'OR', true)],
      }),
    );
    expect(requirements(tasks)).toContain('CO:us-irs-form-1099-nec');
    expect(questions(tasks)).not.toContain('CO:pays-contractors');
  });
});
