import type { Catalog } from '../../catalog/catalog.js';
import type { QuestionDefinition } from '../../catalog/catalog.schema.js';
import { regionByCode, regionById } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { LocationRow, TaskRow } from '../../db/schema.js';
import { explain, planTasks, type EngineInput, type PlannedTask } from '../../engine/engine.js';
import { toIso } from '../../engine/dates.js';
import { ConflictError, NotFoundError, fieldError } from '../../lib/errors.js';
import type { AccessScope } from '../../http/principals.js';
import type { LocationConfigChange } from '../locations/locations.fns.js';
import { canTransition, compareByImportance, compareDue, matchesFilter, type TaskFilter, type TaskStatus } from './tasks.fns.js';
import { traitsOf, type TaskView } from './task-view.js';
import { createTasksRepository, identityOf, plannedIdentity, type CreatedTask, type PlanningEntityRow } from './tasks.repository.js';

export type { TaskView };

export interface TasksDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  /** Applies a location fact a question collected (wired to the locations service). */
  applyLocationChange: (scope: AccessScope, regionCode: string, change: LocationConfigChange) => Promise<unknown>;
}

const LOCATION_FACTS = { has_employees: 'has_employees', has_physical_location: 'has_physical_location', employee_count: 'employee_count' } as const;

export function createTasksService(deps: TasksDeps) {
  const { db, catalog } = deps;
  const today = () => toIso(deps.now());

  /** What the engine needs about one entity, from its stored rows. */
  function toEngineInput(entity: PlanningEntityRow, locations: LocationRow[], tasks: TaskRow[]): EngineInput {
    return {
      entity: {
        entityType: entity.entity_type,
        taxClassification: entity.tax_classification,
        incorporationRegion: entity.incorporation_region,
        incorporationDate: entity.incorporation_date,
        accountingYearEnd: entity.accounting_year_end,
        onboardedOn: toIso(entity.created_at),
      },
      locations: locations.map((l) => ({
        regionCode: regionById(l.region_id)?.code ?? l.region_id,
        hasEmployees: l.has_employees,
        hasPhysicalLocation: l.has_physical_location,
        employeeCount: l.employee_count,
      })),
      tasks: tasks.map((t) => ({
        kind: t.kind,
        definitionId: t.definition_id,
        regionCode: t.region_code,
        status: t.status,
        completedOn: t.completed_at ? toIso(t.completed_at) : null,
        answer: t.answer,
      })),
      today: today(),
    };
  }

  /**
   * Brings the stored tasks of these entities in line with the rules: adds what applies, updates dates
   * and reasons, removes untouched tasks that no longer apply and keeps (marked not applicable) those
   * someone acted on. One transaction; entities are locked in id order, so concurrent regenerations
   * of the same entity run one after the other and cannot duplicate or lose anything.
   */
  async function regenerateMany(legalEntityIds: string[]): Promise<Map<string, CreatedTask[]>> {
    const ids = [...new Set(legalEntityIds)].sort();
    if (ids.length === 0) return new Map();
    return db.transaction().execute(async (trx) => {
      const repo = createTasksRepository(trx);
      await repo.lockEntities(ids);
      const entities = await repo.findPlanningEntities(ids);
      const locations = groupBy(await repo.findLocationsOf(ids), (l) => l.legal_entity_id);
      const existingTasks = groupBy(await repo.findTasksOf(ids), (t) => t.legal_entity_id);
      const inserts: { legalEntityId: string; task: PlannedTask }[] = [];
      const deletes: string[] = [];
      const notApplicable: string[] = [];
      for (const entity of entities) {
        const existing = existingTasks.get(entity.id) ?? [];
        const planned = planTasks(catalog, toEngineInput(entity, locations.get(entity.id) ?? [], existing));
        const byIdentity = new Map(existing.map((t) => [identityOf(t), t]));
        for (const task of planned) {
          const current = byIdentity.get(plannedIdentity(task));
          if (!current) inserts.push({ legalEntityId: entity.id, task });
          else {
            byIdentity.delete(plannedIdentity(task));
            if (changed(current, task)) await repo.updatePlanned(current.id, task);
          }
        }
        for (const stale of byIdentity.values()) {
          if (!stale.acted_at) deletes.push(stale.id);
          else if (stale.applicable) notApplicable.push(stale.id);
        }
      }
      await repo.deleteTasks(deletes);
      await repo.markNotApplicable(notApplicable);
      return groupBy(await repo.insertPlanned(inserts), (t) => t.legal_entity_id);
    });
  }

  async function regenerate(legalEntityId: string): Promise<{ created: CreatedTask[] }> {
    return { created: (await regenerateMany([legalEntityId])).get(legalEntityId) ?? [] };
  }

  function view(row: TaskRow): TaskView | null {
    const region = regionByCode(row.region_code);
    if (!region) return null;
    if (row.kind === 'question') {
      const question = catalog.questions.find((q) => q.id === row.definition_id);
      return question ? { row, kind: 'question', region, question } : null;
    }
    const found = catalog.requirement(row.definition_id);
    return found ? { row, kind: 'requirement', region, definition: found.definition, agency: found.agency } : null;
  }

  /** Views of stored tasks, with the automation of each requirement (one query for the list). */
  async function views(rows: TaskRow[]): Promise<TaskView[]> {
    const out = rows.map(view).filter((v): v is TaskView => v !== null);
    if (out.length === 0) return out;
    const automations = await db.selectFrom('task_automations').selectAll().where('legal_entity_id', '=', out[0]!.row.legal_entity_id).execute();
    const byTask = new Map(automations.map((a) => [a.task_id, a]));
    for (const v of out) if (v.kind === 'requirement') v.automation = byTask.get(v.row.id);
    return out;
  }

  async function requireTask(scope: AccessScope, id: string): Promise<TaskView> {
    const row = await createTasksRepository(db).findTask(scope.legalEntityId, id);
    const found = row ? (await views([row]))[0] : undefined;
    if (!found) throw new NotFoundError(`Task '${id}' not found`);
    return found;
  }

  /** Runs a change, regenerates, and reports the tasks that did not exist before it. */
  async function withUnlocked(scope: AccessScope, change: () => Promise<void>): Promise<TaskView[]> {
    const before = new Set((await createTasksRepository(db).findTasks(scope.legalEntityId)).map((t) => t.id));
    await change();
    await regenerate(scope.legalEntityId);
    const after = await createTasksRepository(db).findTasks(scope.legalEntityId);
    return await views(after.filter((t) => !before.has(t.id)));
  }

  return {
    regenerate,
    regenerateMany,
    today,

    /** Operator view (CLI): which requirements apply to an entity and why, with the tasks planned. */
    async explain(legalEntityId: string) {
      const repo = createTasksRepository(db);
      const [entity] = await repo.findPlanningEntities([legalEntityId]);
      if (!entity) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
      const input = toEngineInput(entity, await repo.findLocationsOf([legalEntityId]), await repo.findTasks(legalEntityId));
      return { regions: explain(catalog, input), planned: planTasks(catalog, input) };
    },

    get: requireTask,

    /** Filtered and ordered: by importance (GET /tasks) or by due date with undated first (per location). */
    async search(scope: AccessScope, filter: TaskFilter, order: 'importance' | 'due-date'): Promise<TaskView[]> {
      const rows = await createTasksRepository(db).findTasks(scope.legalEntityId);
      const selected = (await views(rows.filter((r) => r.applicable || r.acted_at))).filter((v) =>
        matchesFilter({ ...traitsOf(v), dueDate: v.row.due_date, status: v.row.status, regionCode: v.region.code, kind: v.kind }, filter));
      // Sort keys are computed once per task, not on every comparison.
      const byImportance = compareByImportance(today());
      const keyed = selected.map((v) => ({ v, key: { ...traitsOf(v), status: v.row.status, dueDate: v.row.due_date, regionCode: v.region.code } }));
      keyed.sort((a, b) =>
        order === 'importance'
          ? byImportance(a.key, b.key)
          : compareDue(a.v.row.due_date, b.v.row.due_date, 'first') || byImportance(a.key, b.key));
      return keyed.map((k) => k.v);
    },

    async updateStatus(scope: AccessScope, id: string, status: TaskStatus) {
      const task = await requireTask(scope, id);
      if (task.kind === 'question') {
        throw new ConflictError(`Task '${id}' is a question: answer it with PATCH /v2/tasks/questions/${id} instead of setting its status`);
      }
      if (!canTransition(task.row.status, status)) {
        throw new ConflictError(`Task '${id}' cannot move from ${task.row.status} to ${status}; reopen it (status todo) first`);
      }
      let updated = task.row;
      const unlocked = await withUnlocked(scope, async () => {
        if (status === task.row.status) return;
        const completedAt = status === 'done' ? deps.now() : null;
        updated = await createTasksRepository(db).setStatus(scope.legalEntityId, id, status, completedAt);
      });
      return { task: (await requireTask(scope, updated.id)), unlocked };
    },

    /** Answers a question task: validates the answer, applies the fact, regenerates. */
    async answer(scope: AccessScope, id: string, answer: unknown) {
      const task = await requireTask(scope, id);
      if (task.kind !== 'question') throw new NotFoundError(`Question task '${id}' not found`);
      const value = checkAnswer(task.question, answer);
      const unlocked = await withUnlocked(scope, async () => {
        const repo = createTasksRepository(db);
        // Answer first: an answered question is kept when the fact it collected becomes known.
        await repo.setAnswer(scope.legalEntityId, id, value);
        const fact = task.question.fact;
        try {
          if (fact in LOCATION_FACTS) await deps.applyLocationChange(scope, task.region.code, { [fact]: value });
        } catch (error) {
          await repo.restore(task.row);
          throw error;
        }
      });
      return { task: await requireTask(scope, id), unlocked };
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function changed(current: TaskRow, planned: { dueDate: string | null; periodStartDate: string | null; periodEndDate: string | null; criteriaMet: unknown; blockedBy: string[] }) {
  return current.due_date !== planned.dueDate ||
    current.period_start_date !== planned.periodStartDate ||
    current.period_end_date !== planned.periodEndDate ||
    !current.applicable ||
    canonical(current.criteria_met) !== canonical(planned.criteriaMet) ||
    canonical(current.blocked_by) !== canonical(planned.blockedBy);
}

/** JSON with object keys sorted: jsonb reorders keys, so a stored value reads back in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
}

/** An answer must fit the question: a boolean, a non-negative whole number, or a date (YYYY-MM-DD). */
export function checkAnswer(question: QuestionDefinition, answer: unknown): boolean | number | string {
  const fail = (msg: string) => fieldError(['body', 'answer'], msg, answer);
  switch (question.answer_type) {
    case 'boolean':
      if (typeof answer !== 'boolean') throw fail('this question takes a boolean answer (true or false)');
      return answer;
    case 'number':
      if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer > 10_000_000) {
        throw fail('this question takes a whole number from 0 to 10000000');
      }
      return answer;
    case 'date':
      if (typeof answer !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(answer) || Number.isNaN(Date.parse(`${answer}T00:00:00Z`)) || toIso(new Date(`${answer}T00:00:00Z`)) !== answer) {
        throw fail('this question takes a date (YYYY-MM-DD)');
      }
      return answer;
  }
}
