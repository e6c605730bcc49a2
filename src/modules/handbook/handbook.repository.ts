import type { Db } from '../../db/database.js';
import type { HandbookAnswer, PolicyChoice } from '../../db/schema.js';

/** Every query of the handbook; the legal entity first in each. */
export function createHandbookRepository(db: Db) {
  return {
    findDraft: (legalEntityId: string) =>
      db.selectFrom('handbook_drafts').select(['answers', 'choices']).where('legal_entity_id', '=', legalEntityId).executeTakeFirst(),

    saveDraft: (legalEntityId: string, draft: { answers: Record<string, HandbookAnswer>; choices: Record<string, PolicyChoice> }) =>
      db
        .insertInto('handbook_drafts')
        .values({ legal_entity_id: legalEntityId, answers: JSON.stringify(draft.answers), choices: JSON.stringify(draft.choices) })
        .onConflict((oc) =>
          oc
            .column('legal_entity_id')
            .doUpdateSet({ answers: JSON.stringify(draft.answers), choices: JSON.stringify(draft.choices), updated_at: new Date() }),
        )
        .execute(),

    /** Active employees (not removed), in the order they were added. */
    findEmployees: (legalEntityId: string) =>
      db
        .selectFrom('handbook_employees')
        .select(['id', 'name', 'email', 'created_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('removed_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    findEmployee: (legalEntityId: string, employeeId: string) =>
      db
        .selectFrom('handbook_employees')
        .select(['id', 'name', 'email', 'removed_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', employeeId)
        .executeTakeFirst(),

    insertEmployee: (legalEntityId: string, employee: { id: string; name: string; email: string | null }) =>
      db
        .insertInto('handbook_employees')
        .values({ legal_entity_id: legalEntityId, ...employee })
        .execute(),

    /** Number of rows changed (0: no such active employee). */
    updateEmployee: async (legalEntityId: string, employeeId: string, change: { name: string; email: string | null }) =>
      Number(
        (
          await db
            .updateTable('handbook_employees')
            .set(change)
            .where('legal_entity_id', '=', legalEntityId)
            .where('id', '=', employeeId)
            .where('removed_at', 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    removeEmployee: async (legalEntityId: string, employeeId: string, at: Date) =>
      Number(
        (
          await db
            .updateTable('handbook_employees')
            .set({ removed_at: at })
            .where('legal_entity_id', '=', legalEntityId)
            .where('id', '=', employeeId)
            .where('removed_at', 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows,
      ),

    findLatestVersion: (legalEntityId: string) =>
      db
        .selectFrom('handbook_versions')
        .select(['id', 'number', 'document', 'regions', 'published_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst(),

    findVersion: (legalEntityId: string, versionId: string) =>
      db
        .selectFrom('handbook_versions')
        .select(['id', 'number', 'document', 'regions', 'published_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', versionId)
        .executeTakeFirst(),

    /** Versions newest first, without their documents. */
    listVersions: (legalEntityId: string) =>
      db
        .selectFrom('handbook_versions')
        .select(['id', 'number', 'regions', 'published_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .orderBy('number', 'desc')
        .execute(),

    insertVersion: (
      legalEntityId: string,
      version: { id: string; number: number; document: unknown; regions: string[]; publishedAt: Date },
    ) =>
      db
        .insertInto('handbook_versions')
        .values({
          legal_entity_id: legalEntityId,
          id: version.id,
          number: version.number,
          document: JSON.stringify(version.document),
          regions: version.regions,
          published_at: version.publishedAt,
        })
        .execute(),

    /** Idempotent: a link that exists stays as it is. */
    insertAckLinks: async (legalEntityId: string, links: { tokenHash: Buffer; employeeId: string; versionId: string }[]) => {
      if (links.length === 0) return;
      await db
        .insertInto('handbook_ack_links')
        .values(
          links.map((l) => ({
            token_hash: l.tokenHash,
            legal_entity_id: legalEntityId,
            employee_id: l.employeeId,
            version_id: l.versionId,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    /** The link a token names: the token hash is the only key a visitor has; the row names the tenant. */
    findAckLink: (tokenHash: Buffer) =>
      db
        .selectFrom('handbook_ack_links')
        .select(['legal_entity_id', 'employee_id', 'version_id'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst(),

    /** Every acknowledgement of the entity's active employees, with the version number acknowledged. */
    findAcknowledgements: (legalEntityId: string) =>
      db
        .selectFrom('handbook_acknowledgements as a')
        .innerJoin('handbook_versions as v', (join) =>
          join.onRef('v.legal_entity_id', '=', 'a.legal_entity_id').onRef('v.id', '=', 'a.version_id'),
        )
        .select(['a.employee_id', 'a.version_id', 'v.number', 'a.acknowledged_at', 'a.typed_name'])
        .where('a.legal_entity_id', '=', legalEntityId)
        .execute(),

    findAcknowledgement: (legalEntityId: string, employeeId: string, versionId: string) =>
      db
        .selectFrom('handbook_acknowledgements')
        .select(['typed_name', 'acknowledged_at'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('employee_id', '=', employeeId)
        .where('version_id', '=', versionId)
        .executeTakeFirst(),

    /** The acknowledgement, unless one exists (a second submission keeps the first): whether it was inserted. */
    insertAcknowledgement: async (legalEntityId: string, ack: { employeeId: string; versionId: string; typedName: string; at: Date }) =>
      (await db
        .insertInto('handbook_acknowledgements')
        .values({
          legal_entity_id: legalEntityId,
          employee_id: ack.employeeId,
          version_id: ack.versionId,
          typed_name: ack.typedName,
          acknowledged_at: ack.at,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('employee_id')
        .executeTakeFirst()) !== undefined,

    findEntity: (legalEntityId: string) =>
      db.selectFrom('legal_entities').select(['id', 'platform_id', 'business_name']).where('id', '=', legalEntityId).executeTakeFirst(),
  };
}

export type HandbookRepository = ReturnType<typeof createHandbookRepository>;
