import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { evaluate, type RegionFacts } from './criteria.js';
import { planTasks } from './engine.js';
import type { EngineInput, PlannedTask } from './engine.types.js';
import { occurrences, type ScheduleContext } from './schedule.js';

const fixture = loadCatalog(fileURLToPath(new URL('../../test/fixtures/catalog', import.meta.url)));

const facts = (over: Partial<RegionFacts> = {}): RegionFacts => ({
  regionCode: 'OR',
  regionName: 'Oregon',
  isHome: false,
  hasEmployees: true,
  hasPhysicalLocation: false,
  employeeCount: 3,
  entityType: 'llc',
  taxClassification: 's_corp',
  ...over,
});

describe('evaluate (criteria, three-valued)', () => {
  it('holds when every key holds, with a reason per condition', () => {
    const result = evaluate({ scope: 'foreign', has_employees: true, entity_types: ['llc'] }, facts());
    expect(result.value).toBe(true);
    expect(result.met.map((m) => m.key)).toEqual(['foreign-state', 'has-employees', 'entity-type']);
    expect(result.met[1]!.reason).toBe('The business has employees in Oregon');
  });

  it('false wins over unknown in an AND', () => {
    expect(evaluate({ scope: 'home', has_employees: true }, facts({ hasEmployees: null })).value).toBe(false);
  });

  it('unknown facts make it unknown and are reported', () => {
    const result = evaluate({ has_employees: true, employee_count_gte: 10 }, facts({ hasEmployees: null, employeeCount: null }));
    expect(result.value).toBeNull();
    expect([...result.unknown].sort()).toEqual(['employee_count', 'has_employees']);
  });

  it('true wins over unknown in an ANY', () => {
    const result = evaluate(
      { any: [{ has_employees: true }, { has_physical_location: true }] },
      facts({ hasEmployees: null, hasPhysicalLocation: true }),
    );
    expect(result.value).toBe(true);
    expect(result.met.map((m) => m.key)).toEqual(['has-physical-location']);
  });

  it('entity type and tax classification must be listed', () => {
    expect(evaluate({ entity_types: ['c_corp'] }, facts()).value).toBe(false);
    expect(evaluate({ tax_classifications: ['s_corp'] }, facts()).value).toBe(true);
    expect(evaluate({ entity_types: ['llc'] }, facts({ entityType: null })).value).toBe(false);
  });
});

