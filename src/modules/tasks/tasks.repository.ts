import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.js';
import { ID_PREFIX_TASK } from './tasks.fns.js';
import { newId } from '../../lib/ids.js';

/** What a regeneration reports of each task it created. */
export type CreatedTask = Pick<TaskRow, 'id' | 'legal_entity_id'>;

export type PlanningEntityRow = Awaited<ReturnType<ReturnType<typeof createTasksRepository>['findPlanningEntities']>>[number];

export const identityOf = (t: { definition_id: string; region_code: string; period_key: string }) => `${t.definition_id}|${t.region_code}|${t.period_key}`;
export const plannedIdentity = (t: PlannedTask) => `${t.definitionId}|${t.regionCode}|${t.periodKey}`;

export function createTasksRepository(db: Db) {
  return {
    /** Serialises regenerations per entity (held until the transaction ends); ids in order, so no deadlock. */
    lockEntities: (legalEntityIds: string[]) =>
      sql`select pg_advisory_xact_lock(hashtextextended(id, 7)) from unnest(${legalEntityIds}::text[]) as id order by id`.execute(db),

    findPlanningEntities: (ids: string[]) =>
      db.selectFrom('legal_entities')
        .select(['id', 'entity_type', 'tax_classification', 'incorporation_region', 'incorporation_date', 'accounting_year_end', 'created_at'])
        .where('id', 'in', ids).orderBy('id').execute(),

    findLocationsOf: (ids: string[]) => db.selectFrom('legal_entity_locations').selectAll().where('legal_entity_id', 'in', ids).execute(),

    findTasksOf: (ids: string[]) => db.selectFrom('tasks').selectAll().where('legal_entity_id', 'in', ids).execute(),

    findTasks: (legalEntityId: string) => db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).execute(),

    findTask: (legalEntityId: string, id: string) =>
      db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    /**
     * Bulk insert from column arrays (unnest): 12 parameters per statement whatever the row count, so
     * neither Kysely nor PostgreSQL has thousands of placeholders to handle.
     */
    async insertPlanned(rows: { legalEntityId: string; task: PlannedTask }[]): Promise<CreatedTask[]> {
      if (rows.length === 0) return [];
      const col = <T>(pick: (r: { legalEntityId: string; task: PlannedTask }) => T) => rows.map(pick);
      // Regenerations of an entity are serialised (lockEntities); the unique key keeps duplicates impossible regardless.
      const result = await sql<CreatedTask>`
        insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key, period_start_date, period_end_date, due_date, criteria_met, blocked_by)
        select * from unnest(
          ${col(() => newId(ID_PREFIX_TASK))}::text[], ${col((r) => r.legalEntityId)}::text[], ${col((r) => r.task.kind)}::text[],
          ${col((r) => r.task.definitionId)}::text[], ${col((r) => r.task.regionCode)}::text[], ${col((r) => r.task.periodKey)}::text[],
          ${col((r) => r.task.periodStartDate)}::date[], ${col((r) => r.task.periodEndDate)}::date[], ${col((r) => r.task.dueDate)}::date[],
          ${col((r) => JSON.stringify(r.task.criteriaMet))}::jsonb[], ${col((r) => JSON.stringify(r.task.blockedBy))}::jsonb[])
        on conflict on constraint tasks_identity_key do nothing
        returning id, legal_entity_id`.execute(db);
      return result.rows;
    },

    updatePlanned: (id: string, t: PlannedTask) =>
      db.updateTable('tasks').set({
        period_start_date: t.periodStartDate,
        period_end_date: t.periodEndDate,
        due_date: t.dueDate,
        criteria_met: JSON.stringify(t.criteriaMet),
        blocked_by: JSON.stringify(t.blockedBy),
        applicable: true,
        updated_at: new Date(),
      }).where('id', '=', id).execute(),

    deleteTasks: (ids: string[]) => (ids.length ? db.deleteFrom('tasks').where('id', 'in', ids).execute() : Promise.resolve([])),

    markNotApplicable: (ids: string[]) =>
      ids.length ? db.updateTable('tasks').set({ applicable: false, updated_at: new Date() }).where('id', 'in', ids).execute() : Promise.resolve([]),

    setStatus: (legalEntityId: string, id: string, status: TaskRow['status'], completedAt: Date | null) =>
      db.updateTable('tasks').set({ status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),

    /** Puts a task's answer and status back as they were (a refused answer leaves no trace). */
    restore: (row: TaskRow) =>
      db.updateTable('tasks').set({
        answer: row.answer === null || row.answer === undefined ? null : JSON.stringify(row.answer),
        status: row.status, completed_at: row.completed_at, acted_at: row.acted_at, updated_at: new Date(),
      }).where('legal_entity_id', '=', row.legal_entity_id).where('id', '=', row.id).execute(),

    /** A question's answer completes it (an answered question is done by definition). */
    setAnswer: (legalEntityId: string, id: string, answer: unknown) =>
      db.updateTable('tasks').set({ answer: JSON.stringify(answer), status: 'done', completed_at: new Date(), acted_at: new Date(), updated_at: new Date() })
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
  };
}
