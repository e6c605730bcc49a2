import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { evaluate, type RegionFacts } from './criteria.js';
import { explain } from './explain.js';
import { federalAnchor } from './facts.js';
import { planTasks } from './engine.js';
import type { EngineInput, LocationInput, TaskState } from './engine.types.js';

const catalog = loadCatalog(fileURLToPath(new URL('../../test/fixtures/catalog-localities', import.meta.url)));

const facts = (over: Partial<RegionFacts> = {}): RegionFacts => ({
  regionCode: 'PA',
  regionName: 'Pennsylvania',
  isHome: false,
  hasEmployees: true,
  hasPhysicalLocation: false,
  employeeCount: 3,
  entityType: 'llc',
  taxClassification: 'disregarded',
  localityNames: new Map([['pa-philadelphia', 'Philadelphia']]),
  ...over,
});

describe('evaluate: in_locality', () => {
  it('holds when the locality question is answered yes, with a reason naming the city and state', () => {
    const result = evaluate(
      { has_employees: true, in_locality: 'pa-philadelphia' },
      facts({ localityAnswers: new Map([['pa-philadelphia', true]]) }),
    );
    expect(result.value).toBe(true);
    expect(result.met.map((m) => m.reason)).toEqual([
      'The business has employees in Pennsylvania',
      'The business has employees or premises in Philadelphia, Pennsylvania',
    ]);
    expect(result.met[1]!.data).toEqual({ region: 'PA', locality: 'pa-philadelphia' });
  });

  it('does not hold when answered no', () => {
    expect(evaluate({ in_locality: 'pa-philadelphia' }, facts({ localityAnswers: new Map([['pa-philadelphia', false]]) })).value).toBe(
      false,
    );
  });

  it('unanswered: unknown, and the locality is what is missing once the rest holds', () => {
    const result = evaluate({ has_employees: true, in_locality: 'pa-philadelphia' }, facts());
    expect(result.value).toBeNull();
    expect([...result.localities]).toEqual(['pa-philadelphia']);
    expect(result.unknown.size).toBe(0);
  });

  it('is not asked when the rest of the criteria fails', () => {
    const result = evaluate({ has_employees: true, in_locality: 'pa-philadelphia' }, facts({ hasEmployees: false }));
    expect(result.value).toBe(false);
    expect(result.localities.size).toBe(0);
  });

  it('is not asked while a fact of the region is unknown: the region question comes first', () => {
    const result = evaluate({ has_employees: true, in_locality: 'pa-philadelphia' }, facts({ hasEmployees: null }));
    expect(result.value).toBeNull();
    expect([...result.unknown]).toEqual(['has_employees']);
    expect(result.localities.size).toBe(0);
  });

  it('in an ANY, every unanswered locality is missing', () => {
    const result = evaluate({ any: [{ in_locality: 'pa-philadelphia' }, { in_locality: 'pa-pittsburgh' }] }, facts());
    expect([...result.localities].sort()).toEqual(['pa-philadelphia', 'pa-pittsburgh']);
  });
});

describe('evaluate: federal scope', () => {
  const federal = (incorporatedIn: string | null) =>
    facts({ regionName: 'the United States', isHome: incorporatedIn !== null, federal: { incorporatedIn } });

  it('home: incorporated in a US state, said as a sentence', () => {
    const result = evaluate({ scope: 'home' }, federal('Delaware'));
    expect(result.met.map((m) => m.reason)).toEqual(['The business is incorporated in Delaware']);
  });

  it('foreign: never for a business incorporated in a US state (none can be recorded as formed abroad today)', () => {
    expect(evaluate({ scope: 'foreign' }, federal('Delaware')).value).toBe(false);
  });

  it('a state of incorporation not known yet leaves either scope undecided, and asks nothing', () => {
    for (const scope of ['home', 'foreign'] as const) {
      const result = evaluate({ scope }, federal(null));
      expect(result.value).toBeNull();
      expect(result.unknown.size + result.localities.size).toBe(0);
    }
  });
});

const location = (regionCode: string, over: Partial<LocationInput> = {}): LocationInput => ({
  regionCode,
  hasEmployees: true,
  hasPhysicalLocation: false,
  employeeCount: 2,
  ...over,
});
const input = (over: Partial<EngineInput['entity']>, locations: LocationInput[], tasks: TaskState[] = []): EngineInput => ({
  entity: {
    entityType: 'llc',
    taxClassification: 'disregarded',
    incorporationRegion: null,
    incorporationDate: null,
    accountingYearEnd: null,
    onboardedOn: '2026-03-01',
    ...over,
  },
  locations,
  tasks,
  today: '2026-03-01',
});
const federalOf = (tasks: ReturnType<typeof planTasks>) =>
  tasks.filter((t) => t.definitionId.startsWith('us-')).map((t) => `${t.definitionId}@${t.regionCode}`);

