import { preparedQuery, type Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';

/** Row count and latest change of an entity's tasks and automations: what a cached task list depends on. */
const LIST_VERSION_SQL = `
  select count(*)::int || '|' || coalesce(max(updated_at)::text, '') || '|' || coalesce(max(created_at)::text, '') || '|' ||
    coalesce((select max(updated_at)::text from automations a where a.legal_entity_id = $1), '') as v
  from tasks where legal_entity_id = $1`;

/** Every query of tasks (their planning is modules/planning's, their automations modules/automations'); tenant first. */
export function createTasksRepository(db: Db) {
  return {
    findTasks: (legalEntityId: string) => db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).execute(),

    findTask: (legalEntityId: string, id: string) =>
      db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    /** The version of an entity's task lists (see task-list-cache.ts); timestamps as text keep their microseconds. */
    listVersion: async (legalEntityId: string): Promise<string> =>
      (await preparedQuery<{ v: string }>(db, 'tasks-version', LIST_VERSION_SQL, [legalEntityId]))[0]?.v ?? '',

    setStatus: (legalEntityId: string, id: string, status: TaskRow['status'], completedAt: Date | null) =>
      db.updateTable('tasks').set({ status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),

    /** Stores a question's answer with the status the service decided. */
    setAnswer: (legalEntityId: string, id: string, answer: unknown, status: TaskRow['status'], completedAt: Date | null) =>
      db.updateTable('tasks').set({ answer: JSON.stringify(answer), status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
