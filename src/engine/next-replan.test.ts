import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { addDays } from './dates.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';
import { LOOKAHEAD_DAYS, planWithNextReplan } from './next-replan.js';

const catalog = loadCatalog();
const key = (input: EngineInput) =>
  planTasks(catalog, input)
    .map((t) => JSON.stringify(t))
    .sort();

/** Businesses whose schedules differ: yearly, quarterly, biennial, estimated, one-time, answered questions. */
const profiles: Record<string, Omit<EngineInput, 'today'>> = {
  'a Delaware corporation with employees in California and New York': {
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
  },
  'a Wyoming LLC with a June year end, its registration date unknown in Texas': {
    tasks: [],
    entity: {
      entityType: 'llc',
      taxClassification: 'partnership',
      incorporationRegion: 'WY',
      incorporationDate: null,
      accountingYearEnd: 6,
      onboardedOn: '2026-02-14',
    },
    locations: [{ regionCode: 'TX', hasEmployees: false, hasPhysicalLocation: true, employeeCount: null }],
  },
  'a Nevada corporation with a biennial state filing, a foreign registration answered': {
    tasks: [
      {
        kind: 'question',
        definitionId: 'registration-date',
        regionCode: 'IA',
        status: 'done',
        completedOn: '2026-05-01',
        answer: '2019-08-20',
      },
    ],
    entity: {
      entityType: 'c_corp',
      taxClassification: 'corp',
      incorporationRegion: 'NV',
      incorporationDate: '2019-08-01',
      accountingYearEnd: 12,
      onboardedOn: '2026-05-01',
    },
    locations: [{ regionCode: 'IA', hasEmployees: true, hasPhysicalLocation: true, employeeCount: 4 }],
  },
};

describe('planWithNextReplan: the plan, and the first day it changes by the date alone', () => {
  for (const [name, profile] of Object.entries(profiles)) {
    for (const today of ['2026-11-24', '2027-01-31', '2027-06-30', '2028-02-29']) {
      it(`${name}, on ${today}`, () => {
        const input = { ...profile, today };
        const { tasks, nextReplanOn } = planWithNextReplan(catalog, input);
        // The same plan as planTasks's, in the same order.
        expect(tasks).toEqual(planTasks(catalog, input));
        expect(nextReplanOn > today).toBe(true);
        expect(nextReplanOn <= addDays(today, LOOKAHEAD_DAYS)).toBe(true);
        // Unchanged every day up to the day before; changed on it.
        const before = addDays(nextReplanOn, -1);
        expect(key({ ...input, today: before })).toEqual(key(input));
        expect(key({ ...input, today: nextReplanOn })).not.toEqual(key(input));
      });
    }
  }

  it('with no recurring filing at all: looked at again once the window reaches what was looked at', () => {
    const input: EngineInput = {
      today: '2026-11-24',
      tasks: [],
      locations: [],
      entity: {
        entityType: null,
        taxClassification: null,
        incorporationRegion: null,
        incorporationDate: null,
        accountingYearEnd: null,
        onboardedOn: '2026-11-01',
      },
    };
    expect(planWithNextReplan(catalog, input)).toEqual({ tasks: [], nextReplanOn: addDays('2026-11-24', LOOKAHEAD_DAYS) });
  });
});
