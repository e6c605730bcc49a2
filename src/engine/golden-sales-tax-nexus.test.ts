import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Sales-tax permits over the real catalog: a state's permit follows nexus (premises, employees, or sales into the state
 * over its economic-nexus threshold) and what the business sells (goods everywhere; SaaS and digital products only where
 * the state taxes them; services only where the state taxes services broadly).
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const entity: EngineInput['entity'] = {
  entityType: 'llc',
  taxClassification: 'disregarded',
  incorporationRegion: 'DE',
  incorporationDate: '2021-03-10',
  accountingYearEnd: 12,
  onboardedOn: '2026-11-01',
};
type Sells = { goods?: boolean; digital?: boolean; services?: boolean };
type Location = EngineInput['locations'][number];
const office = (regionCode: string): Location => ({ regionCode, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 });
const remote = (regionCode: string): Location => ({ regionCode, hasEmployees: false, hasPhysicalLocation: false, employeeCount: 0 });
const question = (definitionId: string, regionCode: string, answer: boolean | number) => ({
  kind: 'question' as const,
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-20',
  answer,
});
const sellsAnswers = ({ goods = false, digital = false, services = false }: Sells) => [
  question('sells-tangible-goods', 'DE', goods),
  question('sells-digital-products', 'DE', digital),
  question('sells-services', 'DE', services),
];
const plan = (locations: Location[], tasks: EngineInput['tasks'] = []) => planTasks(catalog, { today, tasks, entity, locations });
const lines = (locations: Location[], tasks: EngineInput['tasks'] = []) =>
  plan(locations, tasks)
    .map((t) => `${t.regionCode} ${t.kind === 'question' ? '?' : ''}${t.definitionId}`)
    .sort();
/** The sales-tax permits planned, by requirement id. */
const permits = (locations: Location[], tasks: EngineInput['tasks'] = []) =>
  plan(locations, tasks)
    .filter((t) => t.kind === 'requirement' && catalog.requirement(t.definitionId)?.definition.family === 'sales-tax-permit')
    .map((t) => t.definitionId)
    .sort();

describe('sales-tax permits: what the business sells', () => {
  it('a SaaS-only business with an office in a state that does not tax SaaS gets no permit', () => {
    const tasks = sellsAnswers({ digital: true });
    expect(permits([office('CA')], tasks)).toEqual([]);
    expect(permits([office('FL')], tasks)).toEqual([]);
    expect(permits([office('GA')], tasks)).toEqual([]);
  });

  it('a consulting business (services only) gets no permit where services are not taxed', () => {
    const tasks = sellsAnswers({ services: true });
    expect(permits([office('CA'), office('TX'), office('NY'), office('WA')], tasks)).toEqual([]);
  });

  it('a business that sells nothing taxable gets none, even with premises', () => {
    expect(permits([office('TX'), office('IL')], sellsAnswers({}))).toEqual([]);
  });

  it('a services business gets a permit where the state taxes services broadly', () => {
    const tasks = sellsAnswers({ services: true });
    expect(permits([office('NM')], tasks)).toEqual(['nm-gross-receipts-tax-registration']);
    expect(permits([office('HI')], tasks)).toEqual(['hi-general-excise-tax-license']);
    expect(permits([office('SD')], tasks)).toEqual(['sd-sales-tax-license']);
  });
});

describe('sales-tax permits: nexus', () => {
  it('a SaaS seller with an office in Texas or Washington gets a permit', () => {
    const tasks = sellsAnswers({ digital: true });
    expect(permits([office('TX')], tasks)).toEqual(['tx-sales-tax-permit']);
    expect(permits([office('WA')], tasks)).toEqual(['wa-tax-registration']);
  });

  it('employees in a state are nexus too', () => {
    const employees: Location = { regionCode: 'TX', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 2 };
    expect(permits([employees], sellsAnswers({ goods: true }))).toEqual(['tx-sales-tax-permit']);
  });

  it('a goods seller with a store gets its permit without being asked its sales', () => {
    const tasks = sellsAnswers({ goods: true });
    expect(permits([office('TX'), office('CO')], tasks)).toEqual(['co-sales-tax-license', 'tx-sales-tax-permit']);
    expect(lines([office('TX'), office('CO')], tasks).filter((l) => l.includes('?annual-'))).toEqual([]);
  });

  it('a remote goods seller is asked its sales into the state, and gets a permit over the threshold only', () => {
    const goods = sellsAnswers({ goods: true });
    // Not answered yet: the permit waits, the question is asked in that state.
    expect(permits([remote('TX')], goods)).toEqual([]);
    expect(lines([remote('TX')], goods)).toContain('TX ?annual-sales');
    // Texas: $500,000 of sales into the state.
    expect(permits([remote('TX')], [...goods, question('annual-sales', 'TX', 400_000)])).toEqual([]);
    expect(permits([remote('TX')], [...goods, question('annual-sales', 'TX', 600_000)])).toEqual(['tx-sales-tax-permit']);
    // Colorado: $100,000.
    expect(permits([remote('CO')], [...goods, question('annual-sales', 'CO', 50_000)])).toEqual([]);
    expect(permits([remote('CO')], [...goods, question('annual-sales', 'CO', 150_000)])).toEqual(['co-sales-tax-license']);
  });

  it('where the state still counts transactions, 200 sales are nexus whatever their amount', () => {
    const goods = sellsAnswers({ goods: true });
    const small = (code: string, transactions: number) => [
      ...goods,
      question('annual-sales', code, 20_000),
      question('annual-transactions', code, transactions),
    ];
    expect(permits([remote('GA')], small('GA', 250))).toEqual(['ga-sales-tax-registration']);
    expect(permits([remote('GA')], small('GA', 50))).toEqual([]);
    // Texas counts dollars only: it does not ask for the number of sales.
    expect(
      lines([remote('TX')], [...goods, question('annual-sales', 'TX', 20_000)]).filter((l) => l.includes('?annual-transactions')),
    ).toEqual([]);
  });

  it('New York wants both prongs: more than $500,000 and more than 100 sales', () => {
    const goods = sellsAnswers({ goods: true });
    const ny = (sales: number, transactions: number) =>
      permits([remote('NY')], [...goods, question('annual-sales', 'NY', sales), question('annual-transactions', 'NY', transactions)]);
    expect(ny(600_000, 150)).toEqual(['ny-sales-tax-certificate-of-authority']);
    expect(ny(600_000, 50)).toEqual([]);
    expect(ny(100_000, 150)).toEqual([]);
  });

  it('a remote seller of nothing taxable is not asked its sales', () => {
    expect(lines([remote('TX'), remote('CO')], sellsAnswers({ services: true })).filter((l) => l.includes('?annual-'))).toEqual([]);
  });
});

describe('sales-tax permits: the questions', () => {
  it('asks what the business sells once per business, not once per state', () => {
    const asked = lines([office('TX'), office('NM'), remote('CO'), office('CA')]).filter((l) => l.includes('?sells-'));
    expect(asked).toEqual(['DE ?sells-digital-products', 'DE ?sells-services', 'DE ?sells-tangible-goods']);
  });

  it('asks nothing about what the business sells where there is no sales tax, and plans no permit there', () => {
    // (Oregon may still ask for sales into the state: its commercial activity tax, another family.)
    expect(lines([office('OR'), office('NH')]).filter((l) => l.includes('?sells-'))).toEqual([]);
    expect(permits([office('OR'), office('NH'), remote('DE')], [...sellsAnswers({ goods: true, digital: true, services: true })])).toEqual(
      [],
    );
  });
});
