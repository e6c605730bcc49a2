import type { Db } from '../../db/database.js';

export function createPlatformsRepository(db: Db) {
  return {
    insertPlatform: (row: { id: string; name: string }) => db.insertInto('platforms').values(row).returningAll().executeTakeFirstOrThrow(),

    findPlatform: (id: string) => db.selectFrom('platforms').selectAll().where('id', '=', id).executeTakeFirst(),

    findPlatforms: () => db.selectFrom('platforms').selectAll().orderBy('created_at').execute(),

    insertApiKey: (row: { id: string; platform_id: string; key_hash: Buffer; key_hint: string }) =>
      db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow(),

    findApiKeyByHash: (keyHash: Buffer) =>
      db
        .selectFrom('api_keys')
        .innerJoin('platforms', 'platforms.id', 'api_keys.platform_id')
        .select(['api_keys.id', 'api_keys.platform_id', 'api_keys.revoked_at', 'platforms.name as platform_name'])
        .where('api_keys.key_hash', '=', keyHash)
        .executeTakeFirst(),

    findApiKeys: (platformId: string) =>
      db
        .selectFrom('api_keys')
        .select(['id', 'platform_id', 'key_hint', 'created_at', 'revoked_at'])
        .where('platform_id', '=', platformId)
        .orderBy('created_at')
        .execute(),

    revokeApiKey: (platformId: string, keyId: string) =>
      db
        .updateTable('api_keys')
        .set({ revoked_at: new Date() })
        .where('platform_id', '=', platformId)
        .where('id', '=', keyId)
        .where('revoked_at', 'is', null)
        .returning(['id'])
        .executeTakeFirst(),

    findApiKey: (keyId: string) => db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst(),
  };
}

export type PlatformsRepository = ReturnType<typeof createPlatformsRepository>;
