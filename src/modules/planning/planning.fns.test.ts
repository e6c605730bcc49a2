import { describe, expect, it } from 'vitest';
import type { TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.js';
import { reconcile } from './planning.fns.js';

const NOW = new Date('2026-11-24T00:00:00Z');
const exactBasis = { rule: 'Due the first day of the anniversary month of registration every year, from the first anniversary of registration', exact: true, questionId: null };
const estimatedBasis = { rule: `${exactBasis.rule} (estimated: …)`, exact: false, questionId: 'registration-date' };

const planned = (periodKey: string, dueDate: string, basis: PlannedTask['dueDateBasis'] = exactBasis): PlannedTask => ({
  kind: 'requirement', definitionId: 'wy-annual-report-llc', regionCode: 'WY', periodKey, periodStartDate: null, periodEndDate: dueDate, dueDate,
  dueDateBasis: basis, criteriaMet: [], blockedBy: [],
});
const stored = (id: string, t: PlannedTask, over: Partial<TaskRow> = {}): TaskRow => ({
  id, legal_entity_id: 'le_a', kind: t.kind, definition_id: t.definitionId, region_code: t.regionCode, period_key: t.periodKey,
  period_start_date: t.periodStartDate, period_end_date: t.periodEndDate, due_date: t.dueDate, status: 'todo', answer: null,
  criteria_met: [], blocked_by: [], applicable: true, acted_at: null, completed_at: null, revision: 0,
  due_date_rule: t.dueDateBasis?.rule ?? null, due_date_exact: t.dueDateBasis?.exact ?? null, due_date_question: t.dueDateBasis?.questionId ?? null,
  created_at: NOW, updated_at: NOW, ...over,
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
    const plan = reconcile([stored('task_x', planned('2027-02-01', '2027-02-01'), { status: 'in-progress', acted_at: NOW })], [estimate2027]);
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
    const plan = reconcile([stored('task_x', planned('2027-02-01', '2027-02-01')), stored('task_e', estimate2027)], [planned('2027-02-01', '2027-02-01')]);
    expect(plan.updates).toEqual([]);
    expect(plan.deletes).toEqual(['task_e']);
  });

  it('two exact dates of one year (a corrected registration date) stay distinct filings', () => {
    const plan = reconcile([stored('task_x', planned('2027-02-01', '2027-02-01'))], [planned('2027-03-01', '2027-03-01')]);
    expect(plan.deletes).toEqual(['task_x']);
    expect(plan.inserts.map((t) => t.periodKey)).toEqual(['2027-03-01']);
  });
});
