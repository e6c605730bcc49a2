import type { Db } from '../../db/database.js';

/** A live session as the back office sees it: the session and the (unrevoked) operator key behind it. */
export interface OperatorSessionRow {
  id: string;
  operator_key_id: string;
  operator_name: string;
  last_seen_at: Date;
  expires_at: Date;
}

/**
 * Every query of the back office's sessions and sign-in links. Rows are found by their token's hash; a
 * session or link of a revoked key is never returned.
 */
export function createOperatorSessionsRepository(db: Db) {
  return {
    async insertSession(row: { id: string; token_hash: Buffer; operator_key_id: string; expires_at: Date; now: Date }): Promise<void> {
      await db
        .insertInto('operator_sessions')
        .values({
          id: row.id,
          token_hash: row.token_hash,
          operator_key_id: row.operator_key_id,
          expires_at: row.expires_at,
          created_at: row.now,
          last_seen_at: row.now,
        })
        .execute();
    },

    findSession: (tokenHash: Buffer): Promise<OperatorSessionRow | undefined> =>
      db
        .selectFrom('operator_sessions')
        .innerJoin('operator_keys', 'operator_keys.id', 'operator_sessions.operator_key_id')
        .select([
          'operator_sessions.id',
          'operator_sessions.operator_key_id',
          'operator_keys.name as operator_name',
          'operator_sessions.last_seen_at',
          'operator_sessions.expires_at',
        ])
        .where('operator_sessions.token_hash', '=', tokenHash)
        .where('operator_keys.revoked_at', 'is', null)
        .executeTakeFirst(),

    async touchSession(id: string, at: Date): Promise<void> {
      await db.updateTable('operator_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async deleteSession(id: string): Promise<void> {
      await db.deleteFrom('operator_sessions').where('id', '=', id).execute();
    },

    async insertLink(row: { id: string; token_hash: Buffer; operator_key_id: string; expires_at: Date; now: Date }): Promise<void> {
      await db
        .insertInto('operator_login_links')
        .values({
          id: row.id,
          token_hash: row.token_hash,
          operator_key_id: row.operator_key_id,
          expires_at: row.expires_at,
          created_at: row.now,
        })
        .execute();
    },

    /** Marks an unused, unexpired link of a live key used; of concurrent callers exactly one gets its key id. */
    consumeLink: (tokenHash: Buffer, at: Date): Promise<{ operator_key_id: string } | undefined> =>
      db
        .updateTable('operator_login_links')
        .set({ consumed_at: at })
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('operator_keys')
              .select('id')
              .whereRef('operator_keys.id', '=', 'operator_login_links.operator_key_id')
              .where('revoked_at', 'is', null),
          ),
        )
        .returning(['operator_key_id'])
        .executeTakeFirst(),

    /** The operator an unused, unexpired link of a live key would sign in; reading it never uses it up. */
    findUsableLink: (tokenHash: Buffer, at: Date): Promise<{ operator_name: string } | undefined> =>
      db
        .selectFrom('operator_login_links')
        .innerJoin('operator_keys', 'operator_keys.id', 'operator_login_links.operator_key_id')
        .select(['operator_keys.name as operator_name'])
        .where('operator_login_links.token_hash', '=', tokenHash)
        .where('operator_login_links.consumed_at', 'is', null)
        .where('operator_login_links.expires_at', '>', at)
        .where('operator_keys.revoked_at', 'is', null)
        .executeTakeFirst(),

    /** The live key named by its id or, failing that, by its name (the CLI takes either). */
    findLiveKeys: (idOrName: string) =>
      db
        .selectFrom('operator_keys')
        .select(['id', 'name'])
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
        .execute(),
  };
}

export type OperatorSessionsRepository = ReturnType<typeof createOperatorSessionsRepository>;
