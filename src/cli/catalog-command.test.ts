import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlannedTask } from '../engine/engine.types.js';
import { loadCatalog } from '../catalog/catalog.js';
import { describeSchedule } from '../engine/describe.js';
import { catalogExplain, catalogList } from './catalog-command.js';

const catalog = loadCatalog();

const task = (over: Partial<PlannedTask>): PlannedTask => ({
  kind: 'requirement',
  definitionId: 'x',
  regionCode: 'DE',
  periodKey: 'once',
  periodStartDate: null,
  periodEndDate: null,
  dueDate: null,
  dueDateBasis: null,
  criteriaMet: [],
  blockedBy: [],
  ...over,
});

const planned: PlannedTask[] = [
  task({ definitionId: 'de-registered-agent' }),
  task({
    definitionId: 'ny-biennial-statement',
    regionCode: 'NY',
    periodKey: '2027-04-30',
    dueDate: '2027-04-30',
    dueDateBasis: {
      rule: 'Due the last day of the anniversary month of registration, every two years counted from the registration year',
      exact: false,
      questionId: 'registration-date',
    },
  }),
  task({
    definitionId: 'de-annual-franchise-tax-report-corporation',
    periodKey: '2027-03-01',
    dueDate: '2027-03-01',
    dueDateBasis: { rule: 'Due March 1 every year, from the year after registration', exact: true, questionId: null },
  }),
];

describe('catalog explain (output)', () => {
  const writes: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    writes.length = 0;
  });
  const run = async (json: boolean) => {
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (writes.push(String(chunk)), true));
    await catalogExplain(
      { explain: async () => ({ regions: [], planned, plannedWith: { revision: 3, release: '2026.11.28-1' } }) },
      'le_1',
      json,
    );
    return writes.join('');
  };

  it('lists every planned task by due date, aligned: the date, exact or estimated, the rule, and the question that makes it exact', async () => {
    const lines = (await run(false)).trimEnd().split('\n');
    expect(lines[0]).toBe('Stored tasks last planned with catalog release 2026.11.28-1 (revision 3)');
    const table = lines.slice(lines.indexOf('Due dates (3 planned tasks)'));
    expect(table).toEqual([
      'Due dates (3 planned tasks)',
      '  REGION  DUE         DATE IS    TASK',
      '  DE      2027-03-01  exact      de-annual-franchise-tax-report-corporation',
      '                                 Due March 1 every year, from the year after registration',
      '  NY      2027-04-30  estimated  ny-biennial-statement',
      '                                 Due the last day of the anniversary month of registration, every two years counted from the registration year',
      '                                 Estimated: answer registration-date (On what date was the business registered with the state of New York?) to make it exact',
      '  DE      none        -          de-registered-agent',
      `                                 ${describeSchedule(catalog.requirement('de-registered-agent')!.definition.schedule)}`,
    ]);
  });

  it('--json: the planned tasks with their due-date basis', async () => {
    const out = JSON.parse(await run(true));
    expect(out.planned[1].dueDateBasis).toEqual({
      rule: expect.stringContaining('every two years'),
      exact: false,
      questionId: 'registration-date',
    });
  });
});

describe('catalog list --region US', () => {
  afterEach(() => vi.restoreAllMocks());
  it('lists the federal requirements, region US', () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (writes.push(String(chunk)), true));
    catalogList('us', true);
    const rows = JSON.parse(writes.join('')) as { region: string; id: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.region === 'US' && r.id.startsWith('us-'))).toBe(true);
    expect(rows.map((r) => r.id)).toContain('us-irs-ein');
  });
});
