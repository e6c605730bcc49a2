import { sql } from 'kysely';
import { preparedQuery, type Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.types.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import type { PlannedTaskStore } from '../planning/contract.js';
import type { TaskCompletionStore } from './contract.js';

/** Row count and latest change of an entity's tasks and automations: what a cached task list depends on. */
/** One primary-key lookup: the counter the database bumps at every change of the entity's tasks or automations. */
const LIST_VERSION_SQL = `select version::text as v from task_list_versions where legal_entity_id = $1`;

/** A task as its event shows it: the row, its entity's platform, and its latest automation's status and log. */
export type TaskEventRow = TaskRow & {
  platform_id: string;
  automation_status: string | null;
  automation_logs: { status: string; reason: string | null; actor: string; at: string }[] | null;
};

/** Every query of tasks, the table's one writer (planning, automations and handbook write through ports); tenant first. */
export function createTasksRepository(db: Db) {
  return {
    findTasks: (legalEntityId: string) => db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).execute(),

    findTask: (legalEntityId: string, id: string) =>
      db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    /**
     * The version of an entity's task lists (see task-list-cache.ts), kept by the database (migration
     * 20261128090000): '0' until its tasks or automations first change.
     */
    listVersion: async (legalEntityId: string): Promise<string> =>
      (await preparedQuery<{ v: string }>(db, 'task-list-version', LIST_VERSION_SQL, [legalEntityId]))[0]?.v ?? '0',

    setStatus: (legalEntityId: string, id: string, status: TaskRow['status'], completedAt: Date | null) =>
      db
        .updateTable('tasks')
        .set({ status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    /**
     * Tasks by id for their events, in ONE query (a task event may describe tasks of many entities: a roll-forward
     * batch). The latest automation is read here, in the caller's transaction, so the payload shows its change too.
     */
    findForEvents: async (ids: readonly string[]): Promise<TaskEventRow[]> => {
      if (ids.length === 0) return [];
      const result = await sql<TaskEventRow>`
        select t.*, le.platform_id, a.status as automation_status, a.logs as automation_logs
        from tasks t
        join legal_entities le on le.id = t.legal_entity_id
        left join lateral (
          select x.status, (
            select json_agg(json_build_object('status', l.status, 'reason', l.reason, 'actor', l.actor, 'at', l.created_at) order by l.id)
            from automation_status_logs l where l.automation_id = x.id and l.legal_entity_id = x.legal_entity_id) as logs
          from automations x where x.legal_entity_id = t.legal_entity_id and x.task_id = t.id
          order by x.created_at desc, x.id desc limit 1) a on true
        where t.id = any(${[...ids]}::text[])`.execute(db);
      return result.rows;
    },

    /** Stores a question's answer with the status the service decided. */
    setAnswer: (legalEntityId: string, id: string, answer: unknown, status: TaskRow['status'], completedAt: Date | null) =>
      db
        .updateTable('tasks')
        .set({ answer: JSON.stringify(answer), status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;

/** A task's status moved by another module (automations' TaskStatusStore port), in that module's transaction `db`. */
export const taskStatusStore = {
  setStatus: (db: Db, legalEntityId: string, taskId: string, status: TaskRow['status'], completedAt: Date | null) =>
    createTasksRepository(db).setStatus(legalEntityId, taskId, status, completedAt),
};

/** The tasks another module's fact completes (contract.ts TaskCompletionStore; handbook publishing), in its transaction `db`. */
export const taskCompletionStore: TaskCompletionStore = {
  completeOpen: async (db, legalEntityId, requirementId, regionCodes, at) =>
    regionCodes.length === 0
      ? []
      : (
          await db
            .updateTable('tasks')
            .set({ status: 'done', completed_at: at, acted_at: at, updated_at: at })
            .where('legal_entity_id', '=', legalEntityId)
            .where('definition_id', '=', requirementId)
            .where('region_code', 'in', [...regionCodes])
            .where('status', 'in', ['todo', 'in-progress'])
            .returning('id')
            .execute()
        ).map((t) => t.id),
};

/** Planning's port over the tasks it plans (planning/contract.ts): each write in the re-planning's transaction `db`. */
export const plannedTaskStore: PlannedTaskStore = {
  /**
   * Bulk insert from column arrays (unnest): 15 parameters per statement whatever the row count, so
   * neither Kysely nor PostgreSQL has thousands of placeholders to handle.
   */
  async insertPlanned(db, rows: { legalEntityId: string; task: PlannedTask }[]): Promise<TaskRow[]> {
    if (rows.length === 0) return [];
    const col = <T>(pick: (r: { legalEntityId: string; task: PlannedTask }) => T) => rows.map(pick);
    // Re-plannings of an entity are serialised (planning's entity lock); the unique key keeps duplicates impossible regardless.
    const result = await sql<TaskRow>`
        insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key, period_start_date, period_end_date, due_date,
          due_date_rule, due_date_exact, due_date_question, criteria_met, blocked_by)
        select * from unnest(
          ${col(() => newId(ID_PREFIX.task))}::text[], ${col((r) => r.legalEntityId)}::text[], ${col((r) => r.task.kind)}::text[],
          ${col((r) => r.task.definitionId)}::text[], ${col((r) => r.task.regionCode)}::text[], ${col((r) => r.task.periodKey)}::text[],
          ${col((r) => r.task.periodStartDate)}::date[], ${col((r) => r.task.periodEndDate)}::date[], ${col((r) => r.task.dueDate)}::date[],
          ${col((r) => r.task.dueDateBasis?.rule ?? null)}::text[], ${col((r) => r.task.dueDateBasis?.exact ?? null)}::boolean[],
          ${col((r) => r.task.dueDateBasis?.questionId ?? null)}::text[],
          ${col((r) => JSON.stringify(r.task.criteriaMet))}::jsonb[], ${col((r) => JSON.stringify(r.task.blockedBy))}::jsonb[])
        on conflict on constraint tasks_identity_key do nothing
        returning *`.execute(db);
    return result.rows;
  },

  updatePlanned: (db, legalEntityId, id, t) =>
    db
      .updateTable('tasks')
      .set({
        // A federal task follows its anchor to another region, and an estimated filing's key becomes its exact one
        // (planning.fns reconcile). tasks_identity_key cannot be hit: a stored task holding the new identity would
        // have been matched to the plan instead.
        region_code: t.regionCode,
        period_key: t.periodKey,
        period_start_date: t.periodStartDate,
        period_end_date: t.periodEndDate,
        due_date: t.dueDate,
        due_date_rule: t.dueDateBasis?.rule ?? null,
        due_date_exact: t.dueDateBasis?.exact ?? null,
        due_date_question: t.dueDateBasis?.questionId ?? null,
        criteria_met: JSON.stringify(t.criteriaMet),
        blocked_by: JSON.stringify(t.blockedBy),
        applicable: true,
        updated_at: new Date(),
      })
      .where('legal_entity_id', '=', legalEntityId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),

  deleteTasks: async (db, legalEntityIds, ids) => {
    if (ids.length) await db.deleteFrom('tasks').where('legal_entity_id', 'in', legalEntityIds).where('id', 'in', ids).execute();
  },

  markNotApplicable: async (db, legalEntityIds, ids) => {
    if (ids.length) {
      await db
        .updateTable('tasks')
        .set({ applicable: false, updated_at: new Date() })
        .where('legal_entity_id', 'in', legalEntityIds)
        .where('id', 'in', ids)
        .execute();
    }
  },
};