describe('occurrences (schedules)', () => {
  const ctx = (over: Partial<ScheduleContext> = {}): ScheduleContext => ({
    registrationDate: '2020-06-15',
    operationsStartDate: null,
    fiscalYearEndMonth: 12,
    windowStart: '2026-01-01',
    windowEnd: '2027-12-31',
    ...over,
  });
  const dues = (schedule: Parameters<typeof occurrences>[0], over: Partial<ScheduleContext> = {}) =>
    occurrences(schedule, ctx(over)).occurrences.map((o) => o.dueDate);

  it('once: no due date, or N days after a known date', () => {
    expect(occurrences({ every: 'once', due: { rule: 'none' } }, ctx()).occurrences).toEqual([
      { periodKey: 'once', periodStartDate: null, periodEndDate: null, dueDate: null, basis: null },
    ]);
    expect(dues({ every: 'once', due: { rule: 'within_days', of: 'registration_date', days: 90 } })).toEqual(['2020-09-13']);
    const unknown = occurrences({ every: 'once', due: { rule: 'within_days', of: 'operations_start_date', days: 15 } }, ctx());
    // Unknown start: estimated from onboarding (2026-01-01 + 15 days), and the fact is still asked for.
    expect(unknown).toEqual({
      occurrences: [
        {
          periodKey: 'once',
          periodStartDate: null,
          periodEndDate: null,
          dueDate: '2026-01-16',
          basis: {
            rule: 'Due within 15 days of the start of operations (estimated: assumes the start of operations on 2026-01-01, the day the business was onboarded, until the operations start date is answered)',
            exact: false,
            pendingFact: 'operations_start_date',
          },
        },
      ],
      missing: ['operations_start_date'],
      nextDue: null, // a one-time filing never recurs
    });
  });

  it('fixed date every year, from the year after registration', () => {
    expect(dues({ every: '1y', due: { rule: 'fixed', month: 3, day: 1 } })).toEqual(['2026-03-01', '2027-03-01']);
    expect(dues({ every: '1y', due: { rule: 'fixed', month: 3, day: 1 } }, { registrationDate: '2026-02-10' })).toEqual(['2027-03-01']);
    expect(
      dues({ every: '1y', first: 'first-due-date', due: { rule: 'fixed', month: 3, day: 1 } }, { registrationDate: '2026-02-10' }),
    ).toEqual(['2026-03-01', '2027-03-01']);
    expect(
      dues({ every: '1y', due: { rule: 'fixed', month: 2, day: 'last' } }, { windowStart: '2027-01-01', windowEnd: '2028-12-31' }),
    ).toEqual(['2027-02-28', '2028-02-29']);
  });

  it('anniversary month: last day, same day, offset across a year end, quarter end', () => {
    expect(dues({ every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } })).toEqual([
      '2026-06-30',
      '2027-06-30',
    ]);
    expect(dues({ every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'same' } })).toEqual([
      '2026-06-15',
      '2027-06-15',
    ]);
    expect(
      dues(
        { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 1, day: 15 } },
        { registrationDate: '2019-12-03' },
      ),
    ).toEqual(['2026-01-15', '2027-01-15']);
    expect(
      dues(
        { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'quarter-end' } },
        { registrationDate: '2019-05-03' },
      ),
    ).toEqual(['2026-06-30', '2027-06-30']);
  });

  it('fiscal-year rules follow the fiscal year end', () => {
    const schedule = { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } } as const;
    expect(dues(schedule)).toEqual(['2026-04-15', '2027-04-15']);
    const june = occurrences(schedule, ctx({ fiscalYearEndMonth: 6 })).occurrences;
    expect(june.map((o) => [o.periodStartDate, o.periodEndDate, o.dueDate])).toEqual([
      ['2025-07-01', '2026-06-30', '2026-10-15'],
      ['2026-07-01', '2027-06-30', '2027-10-15'],
    ]);
  });

  it('biennial: same parity as registration by default, odd/even, or every other year from the next one', () => {
    const anniversary = { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } as const;
    expect(dues({ every: '2y', due: anniversary }, { windowEnd: '2029-12-31' })).toEqual(['2026-06-30', '2028-06-30']);
    expect(dues({ every: '2y', parity: 'odd', due: { rule: 'fixed', month: 4, day: 15 } }, { windowEnd: '2029-12-31' })).toEqual([
      '2027-04-15',
      '2029-04-15',
    ]);
    expect(
      dues(
        { every: '2y', first: 'next-year', due: { rule: 'fixed', month: 4, day: 1 } },
        { registrationDate: '2024-03-01', windowEnd: '2029-12-31' },
      ),
    ).toEqual(['2027-04-01', '2029-04-01']);
  });

  it('without the registration date, recurring filings are estimated from onboarding and the date is still asked for', () => {
    // Assumed registered 2026-01-01 (onboarding): first March 1 in the year after, 2027-03-01.
    expect(occurrences({ every: '1y', due: { rule: 'fixed', month: 3, day: 1 } }, ctx({ registrationDate: null }))).toEqual({
      occurrences: [
        {
          periodKey: 'estimated:2027',
          periodStartDate: '2026-03-02',
          periodEndDate: '2027-03-01',
          dueDate: '2027-03-01',
          basis: {
            rule: 'Due March 1 every year, from the year after registration (estimated: assumes registration on 2026-01-01, the day the business was onboarded, until the registration date is answered)',
            exact: false,
            pendingFact: 'registration_date',
          },
        },
      ],
      missing: ['registration_date'],
      nextDue: '2028-03-01', // the first past the window (2027-12-31)
    });
  });

  it('the period is the year ending on the due date (two for biennial filings)', () => {
    const [first] = occurrences({ every: '2y', due: { rule: 'fixed', month: 4, day: 1 } }, ctx()).occurrences;
    expect(first).toEqual({
      periodKey: '2026-04-01',
      periodStartDate: '2024-04-02',
      periodEndDate: '2026-04-01',
      dueDate: '2026-04-01',
      basis: { rule: 'Due April 1, every two years counted from the registration year', exact: true, pendingFact: null },
    });
  });
});

