import { preparedQuery, type Db } from '../../db/database.js';
import { FIRST_API_VERSION } from '../../http/api-versions.js';

// A platform with no pin yet (no key made since versions began) is read as on the first version, as the
// migration pinned every platform that existed then.
const PINNED_VERSION = `coalesce(p.api_version, '${FIRST_API_VERSION}') as api_version`;

const FIND_API_KEY_BY_HASH = `
  select k.id, k.platform_id, k.revoked_at, p.name as platform_name, ${PINNED_VERSION}
  from api_keys k join platforms p on p.id = k.platform_id
  where k.key_hash = $1`;

/** Primary-key lookups, prepared: it runs on every request that presents an access token (with the platform's pinned version). */
const API_KEY_ACTIVE = `
  select k.revoked_at is null as active, ${PINNED_VERSION}
  from api_keys k join platforms p on p.id = k.platform_id
  where k.id = $1`;

export function createPlatformsRepository(db: Db) {
  return {
    insertPlatform: (row: { id: string; name: string }) => db.insertInto('platforms').values(row).returningAll().executeTakeFirstOrThrow(),

    findPlatform: (id: string) => db.selectFrom('platforms').selectAll().where('id', '=', id).executeTakeFirst(),

    findPlatforms: () => db.selectFrom('platforms').selectAll().orderBy('created_at').execute(),

    insertApiKey: (row: { id: string; platform_id: string; key_hash: Buffer; key_hint: string }) =>
      db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow(),

    /** Runs on every signup and auth call: a prepared statement. */
    findApiKeyByHash: async (keyHash: Buffer) =>
      (
        await preparedQuery<{ id: string; platform_id: string; revoked_at: Date | null; platform_name: string; api_version: string }>(
          db,
          'find-api-key-by-hash-v2',
          FIND_API_KEY_BY_HASH,
          [keyHash],
        )
      )[0],

    /** The key's platform's pinned version when the key is active; null for a revoked or unknown key. */
    activeApiKey: async (keyId: string): Promise<{ apiVersion: string } | null> => {
      const row = (await preparedQuery<{ active: boolean; api_version: string }>(db, 'api-key-active-v2', API_KEY_ACTIVE, [keyId]))[0];
      return row?.active === true ? { apiVersion: row.api_version } : null;
    },

    /** Pins the platform's API version when it has none yet (its first key). */
    pinApiVersionIfUnset: async (platformId: string, version: string) => {
      await db
        .updateTable('platforms')
        .set({ api_version: version })
        .where('id', '=', platformId)
        .where('api_version', 'is', null)
        .execute();
    },

    setApiVersion: (platformId: string, version: string) =>
      db.updateTable('platforms').set({ api_version: version }).where('id', '=', platformId).returningAll().executeTakeFirst(),

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

    findCallbackOrigins: async (platformId: string) =>
      (
        await db.selectFrom('platform_callback_origins').select('origin').where('platform_id', '=', platformId).orderBy('origin').execute()
      ).map((r) => r.origin),

    insertCallbackOrigin: (platformId: string, origin: string) =>
      db
        .insertInto('platform_callback_origins')
        .values({ platform_id: platformId, origin })
        .onConflict((oc) => oc.doNothing())
        .execute(),

    deleteCallbackOrigin: async (platformId: string, origin: string) =>
      Number(
        (
          await db
            .deleteFrom('platform_callback_origins')
            .where('platform_id', '=', platformId)
            .where('origin', '=', origin)
            .executeTakeFirst()
        ).numDeletedRows,
      ),
  };
}

export type PlatformsRepository = ReturnType<typeof createPlatformsRepository>;
