import { describe, expect, it } from 'vitest';
import type { TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.types.js';
import { isDueForRollForward, reconcile } from './planning.fns.js';

const NOW = new Date('2026-11-24T00:00:00Z');
const exactBasis = {
  rule: 'Due the first day of the anniversary month of registration every year, from the first anniversary of registration',
  exact: true,
  questionId: null,
};
const estimatedBasis = { rule: `${exactBasis.rule} (estimated: …)`, exact: false, questionId: 'registration-date' };

const planned = (periodKey: string, dueDate: string, basis: PlannedTask['dueDateBasis'] = exactBasis): PlannedTask => ({
  kind: 'requirement',
  definitionId: 'wy-annual-report-llc',
  regionCode: 'WY',
  periodKey,
  periodStartDate: null,
  periodEndDate: dueDate,
  dueDate,
  dueDateBasis: basis,
  criteriaMet: [],
  blockedBy: [],
});
const stored = (id: string, t: PlannedTask, over: Partial<TaskRow> = {}): TaskRow => ({
  id,
  legal_entity_id: 'le_a',
  kind: t.kind,
  definition_id: t.definitionId,
  region_code: t.regionCode,
  period_key: t.periodKey,
  period_start_date: t.periodStartDate,
  period_end_date: t.periodEndDate,
  due_date: t.dueDate,
  status: 'todo',
  answer: null,
  criteria_met: [],
  blocked_by: [],
  applicable: true,
  acted_at: null,
  completed_at: null,
  revision: 0,
  due_date_rule: t.dueDateBasis?.rule ?? null,
  due_date_exact: t.dueDateBasis?.exact ?? null,
  due_date_question: t.dueDateBasis?.questionId ?? null,
  created_at: NOW,
  updated_at: NOW,
  ...over,
});

describe('reconcile: an estimated filing and its exact date are one task', () => {
  const estimate2027 = planned('estimated:2027', '2027-03-01', estimatedBasis);

  it('the exact filing due the same year takes over the estimated task (an update, with its new key and date)', () => {
    const plan = reconcile([stored('task_e', estimate2027)], [planned('2027-02-01', '2027-02-01')]);
    expect(plan).toMatchObject({ inserts: [], deletes: [], notApplicable: [] });
    expect(plan.updates).toHaveLength(1);
    expect(plan.updates[0]!.id).toBe('task_e');
    expect(plan.updates[0]!.task.periodKey).toBe('2027-02-01');
    expect(plan.updates[0]!.changed).toEqual(['period_end_date', 'due_date', 'due_date_basis']);
  });

  it('and back: a withdrawn fact turns the exact task into the estimate of its year', () => {
    const plan = reconcile(
      [stored('task_x', planned('2027-02-01', '2027-02-01'), { status: 'in-progress', acted_at: NOW })],
      [estimate2027],
    );
    expect(plan.updates.map((u) => [u.id, u.task.periodKey])).toEqual([['task_x', 'estimated:2027']]);
    expect(plan.inserts).toEqual([]);
  });

  it('another year is another filing: the estimate goes, the exact one is new', () => {
    const plan = reconcile([stored('task_e', estimate2027)], [planned('2028-02-01', '2028-02-01')]);
    expect(plan.deletes).toEqual(['task_e']);
    expect(plan.inserts.map((t) => t.periodKey)).toEqual(['2028-02-01']);
  });

  it('a task matching its own key is never given to another occurrence', () => {
    // Stored: the exact 2027 task and a stale estimate of 2027; planned: the exact 2027 one only.
    const plan = reconcile(
      [stored('task_x', planned('2027-02-01', '2027-02-01')), stored('task_e', estimate2027)],
      [planned('2027-02-01', '2027-02-01')],
    );
    expect(plan.updates).toEqual([]);
    expect(plan.deletes).toEqual(['task_e']);
  });

  it('two exact dates of one year (a corrected registration date) stay distinct filings', () => {
    const plan = reconcile([stored('task_x', planned('2027-02-01', '2027-02-01'))], [planned('2027-03-01', '2027-03-01')]);
    expect(plan.deletes).toEqual(['task_x']);
    expect(plan.inserts.map((t) => t.periodKey)).toEqual(['2027-03-01']);
  });
});

describe('reconcile: a federal task follows its anchor region', () => {
  const federal = (definitionId: string, regionCode: string, periodKey = 'once', dueDate: string | null = null): PlannedTask => ({
    kind: 'requirement',
    definitionId,
    regionCode,
    periodKey,
    periodStartDate: null,
    periodEndDate: dueDate,
    dueDate,
    dueDateBasis: dueDate ? exactBasis : null,
    criteriaMet: [],
    blockedBy: [],
  });

  it('the planned task in the new anchor takes over the stale one in the old: an update moving its region, status kept', () => {
    const done = stored('task_ein', federal('us-irs-ein', 'TX'), { status: 'done', acted_at: NOW, completed_at: NOW });
    const q4 = stored('task_941', federal('us-irs-form-941', 'TX', '2026-Q4', '2027-01-31'), { status: 'in-progress', acted_at: NOW });
    const plan = reconcile([done, q4], [federal('us-irs-ein', 'DE'), federal('us-irs-form-941', 'DE', '2026-Q4', '2027-01-31')]);
    expect(plan).toMatchObject({ inserts: [], deletes: [], notApplicable: [] });
    expect(plan.updates.map((u) => [u.id, u.task.regionCode, u.changed])).toEqual([
      ['task_ein', 'DE', ['region']],
      ['task_941', 'DE', ['region']],
    ]);
  });

  it('the estimate of a year in the old anchor is the exact filing of that year in the new one (its registration date known)', () => {
    const estimate = stored(
      'task_940',
      { ...federal('us-irs-form-940', 'TX', 'estimated:2027', '2027-01-31'), dueDateBasis: estimatedBasis },
      { status: 'in-progress', acted_at: NOW },
    );
    const plan = reconcile([estimate], [federal('us-irs-form-940', 'DE', '2027-01-31', '2027-01-31')]);
    expect(plan).toMatchObject({ inserts: [], deletes: [], notApplicable: [] });
    expect(plan.updates.map((u) => [u.id, u.task.regionCode, u.task.periodKey, u.changed])).toEqual([
      ['task_940', 'DE', '2027-01-31', ['region', 'due_date_basis']],
    ]);
  });

  it('only the same definition and period key: another quarter is another filing', () => {
    const q3 = stored('task_q3', federal('us-irs-form-941', 'TX', '2026-Q3', '2026-10-31'));
    const plan = reconcile([q3], [federal('us-irs-form-941', 'DE', '2026-Q4', '2027-01-31')]);
    expect(plan.updates).toEqual([]);
    expect(plan.deletes).toEqual(['task_q3']);
    expect(plan.inserts.map((t) => `${t.regionCode}:${t.periodKey}`)).toEqual(['DE:2026-Q4']);
  });

  it('an exact match in the new region wins; the stale copy in the old one is retired as before', () => {
    const old = stored('task_tx', federal('us-irs-ein', 'TX'), { status: 'done', acted_at: NOW });
    const current = stored('task_de', federal('us-irs-ein', 'DE'));
    const plan = reconcile([old, current], [federal('us-irs-ein', 'DE')]);
    expect(plan.updates).toEqual([]);
    expect(plan.notApplicable).toEqual(['task_tx']);
  });

  it('of several stale copies, one that still applies moves (a retired one stays retired)', () => {
    const retired = stored('task_pa', federal('us-irs-ein', 'PA'), { status: 'done', acted_at: NOW, applicable: false });
    const live = stored('task_nj', federal('us-irs-ein', 'NJ'));
    const plan = reconcile([retired, live], [federal('us-irs-ein', 'DE')]);
    expect(plan.updates.map((u) => u.id)).toEqual(['task_nj']);
    expect(plan.deletes).toEqual([]);
    expect(plan.notApplicable).toEqual([]);
  });

  it('a region requirement never moves: its region is part of what it is', () => {
    const wy = stored('task_wy', planned('2027-02-01', '2027-02-01'));
    const plan = reconcile([wy], [{ ...planned('2027-02-01', '2027-02-01'), regionCode: 'DE' }]);
    expect(plan.updates).toEqual([]);
    expect(plan.deletes).toEqual(['task_wy']);
  });
});

describe('reconcile: a due-date basis filled in for the first time is not shown', () => {
  it('stored before the basis existed (rule null), same date: updated silently', () => {
    const legacy = stored('task_x', planned('2027-02-01', '2027-02-01'), {
      due_date_rule: null,
      due_date_exact: null,
      due_date_question: null,
    });
    const plan = reconcile([legacy], [planned('2027-02-01', '2027-02-01')]);
    expect(plan.updates).toEqual([{ id: 'task_x', task: planned('2027-02-01', '2027-02-01'), changed: [] }]);
  });

  it('filled in with a new date: the date and its basis show', () => {
    const legacy = stored('task_x', planned('2027-02-01', '2027-02-01'), {
      due_date_rule: null,
      due_date_exact: null,
      due_date_question: null,
      due_date: '2027-01-15',
    });
    expect(reconcile([legacy], [planned('2027-02-01', '2027-02-01')]).updates[0]!.changed).toEqual(['due_date', 'due_date_basis']);
  });

  it('a real change of basis still shows: exact to estimated, or the rule in other words', () => {
    const exact = stored('task_x', planned('2027-02-01', '2027-02-01'));
    const estimated = { ...exactBasis, exact: false, questionId: 'registration-date' };
    expect(reconcile([exact], [planned('2027-02-01', '2027-02-01', estimated)]).updates[0]!.changed).toEqual(['due_date_basis']);
    const reworded = { ...exactBasis, rule: 'Due February 1 every year' };
    expect(reconcile([exact], [planned('2027-02-01', '2027-02-01', reworded)]).updates[0]!.changed).toEqual(['due_date_basis']);
  });
});

describe('isDueForRollForward: which entities the daily roll-forward re-plans (this process plans with catalog revision 5)', () => {
  const due = (next_replan_on: string | null, catalog_revision: number | null) =>
    isDueForRollForward({ next_replan_on, catalog_revision }, '2026-11-24', 5);
  it('its window gains an occurrence today or earlier: due; later: not', () => {
    expect(due('2026-11-24', 5)).toBe(true);
    expect(due('2026-03-01', 5)).toBe(true);
    expect(due('2026-11-25', 5)).toBe(false);
  });
  it('planned with an older catalog, or never since the roll-forward became incremental: due', () => {
    expect(due('2027-05-01', 4)).toBe(true);
    expect(due(null, null)).toBe(true);
    expect(due('2027-05-01', null)).toBe(true);
  });
  it('planned with a newer catalog (a process of the next release, or after a rollback): only when its window gains an occurrence', () => {
    expect(due('2027-05-01', 6)).toBe(false);
    expect(due('2026-11-01', 6)).toBe(true);
    expect(due('2026-11-24', 6)).toBe(true);
  });
});
