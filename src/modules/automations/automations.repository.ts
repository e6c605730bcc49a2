import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AutomationsTable, TaskRow } from '../../db/schema.js';
import type { AutomationQueueFilter } from './contract.js';

const FINAL = ['complete', 'canceled'];

/** The position of a queue item, for paging: due date (none last) then id. */
export interface QueueCursor {
  due: string;
  id: string;
}
const NO_DUE_DATE = '9999-12-31';

/**
 * Every query of automations, their status logs and step records; tenant first where a tenant is known.
 * It also reads the automated task (its status moves through the tasks module's TaskStatusStore) and reads the entity's name
 * and EIN for the connector, in the caller's transaction.
 */
export function createAutomationsRepository(db: Db) {
  return {
    findTask: (legalEntityId: string, taskId: string): Promise<TaskRow | undefined> =>
      db.selectFrom('tasks').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', taskId).executeTakeFirst(),

    findEntity: (legalEntityId: string) =>
      db
        .selectFrom('legal_entities')
        .select(['id', 'business_name', 'ein', 'platform_id'])
        .where('id', '=', legalEntityId)
        .executeTakeFirst(),

    insert: (row: Insertable<AutomationsTable>) => db.insertInto('automations').values(row).returningAll().executeTakeFirstOrThrow(),

    insertLog: (automation: { id: string; legal_entity_id: string }, status: string, reason: string | null, actor: string) =>
      db
        .insertInto('automation_status_logs')
        .values({ automation_id: automation.id, legal_entity_id: automation.legal_entity_id, status, reason, actor })
        .execute(),

    update: (id: string, patch: Updateable<AutomationsTable>) =>
      db
        .updateTable('automations')
        .set({ ...patch, updated_at: sql`clock_timestamp()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    findById: (id: string) => db.selectFrom('automations').selectAll().where('id', '=', id).executeTakeFirst(),

    /** The row, locked for the rest of the transaction (operator actions, applying a step's result). */
    lockById: (id: string) => db.selectFrom('automations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst(),

    findLiveForTask: (legalEntityId: string, taskId: string) =>
      db
        .selectFrom('automations')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .where('task_id', '=', taskId)
        .where('status', 'not in', FINAL)
        .executeTakeFirst(),

    /** The latest automation of each task. */
    findLatestForTasks: (legalEntityId: string, taskIds: readonly string[]) =>
      taskIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('automations')
            .selectAll()
            .distinctOn('task_id')
            .where('legal_entity_id', '=', legalEntityId)
            .where('task_id', 'in', [...taskIds])
            .orderBy('task_id')
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .execute(),

    logsOf: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('automation_status_logs')
            .selectAll()
            .where('automation_id', 'in', [...ids])
            .orderBy('id')
            .execute(),

    stepsOf: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('automation_steps')
            .select(['automation_id', 'step_key'])
            .where('automation_id', 'in', [...ids])
            .execute(),

    /**
     * Takes the current step for one performance: only when it is still current, not recorded, and nobody else
     * holds it (or their hold ran out). One statement, so two processes can never both get it.
     */
    leaseStep: (id: string, expected: { step: string; round: number; key: string }, token: string, seconds: number) =>
      db
        .updateTable('automations')
        .set({
          lease_token: token,
          lease_until: sql`clock_timestamp() + make_interval(secs => ${seconds})`,
          updated_at: sql`clock_timestamp()`,
        })
        .where('id', '=', id)
        .where('current_step', '=', expected.step)
        .where('round', '=', expected.round)
        .where('status', 'not in', FINAL)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`clock_timestamp()`)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('automation_steps')
                .select('step_key')
                .whereRef('automation_id', '=', 'automations.id')
                .whereRef('automation_steps.legal_entity_id', '=', 'automations.legal_entity_id')
                .where('step_key', '=', expected.key),
            ),
          ),
        )
        .returningAll()
        .executeTakeFirst(),

    /** The idempotency record of a performed step; false when it was already there. */
    recordStep: async (automation: { id: string; legal_entity_id: string }, key: string, result: Record<string, unknown>) =>
      (await db
        .insertInto('automation_steps')
        .values({
          automation_id: automation.id,
          legal_entity_id: automation.legal_entity_id,
          step_key: key,
          result: JSON.stringify(result),
        })
        .onConflict((oc) => oc.columns(['automation_id', 'step_key', 'legal_entity_id']).doNothing())
        .returning('step_key')
        .executeTakeFirst()) !== undefined,

    /** Automations whose scheduled step is overdue by this much and held by nobody: their job may be lost. */
    findOverdueSteps: (overdueSeconds: number, limit: number) =>
      db
        .selectFrom('automations')
        .select(['id', 'current_step', 'round'])
        .where('current_step', 'is not', null)
        .where('step_due_at', '<', sql<Date>`clock_timestamp() - make_interval(secs => ${overdueSeconds})`)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`clock_timestamp()`)]))
        .where('status', 'not in', FINAL)
        .limit(limit)
        .execute(),

    /** The operator queue: live automations a person does, by due date (none last), with their entity and platform names. */
    queue(filter: AutomationQueueFilter, after: QueueCursor | null) {
      let query = db
        .selectFrom('automations as a')
        .innerJoin('legal_entities as e', 'e.id', 'a.legal_entity_id')
        .innerJoin('platforms as p', 'p.id', 'a.platform_id')
        .selectAll('a')
        .select(['e.business_name as entity_name', 'p.name as platform_name'])
        .where('a.performer', '=', 'operator')
        .where('a.status', 'not in', FINAL);
      if (filter.region) query = query.where('a.region_code', '=', filter.region);
      if (filter.agencyId) query = query.where('a.agency_id', '=', filter.agencyId);
      if (filter.status) query = query.where('a.status', '=', filter.status);
      if (filter.platformId) query = query.where('a.platform_id', '=', filter.platformId);
      if (filter.assignedTo === 'unassigned') query = query.where('a.assigned_operator_key_id', 'is', null);
      else if (filter.assignedTo) query = query.where('a.assigned_operator_key_id', '=', filter.assignedTo);
      const due = sql<string>`coalesce(a.due_date, ${NO_DUE_DATE}::date)`;
      if (after) query = query.where(sql<boolean>`(${due}, a.id) > (${after.due}::date, ${after.id})`);
      return query
        .orderBy(due)
        .orderBy('a.id')
        .limit(filter.limit + 1)
        .execute();
    },

    /** Automations whose sealed input is under another key than the current one (key rotation), by id. */
    findStaleInputs: (currentKeyId: string, limit: number) =>
      db
        .selectFrom('automations')
        .select(['id', 'sealed_input', 'sealed_input_iv', 'sealed_input_tag', 'sealed_input_key_id'])
        .where('sealed_input', 'is not', null)
        .where('sealed_input_key_id', '<>', currentKeyId)
        .orderBy('id')
        .limit(limit)
        .execute(),

    /** One automation per key id its sealed input is under, other than the current one (to check each opens first). */
    findOneStaleInputPerKey: (currentKeyId: string) =>
      db
        .selectFrom('automations')
        .distinctOn('sealed_input_key_id')
        .select(['id', 'sealed_input', 'sealed_input_iv', 'sealed_input_tag', 'sealed_input_key_id'])
        .where('sealed_input', 'is not', null)
        .where('sealed_input_key_id', '<>', currentKeyId)
        .orderBy('sealed_input_key_id')
        .orderBy('id')
        .execute(),

    /** Replaces a sealed input only if it still holds the one read (same key and iv); returns the rows changed. */
    resealInputIfUnchanged: async (
      id: string,
      read: { keyId: string; iv: Buffer },
      sealed: { ciphertext: Buffer; iv: Buffer; tag: Buffer; keyId: string },
    ) =>
      Number(
        (
          await db
            .updateTable('automations')
            .set({
              sealed_input: sealed.ciphertext,
              sealed_input_iv: sealed.iv,
              sealed_input_tag: sealed.tag,
              sealed_input_key_id: sealed.keyId,
            })
            .where('id', '=', id)
            .where('sealed_input_key_id', '=', read.keyId)
            .where('sealed_input_iv', '=', read.iv)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    countSealedInputs: async () =>
      Number(
        (
          await db
            .selectFrom('automations')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('sealed_input', 'is not', null)
            .executeTakeFirstOrThrow()
        ).count,
      ),

    findWithNames: (id: string) =>
      db
        .selectFrom('automations as a')
        .innerJoin('legal_entities as e', 'e.id', 'a.legal_entity_id')
        .innerJoin('platforms as p', 'p.id', 'a.platform_id')
        .selectAll('a')
        .select(['e.business_name as entity_name', 'p.name as platform_name'])
        .where('a.id', '=', id)
        .executeTakeFirst(),
  };
}

export type AutomationsRepository = ReturnType<typeof createAutomationsRepository>;
export const queueDue = (dueDate: string | null) => dueDate ?? NO_DUE_DATE;
