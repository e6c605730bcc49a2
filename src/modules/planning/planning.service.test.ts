import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { LocationRow, TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.types.js';
import type { TaskChange, TaskEvents } from '../events/contract.js';
import type { PlanningEntityRow, PlanningRepository } from './planning.repository.js';
import type { PlannedTaskStore } from './contract.js';
import { createPlanningService, type PlanningService } from './planning.service.js';

const catalog = loadCatalog();
const TODAY = new Date('2026-06-01T12:00:00Z');
const ENTITY: PlanningEntityRow = {
  id: 'le_a',
  platform_id: 'pl_a',
  entity_type: 'c_corp',
  tax_classification: 'corp',
  incorporation_region: 'DE',
  incorporation_date: '2022-01-15',
  accounting_year_end: 12,
  created_at: new Date('2026-01-10T00:00:00Z'),
  next_replan_on: null,
  catalog_revision: null,
};

/** The planning queries over arrays: what the service asks for and writes. */
function fakeRepository(entities: PlanningEntityRow[], locations: LocationRow[] = []) {
  const tasks: TaskRow[] = [];
  const calls: string[] = [];
  let next = 0;
  const row = (legalEntityId: string, t: PlannedTask): TaskRow => ({
    id: `task_${++next}`,
    legal_entity_id: legalEntityId,
    kind: t.kind,
    definition_id: t.definitionId,
    region_code: t.regionCode,
    period_key: t.periodKey,
    period_start_date: t.periodStartDate,
    period_end_date: t.periodEndDate,
    due_date: t.dueDate,
    status: 'todo',
    answer: null,
    criteria_met: t.criteriaMet as TaskRow['criteria_met'],
    blocked_by: t.blockedBy,
    applicable: true,
    acted_at: null,
    completed_at: null,
    revision: 0,
    due_date_rule: t.dueDateBasis?.rule ?? null,
    due_date_exact: t.dueDateBasis?.exact ?? null,
    due_date_question: t.dueDateBasis?.questionId ?? null,
    created_at: TODAY,
    updated_at: TODAY,
  });
  const repo: PlanningRepository = {
    lockEntities: async (ids) => void calls.push(`lock ${ids.join(',')}`),
    findPlanningEntities: async (ids) => entities.filter((e) => ids.includes(e.id)),
    findLocationsOf: async (ids) => locations.filter((l) => ids.includes(l.legal_entity_id)),
    findTasksOf: async (ids) => tasks.filter((t) => ids.includes(t.legal_entity_id)).map((t) => ({ ...t })),
    entityIdsAfter: async (after, limit) =>
      entities
        .map((e) => e.id)
        .filter((id) => id > after)
        .sort()
        .slice(0, limit),
    registerCatalog: async () => 1,
    claimRelease: async () => false,
    platformIds: async () => [],
    entitiesByRelease: async () => [],
    releaseOfRevision: async () => null,
    dueEntityIds: async (after, limit) =>
      entities
        .map((e) => e.id)
        .filter((id) => id > after)
        .sort()
        .slice(0, limit),
  };
  // The tasks module's side of planning's port, over the same rows.
  const store: PlannedTaskStore = {
    insertPlanned: async (_db, rows) =>
      rows.map(({ legalEntityId, task }) => {
        const created = row(legalEntityId, task);
        tasks.push(created);
        return { ...created };
      }),
    updatePlanned: async (_db, _le, id, t) => ({
      ...Object.assign(
        tasks.find((x) => x.id === id)!,
        { due_date: t.dueDate, applicable: true },
      ),
    }),
    deleteTasks: async (_db, _les, ids) => void tasks.splice(0, tasks.length, ...tasks.filter((t) => !ids.includes(t.id))),
    markNotApplicable: async (_db, _les, ids) => void tasks.filter((t) => ids.includes(t.id)).forEach((t) => (t.applicable = false)),
  };
  return { repo, store, tasks, calls };
}

/** Task events as planning reports them: what it describes and records, by kind. */
const recordedChanges: TaskChange[] = [];
const taskEvents: TaskEvents = {
  describe: async (_trx, changes) =>
    changes.map((c) => ({ type: `task.${c.kind}`, platformId: 'pl_a', legalEntityId: 'le_a', data: { object: { id: c.taskId } } })),
  record: async (_trx, changes, described = []) => {
    recordedChanges.push(...described.map((e): TaskChange => ({ taskId: String(e.data.object.id), kind: 'deleted' })), ...changes);
  },
};

const serviceOver = ({ repo, store }: { repo: PlanningRepository; store: PlannedTaskStore }) =>
  createPlanningService({
    db: {} as Db,
    catalog,
    now: () => TODAY,
    taskEvents,
    plannedTasks: store,
    plannedEntities: { recordPlanned: async () => {} },
    repositoryFor: () => repo,
    catalogRelease: null,
  });

/** A change with nothing of its own: the re-planning alone, in a fake transaction; the tasks it created. */
const replanned = async (service: Pick<PlanningService, 'change'>, ids: string[]) =>
  (await service.change(ids, async () => ({ value: null }), { within: {} as Db })).created;

describe('planning service', () => {
  it('plans an entity once: a second re-planning changes nothing and reports no task change', async () => {
    const fake = fakeRepository([ENTITY]);
    const planning = serviceOver(fake);
    recordedChanges.length = 0;
    const created = (await replanned(planning, ['le_a'])).get('le_a') ?? [];
    expect(created.length).toBeGreaterThan(0);
    // Each created task comes with its inserted row and platform, so its event needs no read-back.
    expect(recordedChanges).toEqual(created.map((t) => ({ taskId: t.id, kind: 'created', inserted: { ...t, platform_id: 'pl_a' } })));
    expect(fake.tasks.every((t) => t.region_code === 'DE')).toBe(true);
    expect((await replanned(planning, ['le_a'])).size).toBe(0);
    expect(recordedChanges).toHaveLength(created.length);
    expect(fake.tasks).toHaveLength(created.length);
  });

  it('locks each entity once, in id order, before reading anything', async () => {
    const fake = fakeRepository([{ ...ENTITY, id: 'le_b' }, ENTITY]);
    await replanned(serviceOver(fake), ['le_b', 'le_a', 'le_b']);
    expect(fake.calls).toEqual(['lock le_a,le_b']);
    // A change takes the locks once, before its work, and its re-planning does not take them again.
    const calls = fake.calls.length;
    await serviceOver(fake).change(['le_b', 'le_a'], async () => ({ value: null }), { within: {} as Db });
    expect(fake.calls.slice(calls).filter((c) => c.startsWith('lock'))).toEqual(['lock le_a,le_b']);
  });

  it('removes tasks that stop applying unless someone acted on them, which are kept as not applicable', async () => {
    const location: LocationRow = {
      legal_entity_id: 'le_a',
      region_id: regionByCode('CA')!.id,
      has_employees: true,
      has_physical_location: true,
      employee_count: 5,
      added_by: 'api',
      created_at: TODAY,
      updated_at: TODAY,
    };
    const withCa = fakeRepository([ENTITY], [location]);
    await replanned(serviceOver(withCa), ['le_a']);
    const caTasks = withCa.tasks.filter((t) => t.region_code === 'CA');
    expect(caTasks.length).toBeGreaterThan(1);
    caTasks[0]!.acted_at = TODAY;

    // The same tasks, now without the California location.
    const withoutCa = fakeRepository([ENTITY]);
    withoutCa.tasks.push(...withCa.tasks);
    recordedChanges.length = 0;
    await replanned(serviceOver(withoutCa), ['le_a']);
    expect(withoutCa.tasks.filter((t) => t.region_code === 'CA')).toEqual([
      expect.objectContaining({ id: caTasks[0]!.id, applicable: false }),
    ]);
    expect(recordedChanges).toEqual(
      expect.arrayContaining([
        ...caTasks.slice(1).map((t) => ({ taskId: t.id, kind: 'deleted' })),
        { taskId: caTasks[0]!.id, kind: 'updated', changed: ['applicable'] },
      ]),
    );
    // Only those: the federal tasks of the Delaware anchor change their reasons (no employees any more), nothing else.
    expect(recordedChanges.filter((c) => caTasks.some((t) => t.id === c.taskId))).toHaveLength(caTasks.length);
  });

  it('an unknown entity is a 404 for explain', async () => {
    await expect(serviceOver(fakeRepository([])).explain('le_nope')).rejects.toThrow("Legal entity 'le_nope' not found");
  });
});
