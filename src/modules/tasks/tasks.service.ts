import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import { toIso } from '../../engine/dates.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { AccessScope } from '../../http/principals.js';
import type { LocationsService } from '../locations/contract.js';
import { REAL_TIME, type EntityClock, type Replanner, type ReplanCause } from '../planning/contract.js';
import { checkAnswer, locationChangeOf } from './task-answers.js';
import {
  canTransition,
  compareByImportance,
  compareDue,
  matchesFilter,
  TRANSITIONS,
  type TaskFilter,
  type TaskStatus,
} from './tasks.fns.js';
import { taskViewOf, traitsOf, type TaskView } from './task-view.js';
import type { AutomationsService, ManualActor } from '../automations/contract.js';
import { createTasksRepository, type TasksRepository } from './tasks.repository.js';

export type { TaskView };

export interface TasksDeps {
  /** Opens the transactions; queries go through the repository. */
  db: Db;
  catalog: Catalog;
  now: () => Date;
  /** A status change or an answer re-plans the entity's tasks in its transaction. */
  planning: Replanner;
  /** A question that collects a location fact updates the location (its rules, like the payroll lock, apply). */
  locations: Pick<LocationsService, 'updateIn'>;
  /** The latest automation of each task of a list (task records and pages show its status). */
  automations: Pick<AutomationsService, 'forTasks' | 'cancelForManualStatus'>;
  /** Each entity's "now" (its test clock, docs/test-clocks.md); default: real time. */
  clock?: EntityClock;
  repositoryFor?: (db: Db) => TasksRepository;
}