describe('planTasks: federal requirements', () => {
  it('are planned once, in the state of incorporation, on the whole business facts', () => {
    const tasks = planTasks(
      catalog,
      input({ incorporationRegion: 'NJ', incorporationDate: '2025-05-10' }, [
        location('PA'),
        location('NJ', { hasEmployees: false, employeeCount: 0 }),
      ]),
    );
    expect(federalOf(tasks)).toEqual(['us-irs-ein@NJ', 'us-irs-form-940@NJ']);
    const ein = tasks.find((t) => t.definitionId === 'us-irs-ein')!;
    expect(ein.criteriaMet.map((c) => c.reason)).toEqual(['The business has employees in the United States']);
    const form940 = tasks.find((t) => t.definitionId === 'us-irs-form-940')!;
    expect(form940.dueDate).toBe('2027-01-31');
    expect(form940.blockedBy).toEqual(['us-irs-ein']);
    expect(form940.dueDateBasis).toMatchObject({ exact: true, questionId: null });
  });

  it('anchor: without an incorporation state in the catalog, the first location in code order', () => {
    expect(federalAnchor(catalog, input({}, [location('PA'), location('NJ')]))).toBe('NJ');
    expect(federalAnchor(catalog, input({ incorporationRegion: 'PA' }, [location('NJ')]))).toBe('PA');
    expect(federalAnchor(catalog, input({}, []))).toBeNull();
    expect(planTasks(catalog, input({}, []))).toEqual([]);
  });

  it('none of the employer ones without employees; no beneficial-ownership report while the state of incorporation is unknown', () => {
    const tasks = planTasks(catalog, input({}, [location('PA', { hasEmployees: false, employeeCount: 0, hasPhysicalLocation: true })]));
    expect(federalOf(tasks)).toEqual([]);
    expect(tasks.filter((t) => t.kind === 'question').map((t) => t.definitionId)).not.toContain('has-employees');
  });

  it('unknown employees anywhere (and none known): no federal employer task and no question of its own', () => {
    const tasks = planTasks(
      catalog,
      input({ incorporationRegion: 'NJ', incorporationDate: '2025-05-10' }, [location('PA', { hasEmployees: null, employeeCount: null })]),
    );
    expect(federalOf(tasks)).toEqual([]);
    expect(tasks.filter((t) => t.kind === 'question').map((t) => `${t.definitionId}@${t.regionCode}`)).toEqual(['has-employees@PA']);
  });

  it('a federal requirement done in the old anchor still unblocks what it unlocks in the new one (the task moves there)', () => {
    const ein: TaskState = {
      kind: 'requirement',
      definitionId: 'us-irs-ein',
      regionCode: 'PA',
      status: 'done',
      completedOn: '2026-02-01',
      answer: null,
    };
    const tasks = planTasks(catalog, input({ incorporationRegion: 'NJ', incorporationDate: '2025-05-10' }, [location('PA')], [ein]));
    expect(federalOf(tasks)).toEqual(['us-irs-ein@NJ', 'us-irs-form-940@NJ']);
    expect(tasks.find((t) => t.definitionId === 'us-irs-form-940')!.blockedBy).toEqual([]);
  });

  it('explain lists the federal requirements in the anchor region, marked federal', () => {
    const [nj] = explain(catalog, input({ incorporationRegion: 'NJ', incorporationDate: '2025-05-10' }, [location('NJ')]));
    expect(nj!.requirements.filter((r) => r.federal).map((r) => [r.id, r.applies])).toEqual([
      ['us-irs-ein', true],
      ['us-irs-form-940', true],
      ['us-fincen-boi', false],
    ]);
  });
});

describe('planTasks: localities', () => {
  // The locality questions and the region's (the federal Form 940 also asks the registration date of its anchor).
  const questions = (tasks: ReturnType<typeof planTasks>) =>
    tasks.filter((t) => t.kind === 'question' && t.definitionId !== 'registration-date').map((t) => `${t.definitionId}:${t.periodKey}`);
  const answer = (locality: string, value: boolean): TaskState => ({
    kind: 'question',
    definitionId: 'in-locality',
    regionCode: 'PA',
    periodKey: locality,
    status: 'done',
    completedOn: '2026-03-02',
    answer: value,
  });

  it('asks one question per locality a requirement could need, with its id as period key', () => {
    const tasks = planTasks(catalog, input({}, [location('PA', { hasPhysicalLocation: true })]));
    expect(questions(tasks)).toEqual(['in-locality:pa-philadelphia', 'in-locality:pa-pittsburgh']);
    const question = tasks.find((t) => t.periodKey === 'pa-philadelphia')!;
    expect(question.criteriaMet[0]!.data).toMatchObject({ locality: 'pa-philadelphia', requirements: ['pa-philadelphia-wage-tax'] });
  });

  it('asks only where the rest of the criteria holds (no premises: no Pittsburgh question)', () => {
    expect(questions(planTasks(catalog, input({}, [location('PA')])))).toEqual(['in-locality:pa-philadelphia']);
    expect(questions(planTasks(catalog, input({}, [location('PA', { hasEmployees: null, employeeCount: null })])))).toEqual([
      'has-employees:once',
    ]);
  });

  it('a yes plans the local task; a no leaves none; both answered questions stay', () => {
    const tasks = planTasks(catalog, input({}, [location('PA')], [answer('pa-philadelphia', true)]));
    const wageTax = tasks.find((t) => t.definitionId === 'pa-philadelphia-wage-tax')!;
    expect(wageTax.criteriaMet.map((c) => c.reason)).toContain('The business has employees or premises in Philadelphia, Pennsylvania');
    expect(questions(tasks)).toEqual(['in-locality:pa-philadelphia']);
    expect(tasks.find((t) => t.definitionId === 'in-locality')!.criteriaMet[0]!.reason).toBe('Answered for Philadelphia, Pennsylvania');

    const no = planTasks(catalog, input({}, [location('PA')], [answer('pa-philadelphia', false)]));
    expect(no.some((t) => t.definitionId === 'pa-philadelphia-wage-tax')).toBe(false);
    expect(questions(no)).toEqual(['in-locality:pa-philadelphia']);
  });

  it('an answer counts only for its own locality', () => {
    const tasks = planTasks(catalog, input({}, [location('PA', { hasPhysicalLocation: true })], [answer('pa-philadelphia', true)]));
    expect(tasks.some((t) => t.definitionId === 'pa-pittsburgh-payroll-tax')).toBe(false);
    expect(questions(tasks)).toEqual(['in-locality:pa-pittsburgh', 'in-locality:pa-philadelphia']);
  });
});
