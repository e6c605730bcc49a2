import { sql } from 'kysely';
import { preparedQuery, type Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';

/** Row count and latest change of an entity's tasks and automations: what a cached task list depends on. */
/** One primary-key lookup: the counter the database bumps at every change of the entity's tasks or automations. */
const LIST_VERSION_SQL = `select version::text as v from task_list_versions where legal_entity_id = $1`;

/** A task as its event shows it: the row, its entity's platform, and its latest automation's status and log. */
export type TaskEventRow = TaskRow & {
  platform_id: string;
  automation_status: string | null;
  automation_logs: { status: string; reason: string | null; actor: string; at: string }[] | null;
};

/** Every query of tasks (their planning is modules/planning's, their automations modules/automations'); tenant first. */
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
