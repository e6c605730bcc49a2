import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { planTasks } from './engine.js';
import type { EngineInput, TaskState } from './engine.types.js';

/**
 * Golden scenarios of the retirement-mandate family (state auto-IRA programs) over the real catalog: the employee
 * threshold of each state on both sides, the exemption of employers that offer a retirement plan (the
 * `offers-retirement-plan` question, asked once per business in its federal anchor region), no task and no question
 * without employees, and the question asked while it is unknown. Every mandate's registration deadline has passed or
 * depends on a notice or a size phase, so no due date is computed (`-`).
 */
const catalog = loadCatalog();
const today = '2026-11-22';

const MANDATES: Record<string, { id: string; threshold: number }> = {
  CA: { id: 'ca-calsavers-registration', threshold: 1 },
  CO: { id: 'co-securesavings-registration', threshold: 5 },
  CT: { id: 'ct-myctsavings-registration', threshold: 5 },
  DE: { id: 'de-earns-registration', threshold: 5 },
  IL: { id: 'il-secure-choice', threshold: 5 },
  MD: { id: 'md-marylandsaves-registration', threshold: 1 },
  ME: { id: 'me-merit-registration', threshold: 5 },
  MN: { id: 'mn-secure-choice-registration', threshold: 5 },
  NJ: { id: 'nj-retireready-registration', threshold: 25 },
  NV: { id: 'nv-nest-registration', threshold: 6 },
  NY: { id: 'ny-secure-choice-registration', threshold: 10 },
  OR: { id: 'or-oregonsaves-registration', threshold: 1 },
  RI: { id: 'ri-risavers-registration', threshold: 5 },
  VA: { id: 'va-retirepath-registration', threshold: 25 },
  VT: { id: 'vt-saves-registration', threshold: 5 },
  WA: { id: 'wa-washington-saves-registration', threshold: 5 },
};
const RELEVANT = new Set([...Object.values(MANDATES).map((m) => m.id), 'offers-retirement-plan']);

const offersPlan = (region: string, value: boolean): TaskState => ({
  kind: 'question',
  definitionId: 'offers-retirement-plan',
  regionCode: region,
  status: 'done',
  completedOn: '2026-11-20',
  answer: value,
});

/** An LLC formed in `home` with one location per entry; the retirement lines of its plan, sorted. */
function lines(home: string, locations: EngineInput['locations'], tasks: TaskState[] = []) {
  const input: EngineInput = {
    today,
    tasks,
    entity: {
      entityType: 'llc',
      taxClassification: 'partnership',
      incorporationRegion: home,
      incorporationDate: '2020-03-10',
      accountingYearEnd: 12,
      onboardedOn: '2026-11-01',
    },
    locations,
  };
  return render(planTasks(catalog, input), tasks);
}
/**
 * The retirement lines of a plan. A question answered in `tasks` stays in the plan as that (done) task whatever the
 * rest of the plan: it is the input here, so it is left out and only questions still open are shown.
 */
function render(planned: ReturnType<typeof planTasks>, tasks: TaskState[]) {
  const answered = new Set(tasks.filter((t) => t.kind === 'question').map((t) => `${t.definitionId}:${t.regionCode}`));
  return planned
    .filter((t) => RELEVANT.has(t.definitionId) && !(t.kind === 'question' && answered.has(`${t.definitionId}:${t.regionCode}`)))
    .map((t) => `${t.regionCode} ${t.kind === 'question' ? '?' : ''}${t.definitionId} ${t.dueDate ?? '-'}`)
    .sort();
}
const office = (regionCode: string, employeeCount: number) => ({
  regionCode,
  hasEmployees: employeeCount > 0,
  hasPhysicalLocation: true,
  employeeCount,
});

describe('retirement-mandate: state auto-IRA programs', () => {
  for (const [code, { id, threshold }] of Object.entries(MANDATES)) {
    describe(`${code} (${id}, ${threshold} or more employees)`, () => {
      it('asks once, in the federal anchor, whether the business offers a retirement plan', () => {
        expect(lines(code, [office(code, threshold)])).toEqual([`${code} ?offers-retirement-plan -`]);
      });

      it('plans the registration for an employer at the threshold without a plan, with no computed date', () => {
        expect(lines(code, [office(code, threshold)], [offersPlan(code, false)])).toEqual([`${code} ${id} -`]);
        expect(lines(code, [office(code, threshold + 20)], [offersPlan(code, false)])).toEqual([`${code} ${id} -`]);
      });

      it('plans nothing for an employer that offers a plan', () => {
        expect(lines(code, [office(code, threshold + 20)], [offersPlan(code, true)])).toEqual([]);
      });

      if (threshold > 1) {
        it('plans nothing, and asks nothing, below the threshold', () => {
          expect(lines(code, [office(code, threshold - 1)])).toEqual([]);
          expect(lines(code, [office(code, threshold - 1)], [offersPlan(code, false)])).toEqual([]);
        });
      }

      it('plans nothing, and asks nothing, without employees', () => {
        expect(lines(code, [office(code, 0)])).toEqual([]);
        expect(lines(code, [office(code, 0)], [offersPlan(code, false)])).toEqual([]);
      });
    });
  }

  it('Washington Saves needs a physical presence in the state: remote Washington employees alone plan nothing', () => {
    const remote = [{ regionCode: 'WA', hasEmployees: true, hasPhysicalLocation: false, employeeCount: 12 }];
    expect(lines('WA', remote, [offersPlan('WA', false)])).toEqual([]);
    expect(lines('WA', [office('WA', 12)], [offersPlan('WA', false)])).toEqual(['WA wa-washington-saves-registration -']);
  });

  it('the states without a mandate plan nothing, whatever the size', () => {
    for (const code of ['TX', 'FL', 'MA', 'NM', 'HI', 'PA']) expect(lines(code, [office(code, 40)], [offersPlan(code, false)])).toEqual([]);
  });

  it('a Delaware corporation with employees in California, New York and Texas: one question in Delaware, then each state by its own threshold', () => {
    const locations = [office('CA', 3), office('NY', 12), office('TX', 40)];
    const entity = (tasks: TaskState[]) =>
      render(
        planTasks(catalog, {
          today,
          tasks,
          entity: {
            entityType: 'c_corp',
            taxClassification: 'corp',
            incorporationRegion: 'DE',
            incorporationDate: '2019-01-15',
            accountingYearEnd: 12,
            onboardedOn: '2026-11-01',
          },
          locations,
        }),
        tasks,
      );
    // Delaware has no location: no EARNS task there, but it is the anchor where the business's question is asked.
    expect(entity([])).toEqual(['DE ?offers-retirement-plan -']);
    expect(entity([offersPlan('DE', false)])).toEqual(['CA ca-calsavers-registration -', 'NY ny-secure-choice-registration -']);
    expect(entity([offersPlan('DE', true)])).toEqual([]);
  });

  it('New York below ten employees and New Jersey and Virginia below 25: no task even without a plan', () => {
    expect(lines('NY', [office('NY', 9)], [offersPlan('NY', false)])).toEqual([]);
    expect(lines('NJ', [office('NJ', 24)], [offersPlan('NJ', false)])).toEqual([]);
    expect(lines('VA', [office('VA', 24)], [offersPlan('VA', false)])).toEqual([]);
    expect(lines('NV', [office('NV', 5)], [offersPlan('NV', false)])).toEqual([]);
  });
});
