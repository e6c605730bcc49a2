import type { Db } from '../../db/database.js';

/** The demo's own lookups: its entities are found again by the platform's external company id, its tasks by requirement. */
export function createDemoRepository(db: Db) {
  return {
    findEntityByExternalId: (platformId: string, externalId: string) =>
      db
        .selectFrom('legal_entities')
        .select('id')
        .where('platform_id', '=', platformId)
        .where('external_company_id', '=', externalId)
        .executeTakeFirst(),
    findTaskByDefinition: (legalEntityId: string, definitionId: string) =>
      db
        .selectFrom('tasks')
        .select('id')
        .where('legal_entity_id', '=', legalEntityId)
        .where('definition_id', '=', definitionId)
        .executeTakeFirst(),
  };
}

export type DemoRepository = ReturnType<typeof createDemoRepository>;
