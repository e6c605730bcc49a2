import type { Db } from '../../db/database.js';

/** The demo's own lookup: its entities are found again by the platform's external company id. */
export function createDemoRepository(db: Db) {
  return {
    findEntityByExternalId: (platformId: string, externalId: string) =>
      db.selectFrom('legal_entities').select('id').where('platform_id', '=', platformId).where('external_company_id', '=', externalId).executeTakeFirst(),
  };
}
