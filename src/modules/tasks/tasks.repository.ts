import { preparedQuery, type Db } from '../../db/database.js';
import type { TaskAutomationRow, TaskRow } from '../../db/schema.js';

/** Row count and latest change of an entity's tasks and automations: what a cached task list depends on. */
const LIST_VERSION_SQL = `
  select count(*)::int || '|' || coalesce(max(updated_at)::text, '') || '|' || coalesce(max(created_at)::text, '') || '|' ||
    coalesce((select max(updated_at)::text from task_automations a where a.legal_entity_id = $1), '') as v
  from tasks where legal_entity_id = $1`;

/** Every query of tasks and their automations (the planning of tasks is modules/planning's); tenant first. */
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

    findAutomations: (legalEntityId: string) => db.selectFrom('task_automations').selectAll().where('legal_entity_id', '=', legalEntityId).execute(),

    findAutomation: (legalEntityId: string, taskId: string) =>
      db.selectFrom('task_automations').selectAll().where('legal_entity_id', '=', legalEntityId).where('task_id', '=', taskId).executeTakeFirst(),

    /** Once per task: undefined when the task's automation already exists. */
    insertAutomation: (legalEntityId: string, taskId: string, input: Record<string, unknown>, startedAt: string): Promise<TaskAutomationRow | undefined> =>
      db.insertInto('task_automations').values({
        task_id: taskId,
        legal_entity_id: legalEntityId,
        input: JSON.stringify(input),
        status: 'started',
        history: JSON.stringify([{ status: 'started', updated_at: startedAt }]),
      }).onConflict((oc) => oc.column('task_id').doNothing()).returningAll().executeTakeFirst(),
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
