import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { PlannedTask } from '../../engine/engine.js';
import { ID_PREFIX_TASK } from './tasks.fns.js';
import { newId } from '../../lib/ids.js';

/** 11 columns × 2,000 rows = 22,000 parameters per insert. */
const INSERT_CHUNK = 2000;

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

    findTaskForUpdate: (legalEntityId: string, id: string) =>
      db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).forUpdate().executeTakeFirst(),

    /** Bulk insert, in chunks that stay far below PostgreSQL's 65,535 parameters per statement. */
    async insertPlanned(rows: { legalEntityId: string; task: PlannedTask }[]): Promise<TaskRow[]> {
      const inserted: TaskRow[] = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK).map(({ legalEntityId, task: t }) => ({
          id: newId(ID_PREFIX_TASK),
          legal_entity_id: legalEntityId,
          kind: t.kind,
          definition_id: t.definitionId,
          region_code: t.regionCode,
          period_key: t.periodKey,
          period_start_date: t.periodStartDate,
          period_end_date: t.periodEndDate,
          due_date: t.dueDate,
          criteria_met: JSON.stringify(t.criteriaMet),
          blocked_by: JSON.stringify(t.blockedBy),
        }));
        inserted.push(...await db.insertInto('tasks').values(chunk)
          // Regenerations of an entity are serialised (lockEntities); the unique key keeps duplicates impossible regardless.
          .onConflict((oc) => oc.constraint('tasks_identity_key').doNothing())
          .returningAll().execute());
      }
      return inserted;
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

    setStatus: (id: string, status: TaskRow['status'], completedAt: Date | null) =>
      db.updateTable('tasks').set({ status, completed_at: completedAt, acted_at: new Date(), updated_at: new Date() })
        .where('id', '=', id).returningAll().executeTakeFirstOrThrow(),

    /** Puts a task's answer and status back as they were (a refused answer leaves no trace). */
    restore: (row: TaskRow) =>
      db.updateTable('tasks').set({
        answer: row.answer === null || row.answer === undefined ? null : JSON.stringify(row.answer),
        status: row.status, completed_at: row.completed_at, acted_at: row.acted_at, updated_at: new Date(),
      }).where('id', '=', row.id).execute(),

    setAnswer: (id: string, answer: unknown) =>
      db.updateTable('tasks').set({ answer: JSON.stringify(answer), status: 'done', completed_at: new Date(), acted_at: new Date(), updated_at: new Date() })
        .where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
  };
}
