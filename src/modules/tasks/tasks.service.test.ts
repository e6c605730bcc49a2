import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import { ConflictError, InvalidInputError } from '../../lib/errors.js';
import type { Replanner } from '../planning/contract.js';
import type { TasksRepository } from './tasks.repository.js';
import { createTasksService } from './tasks.service.js';

const catalog = loadCatalog();
const NOW = new Date('2026-06-01T12:00:00Z');
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };

const question = (fact: string): TaskRow => ({
  id: `task_${fact}`,
  legal_entity_id: 'le_a',
  kind: 'question',
  definition_id: catalog.questions.find((q) => q.fact === fact)!.id,
  region_code: 'NY',
  period_key: 'once',
  period_start_date: null,
  period_end_date: null,
  due_date: null,
  status: 'todo',
  answer: null,
  criteria_met: [],
  blocked_by: [],
  applicable: true,
  acted_at: null,
  completed_at: null,
  revision: 0,
  due_date_rule: null,
  due_date_exact: null,
  due_date_question: null,
  created_at: NOW,
  updated_at: NOW,
});

/**
 * The tasks service over fakes: a database whose transactions are recorded objects, an in-memory repository,
 * a planning that records its calls (and "plans" one new task), and a locations service that may refuse.
 */
function harness(options: { refuseLocation?: boolean } = {}) {
  const requirementId = catalog.regions.get('CA')!.requirements.find((r) => !r.resolutions.automation)!.id;
  const rows: TaskRow[] = [
    question('has_employees'),
    question('registration_date'),
    { ...question('has_employees'), id: 'task_req', kind: 'requirement', definition_id: requirementId, region_code: 'CA', status: 'done' },
  ];
  const events: string[] = [];
  let transactions = 0;
  const db = {
    transaction: () => ({ execute: async <T>(fn: (trx: Db) => Promise<T>) => fn({ trx: ++transactions } as unknown as Db) }),
  } as unknown as Db;
  const trxOf = (trx: Db) => (trx as unknown as { trx?: number }).trx ?? 'db';
  const repositoryFor = (on: Db): TasksRepository => ({
    findTasks: async () => rows.map((r) => ({ ...r })),
    findTask: async (_le, id) => rows.find((r) => r.id === id),
    listVersion: async () => '',
    findForEvents: async () => [],
    setStatus: async (_le, id, status) => {
      events.push(`setStatus ${status} in ${trxOf(on)}`);
      const row = rows.find((r) => r.id === id)!;
      Object.assign(row, { status });
      return row;
    },
    setAnswer: async (_le, id, answer, status) => {
      events.push(`setAnswer in ${trxOf(on)}`);
      const row = rows.find((r) => r.id === id)!;
      Object.assign(row, { answer, status });
      return row;
    },
  });
  // planning.change: one transaction, the lock, the work, then (unless it says not to) a re-planning that "plans" one task.
  const planning: Replanner = {
    change: async (entities, work) => {
      const trx = { trx: ++transactions } as unknown as Db;
      events.push(`lock in ${trxOf(trx)}`);
      const outcome = await work(trx, entities as string[]);
      const created = new Map<string, TaskRow[]>();
      if (outcome.replan !== false) {
        events.push(`replan in ${trxOf(trx)}`);
        const row: TaskRow = {
          ...question('registration_date'),
          id: 'task_new',
          kind: 'requirement',
          definition_id: catalog.regions.get('NY')!.requirements[0]!.id,
        };
        rows.push(row);
        created.set('le_a', [row]);
      }
      return { value: outcome.value, created, updated: new Map() };
    },
  };
  const locations = {
    updateIn: async (trx: Db) => {
      events.push(`location in ${trxOf(trx)}`);
      if (options.refuseLocation) throw new ConflictError('payroll owns it');
      return { location: undefined as never, event: null };
    },
  };
  const tasks = createTasksService({
    db,
    catalog,
    now: () => NOW,
    planning,
    locations,
    repositoryFor,
    automations: {
      forTasks: async () => new Map(),
      cancelForManualStatus: async (trx, _scope, id, status) => void events.push(`cancel automation of ${id} (${status}) in ${trxOf(trx)}`),
    },
  });
  return { tasks, events, rows };
}

