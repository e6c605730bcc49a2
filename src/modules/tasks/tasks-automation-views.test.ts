import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { AutomationView } from '../automations/contract.js';
import type { TasksRepository } from './tasks.repository.js';
import { createTasksService } from './tasks.service.js';

const catalog = loadCatalog();
const NOW = new Date('2026-06-01T12:00:00Z');
const scope = { platformId: 'plt_1', legalEntityId: 'le_a' };

const row = (id: string, definitionId: string): TaskRow => ({
  id,
  legal_entity_id: 'le_a',
  kind: 'requirement',
  definition_id: definitionId,
  region_code: 'CA',
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

/** Every requirement of the CA catalog as a task; the automations service records each call. */
function harness() {
  const rows = catalog.regions.get('CA')!.requirements.map((d, i) => row(`task_${i}`, d.id));
  const automatable = rows.filter((r) => catalog.requirement(r.definition_id)!.definition.resolutions.automation);
  const calls: { legalEntityId: string; ids: readonly string[] }[] = [];
  const started = { status: 'started', logs: [], outputs: null, performer: 'sandbox', statusReason: null } as unknown as AutomationView;
  const repositoryFor = (): TasksRepository => ({
    findTasks: async () => rows,
    findTask: async (_le, id) => rows.find((r) => r.id === id),
    listVersion: async () => '',
    findForEvents: async () => [],
    setStatus: async () => {
      throw new Error('not used');
    },
    setAnswer: async () => {
      throw new Error('not used');
    },
  });
  const tasks = createTasksService({
    db: {} as Db,
    catalog,
    now: () => NOW,
    repositoryFor,
    planning: {
      change: async () => {
        throw new Error('not used');
      },
    },
    locations: { updateIn: async () => undefined as never },
    automations: {
      cancelForManualStatus: async () => undefined,
      forTasks: async (legalEntityId, ids) => {
        calls.push({ legalEntityId, ids });
        return new Map([[automatable[0]!.id, started]]);
      },
    },
  });
  return { tasks, rows, automatable, calls };
}

describe('tasks service: the automations of a task list', () => {
  it('are read in one call for the whole list, only for tasks that can be automated, and attached to their task', async () => {
    const { tasks, automatable, calls, rows } = harness();
    expect(automatable.length).toBeGreaterThan(1);
    expect(automatable.length).toBeLessThan(rows.length);
    const list = await tasks.search(scope, {}, 'importance');
    expect(calls).toEqual([{ legalEntityId: 'le_a', ids: expect.arrayContaining(automatable.map((r) => r.id)) }]);
    expect(calls[0]!.ids).toHaveLength(automatable.length);
    expect(list.find((v) => v.row.id === automatable[0]!.id)?.automation?.status).toBe('started');
    expect(list.filter((v) => v.automation)).toHaveLength(1);
  });

  it('one task reads its own automation only', async () => {
    const { tasks, automatable, calls } = harness();
    await tasks.get(scope, automatable[1]!.id);
    expect(calls).toEqual([{ legalEntityId: 'le_a', ids: [automatable[1]!.id] }]);
  });
});