export function createTasksService(deps: TasksDeps) {
  const { db, catalog, planning } = deps;
  const repositoryFor = deps.repositoryFor ?? createTasksRepository;
  const clock = deps.clock ?? REAL_TIME;
  /** The entity's today: its test clock's date, else the real date (one indexed lookup; none in production). */
  const todayOf = async (legalEntityId: string, within: Db = db): Promise<string> =>
    toIso((await clock.frozen(within, [legalEntityId])).get(legalEntityId) ?? deps.now());

  const view = (row: TaskRow) => taskViewOf(catalog, row);

  /** Views of stored tasks, with the latest automation of each requirement (one call for the whole list). */
  async function views(rows: TaskRow[]): Promise<TaskView[]> {
    const out = rows.map(view).filter((v): v is TaskView => v !== null);
    const requirements = out.filter((v) => v.kind === 'requirement' && v.definition.resolutions.automation);
    if (requirements.length === 0) return out;
    const latest = await deps.automations.forTasks(
      requirements[0]!.row.legal_entity_id,
      requirements.map((v) => v.row.id),
    );
    for (const v of requirements) if (v.kind === 'requirement') v.automation = latest.get(v.row.id);
    return out;
  }

  async function requireTask(scope: AccessScope, id: string): Promise<TaskView> {
    const row = await repositoryFor(db).findTask(scope.legalEntityId, id);
    const found = row ? (await views([row]))[0] : undefined;
    if (!found) throw new NotFoundError(`Task '${id}' not found`);
    return found;
  }

  /**
   * planning.change for one task: under the entity's planning lock (taken once) the task is read once, checked and
   * changed; then one re-planning. Answers the task as the change left it (the re-planning's row when it updated it
   * too) and the tasks the change unlocked (those the re-planning created); a failure anywhere rolls all of it back.
   */
  async function changeTask(
    scope: AccessScope,
    id: string,
    change: (trx: Db, task: TaskView) => Promise<{ row: TaskRow; cause: ReplanCause }>,
  ): Promise<{ task: TaskView; unlocked: TaskView[] }> {
    const { value, created, updated } = await planning.change([scope.legalEntityId], async (trx) => {
      const found = await repositoryFor(trx).findTask(scope.legalEntityId, id);
      const task = found && view(found);
      if (!task) throw new NotFoundError(`Task '${id}' not found`);
      // The change's events are recorded by the re-planning, with its own, in one insert.
      const { row, cause } = await change(trx, task);
      return { value: row, cause };
    });
    // One read of the automations for the task and the tasks it unlocked.
    const [task, ...unlocked] = await views([updated.get(id) ?? value, ...(created.get(scope.legalEntityId) ?? [])]);
    return { task: task!, unlocked };
  }

  return {
    todayOf,

    get: requireTask,

    /** Filtered and ordered: by importance (GET /tasks) or by due date with undated first (per location). */
    async search(scope: AccessScope, filter: TaskFilter, order: 'importance' | 'due-date'): Promise<TaskView[]> {
      const rows = await repositoryFor(db).findTasks(scope.legalEntityId);
      const selected = (await views(rows.filter((r) => r.applicable || r.acted_at))).filter((v) =>
        matchesFilter({ ...traitsOf(v), dueDate: v.row.due_date, status: v.row.status, regionCode: v.region.code, kind: v.kind }, filter),
      );
      // Sort keys are computed once per task, not on every comparison.
      const byImportance = compareByImportance(await todayOf(scope.legalEntityId));
      const keyed = selected.map((v) => ({
        v,
        key: { ...traitsOf(v), status: v.row.status, dueDate: v.row.due_date, regionCode: v.region.code },
      }));
      keyed.sort((a, b) =>
        order === 'importance'
          ? byImportance(a.key, b.key)
          : compareDue(a.v.row.due_date, b.v.row.due_date, 'first') || byImportance(a.key, b.key),
      );
      return keyed.map((k) => k.v);
    },

    /**
     * A status change can unlock tasks (requirements waiting for this one), so it re-plans. Done or dismissed
     * by hand cancels the task's live automation in the same transaction.
     */
    async updateStatus(scope: AccessScope, id: string, status: TaskStatus, actor: ManualActor = 'platform') {
      return changeTask(scope, id, async (trx, task) => {
        if (task.kind === 'question') {
          // The wire text names the operation that answers (kept as documented; see
          // docs/decisions/0018-planning-one-owner-of-re-planning.md).
          throw new ConflictError(
            `Task '${id}' is a question: answer it with PATCH /v2/tasks/questions/${id} instead of setting its status`,
          );
        }
        if (!canTransition(task.row.status, status)) {
          throw new ConflictError(`Task '${id}' cannot move from ${task.row.status} to ${status}; reopen it (status todo) first`);
        }
        if (status === task.row.status) return { row: task.row, cause: {} };
        if (status === 'done' || status === 'dismissed') await deps.automations.cancelForManualStatus(trx, scope, id, status, actor);
        const row = await repositoryFor(trx).setStatus(scope.legalEntityId, id, status, status === 'done' ? deps.now() : null);
        return { row, cause: { tasks: [{ taskId: id, kind: 'updated', changed: ['status'] }] } };
      });
    },

    /**
     * Undoes a status change the owner just made: `from` is the status the change produced, `to` the one it
     * replaced. Refused (409) when the task moved on since, or when no allowed change leads from `to` to
     * `from` (an undo only reverses a real change). Like any status change it re-plans, and is recorded as a
     * task.updated event; an automation canceled by the change stays canceled, and undoing into done or dismissed
     * stops a live one as marking it so does.
     */
    async undoStatus(scope: AccessScope, id: string, change: { from: TaskStatus; to: TaskStatus }, actor: ManualActor = 'owner') {
      const { task } = await changeTask(scope, id, async (trx, task) => {
        if (task.kind === 'question') throw new ConflictError(`Task '${id}' is a question: its answer is changed, not undone`);
        // Read under the planning lock: a change from another tab before it wins.
        if (task.row.status !== change.from) {
          throw new ConflictError(
            `Task '${id}' is ${task.row.status} now, not ${change.from}: it changed since, so there is nothing to undo`,
          );
        }
        if (change.from === change.to || !TRANSITIONS[change.to].includes(change.from)) {
          throw new ConflictError(`Task '${id}' cannot be undone from ${change.from} to ${change.to}: no change leads that way`);
        }
        // Undoing into done or dismissed is a manual status like any other: a live automation stops with it.
        if (change.to === 'done' || change.to === 'dismissed')
          await deps.automations.cancelForManualStatus(trx, scope, id, change.to, actor);
        const row = await repositoryFor(trx).setStatus(scope.legalEntityId, id, change.to, change.to === 'done' ? deps.now() : null);
        return { row, cause: { tasks: [{ taskId: id, kind: 'updated', changed: ['status'] }] } };
      });
      return { task };
    },

    /**
     * Answers a question task: validates the answer; then, in one transaction, stores it (an answered question
     * is done), applies the fact to the location when it is a location's, and re-plans once.
     */
    async answer(scope: AccessScope, id: string, answer: unknown) {
      return changeTask(scope, id, async (trx, task) => {
        if (task.kind !== 'question') throw new NotFoundError(`Question task '${id}' not found`);
        const value = checkAnswer(task.question, answer, await todayOf(scope.legalEntityId, trx));
        const locationChange = locationChangeOf(task.question, value);
        // Answer first: an answered question is kept when the fact it collected becomes known.
        const row = await repositoryFor(trx).setAnswer(scope.legalEntityId, id, value, 'done', new Date());
        const location = locationChange ? (await deps.locations.updateIn(trx, scope, task.region.code, locationChange)).event : null;
        const changed = [
          ...(JSON.stringify(task.row.answer ?? null) === JSON.stringify(value) ? [] : ['answer']),
          ...(task.row.status === 'done' ? [] : ['status']),
        ];
        return {
          row,
          cause: {
            events: location ? [location] : [],
            tasks: changed.length ? [{ taskId: id, kind: 'updated' as const, changed }] : [],
          },
        };
      });
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