describe('tasks service: answering a question', () => {
  it('stores the answer, applies the location fact and re-plans once, all in one transaction; reports what it unlocked', async () => {
    const { tasks, events } = harness();
    const { task, unlocked } = await tasks.answer(scope, 'task_has_employees', true);
    expect(events).toEqual(['lock in 1', 'setAnswer in 1', 'location in 1', 'replan in 1']);
    expect(task.row).toMatchObject({ answer: true, status: 'done' });
    expect(unlocked.map((v) => v.row.id)).toEqual(['task_new']);
  });

  it("a fact that is not a location's re-plans once without touching locations", async () => {
    const { tasks, events } = harness();
    await tasks.answer(scope, 'task_registration_date', '2024-02-29');
    expect(events).toEqual(['lock in 1', 'setAnswer in 1', 'replan in 1']);
  });

  it('a refused location change stops before re-planning; the error reaches the caller (the transaction rolls back)', async () => {
    const { tasks, events } = harness({ refuseLocation: true });
    await expect(tasks.answer(scope, 'task_has_employees', true)).rejects.toThrow('payroll owns it');
    expect(events).toEqual(['lock in 1', 'setAnswer in 1', 'location in 1']);
  });

  it('an answer that does not fit the question names the input fact, before any write', async () => {
    const { tasks, events } = harness();
    const error = await tasks.answer(scope, 'task_has_employees', 'yes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ path: ['answer'], reason: 'this question takes a boolean answer (true or false)' });
    // Checked on the task read once, under the lock.
    expect(events).toEqual(['lock in 1']);
  });
});

describe('tasks service: undoing a status change', () => {
  it('puts back the replaced status, even one a person may not pick by hand (done → in progress), checked and re-planned in one transaction', async () => {
    const { tasks, events, rows } = harness();
    const { task } = await tasks.undoStatus(scope, 'task_req', { from: 'done', to: 'in-progress' });
    expect(task.row.status).toBe('in-progress');
    expect(events).toEqual(['lock in 1', 'setStatus in-progress in 1', 'replan in 1']);
    expect(rows.find((r) => r.id === 'task_req')!.status).toBe('in-progress');
  });

  it('undoing into done stops a live automation, as marking it done does, in the same transaction', async () => {
    const { tasks, events, rows } = harness();
    rows.find((r) => r.id === 'task_req')!.status = 'todo';
    await tasks.undoStatus(scope, 'task_req', { from: 'todo', to: 'done' });
    expect(events).toEqual(['lock in 1', 'cancel automation of task_req (done) in 1', 'setStatus done in 1', 'replan in 1']);
  });

  it('refuses when the task moved on since (409), changing nothing', async () => {
    const { tasks, events } = harness();
    await expect(tasks.undoStatus(scope, 'task_req', { from: 'in-progress', to: 'todo' })).rejects.toBeInstanceOf(ConflictError);
    expect(events).toEqual(['lock in 1']);
  });

  it('refuses a pair no change leads to (an undo reverses a real change), and questions', async () => {
    const { tasks, events } = harness();
    // No allowed change goes from dismissed to done, so done cannot be an "undo" back to dismissed.
    await expect(tasks.undoStatus(scope, 'task_req', { from: 'done', to: 'dismissed' })).rejects.toThrow(/no change leads that way/);
    await expect(tasks.undoStatus(scope, 'task_req', { from: 'done', to: 'done' })).rejects.toBeInstanceOf(ConflictError);
    await expect(tasks.undoStatus(scope, 'task_has_employees', { from: 'todo', to: 'done' })).rejects.toThrow(/is a question/);
    expect(events).toEqual(['lock in 1', 'lock in 2', 'lock in 3']);
  });
});