describe('planTasks', () => {
  const input = (over: Partial<EngineInput> = {}): EngineInput => ({
    entity: {
      entityType: 'c_corp',
      taxClassification: 'corp',
      incorporationRegion: 'CO',
      incorporationDate: '2021-05-20',
      accountingYearEnd: 12,
      onboardedOn: '2026-11-01',
    },
    locations: [],
    tasks: [],
    today: '2026-11-22',
    ...over,
  });
  const keys = (tasks: PlannedTask[]) => tasks.map((t) => `${t.regionCode}:${t.definitionId}:${t.periodKey}`).sort();

  it('the state of incorporation without a location: home filings only, no employer tasks, no questions', () => {
    expect(keys(planTasks(fixture, input()))).toEqual(['CO:co-annual-report-corporation:2027-05-31', 'CO:co-initial-report:once']);
  });

  it('a foreign location with employees: qualification, employer programs, and questions for the unknown dates', () => {
    const plan = planTasks(
      fixture,
      input({ locations: [{ regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 4 }] }),
    );
    const oregon = keys(plan).filter((k) => k.startsWith('OR:'));
    expect(oregon).toEqual(
      [
        'OR:employee-handbook:once',
        'OR:or-foreign-qualification:once',
        'OR:or-initial-report:once',
        'OR:or-unemployment-insurance:once',
        'OR:or-withholding:once',
        'OR:operations-start-date:once',
        'OR:registration-date:once',
      ].sort(),
    );
    const initial = plan.find((t) => t.definitionId === 'or-initial-report')!;
    expect(initial.blockedBy).toEqual(['or-foreign-qualification']);
    // 30 days after an assumed registration on the onboarding day (2026-11-01), until registration is known.
    expect(initial).toMatchObject({ dueDate: '2026-12-01', dueDateBasis: { exact: false, questionId: 'registration-date' } });
    const question = plan.find((t) => t.definitionId === 'registration-date')!;
    expect(question.kind).toBe('question');
    expect(question.criteriaMet[0]!.data.requirements).toEqual(['or-initial-report', 'or-annual-report-corporation']);
  });

  it('unknown location facts become questions, and nothing that depends on them is planned', () => {
    const plan = planTasks(
      fixture,
      input({ locations: [{ regionCode: 'OR', hasEmployees: null, hasPhysicalLocation: null, employeeCount: null }] }),
    );
    expect(keys(plan).filter((k) => k.startsWith('OR:'))).toEqual([
      'OR:employee-count:once',
      'OR:has-employees:once',
      'OR:has-physical-location:once',
    ]);
  });

  it('answers and completions feed the rules: dates, unlocks and blocking', () => {
    const locations = [{ regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 12 }];
    const tasks = [
      {
        kind: 'requirement' as const,
        definitionId: 'or-foreign-qualification',
        regionCode: 'OR',
        status: 'done',
        completedOn: '2026-11-10',
        answer: null,
      },
      {
        kind: 'question' as const,
        definitionId: 'operations-start-date',
        regionCode: 'OR',
        status: 'done',
        completedOn: '2026-11-12',
        answer: '2026-11-01',
      },
    ];
    const plan = planTasks(fixture, input({ locations, tasks }));
    const get = (id: string) => plan.filter((t) => t.definitionId === id);
    expect(get('or-initial-report')[0]).toMatchObject({ dueDate: '2026-12-10', blockedBy: [] });
    expect(get('or-withholding')[0]!.dueDate).toBe('2026-11-11');
    // Registered 2026-11-10 (the day qualification was done): first report due 2027-11-30, beyond the 12 months planned.
    expect(get('or-annual-report-corporation').map((t) => t.dueDate)).toEqual([]);
    expect(get('or-big-employer-program').map((t) => t.dueDate)).toEqual(['2027-03-15']);
    expect(get('registration-date')).toEqual([]);
    // The answered question stays, even though nothing needs it any more.
    expect(get('operations-start-date')).toHaveLength(1);
  });

  it('is deterministic', () => {
    const i = input({ locations: [{ regionCode: 'OR', hasEmployees: true, hasPhysicalLocation: null, employeeCount: null }] });
    expect(planTasks(fixture, i)).toEqual(planTasks(fixture, structuredClone(i)));
  });
});
