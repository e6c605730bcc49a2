import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ConnectionRow, ConnectionStatus } from '../../db/schema.js';

export type MovedConnection = ConnectionRow & { previous_status: ConnectionStatus };

/**
 * Every query of account connections and their event log, and the reads of their agency accounts and logins
 * (the accounts module writes those: a connection's sync goes through its `recordSync`). Reads of one connection take the legal entity first; the connector's jobs
 * (which carry only a connection id) and the sweep over all connections are the exceptions.
 * `db` may be a transaction.
 */
export function createConnectionsRepository(db: Db) {
  return {
    findConnection: (legalEntityId: string, id: string) =>
      db.selectFrom('account_connections').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst(),

    /** The connector's job knows only the connection's id. */
    findConnectionById: (id: string) => db.selectFrom('account_connections').selectAll().where('id', '=', id).executeTakeFirst(),

    /** The entity's connections, newest first. */
    findConnections: (legalEntityId: string) =>
      db
        .selectFrom('account_connections')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),

    /** The newest connection of the account in one of `statuses` (the live one a second connect reuses). */
    findNewestConnection: (legalEntityId: string, agencyAccountId: string, statuses: readonly ConnectionStatus[]) =>
      db
        .selectFrom('account_connections')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .where('agency_account_id', '=', agencyAccountId)
        .where('status', 'in', [...statuses])
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** Connections in one of `statuses` whose last move is older than `seconds` (oldest first, at most 500). */
    findUnmovedSince: (statuses: readonly ConnectionStatus[], seconds: number) =>
      db
        .selectFrom('account_connections')
        .select(['id', 'status', 'status_changed_at'])
        .where('status', 'in', [...statuses])
        .where('status_changed_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
        .orderBy('status_changed_at')
        .limit(500)
        .execute(),

    insertConnection: (row: {
      id: string;
      legal_entity_id: string;
      platform_id: string;
      agency_account_id: string;
      status: ConnectionStatus;
    }) => db.insertInto('account_connections').values(row).returningAll().executeTakeFirstOrThrow(),

    /**
     * One conditional UPDATE: the connection moves to `to` only if it is in one of `from` now. The sub-select
     * locks the row and reads its current status (the event's from_status); the outer condition is re-checked
     * against the newest row version if another transaction changed it meanwhile. Undefined: nothing moved.
     */
    moveStatus: async (move: {
      connectionId: string;
      legalEntityId?: string | undefined;
      from: readonly ConnectionStatus[];
      to: ConnectionStatus;
      reason: string | null;
      loginId?: string | undefined;
    }): Promise<MovedConnection | undefined> => {
      const { rows } = await sql<MovedConnection>`
        update account_connections c
           set status = ${move.to},
               status_reason = ${move.reason},
               login_id = coalesce(${move.loginId ?? null}, c.login_id),
               status_changed_at = now(),
               updated_at = now()
          from (select id, status as previous_status from account_connections
                 where id = ${move.connectionId}
                   ${move.legalEntityId !== undefined ? sql`and legal_entity_id = ${move.legalEntityId}` : sql``}
                 for update) p
         where c.id = p.id and c.status = any(${[...move.from]}::text[])
     returning c.*, p.previous_status`.execute(db);
      return rows[0];
    },

    insertEvent: (row: {
      connection_id: string;
      legal_entity_id: string;
      from_status: ConnectionStatus | null;
      to_status: ConnectionStatus;
      reason: string | null;
      occurred_at: Date;
    }) => db.insertInto('account_connection_events').values(row).execute(),

    /** The event logs of these connections, oldest first. */
    findEvents: (connectionIds: string[]) =>
      connectionIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('account_connection_events').selectAll().where('connection_id', 'in', connectionIds).orderBy('id').execute(),

    findAccount: (legalEntityId: string, id: string) =>
      db
        .selectFrom('agency_accounts')
        .selectAll()
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),

    findLoginUrl: (legalEntityId: string, loginId: string) =>
      db
        .selectFrom('account_logins')
        .select(['id', 'login_url'])
        .where('legal_entity_id', '=', legalEntityId)
        .where('id', '=', loginId)
        .executeTakeFirst(),
  };
}

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
