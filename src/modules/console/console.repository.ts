import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ConsoleRole } from './contract.js';

export interface ConsoleUserRow {
  id: string;
  platform_id: string;
  email: string;
  role: ConsoleRole;
  created_at: Date;
}

/** A live session and its user. */
export interface ConsoleSessionRow {
  id: string;
  platform_id: string;
  user_id: string;
  email: string;
  role: ConsoleRole;
  last_seen_at: Date;
  expires_at: Date;
}

const USER_COLUMNS = ['id', 'platform_id', 'email', 'role', 'created_at'] as const;

/** Every query of the console's users, sessions and invitations. A user's rows are always read with their platform. */
export function createConsoleRepository(db: Db) {
  return {
    findUserByEmail: (email: string) =>
      db
        .selectFrom('console_users')
        .select([...USER_COLUMNS, 'password_hash'])
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst(),

    listUsers: (platformId: string): Promise<ConsoleUserRow[]> =>
      db.selectFrom('console_users').select(USER_COLUMNS).where('platform_id', '=', platformId).orderBy('created_at').execute(),

    findUser: (platformId: string, id: string): Promise<ConsoleUserRow | undefined> =>
      db.selectFrom('console_users').select(USER_COLUMNS).where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst(),

    async insertUser(row: { id: string; platform_id: string; email: string; password_hash: string; role: ConsoleRole }) {
      await db.insertInto('console_users').values(row).execute();
    },

    async setRole(platformId: string, id: string, role: ConsoleRole) {
      await db.updateTable('console_users').set({ role }).where('platform_id', '=', platformId).where('id', '=', id).execute();
    },

    /** Its sessions go with it (on delete cascade). */
    async deleteUser(platformId: string, id: string) {
      await db.deleteFrom('console_users').where('platform_id', '=', platformId).where('id', '=', id).execute();
    },

    async insertSession(row: { id: string; platform_id: string; user_id: string; token_hash: Buffer; now: Date; expires_at: Date }) {
      const { now, ...rest } = row;
      await db
        .insertInto('console_sessions')
        .values({ ...rest, created_at: now, last_seen_at: now })
        .execute();
    },

    findSession: (tokenHash: Buffer): Promise<ConsoleSessionRow | undefined> =>
      db
        .selectFrom('console_sessions as s')
        .innerJoin('console_users as u', (join) => join.onRef('u.id', '=', 's.user_id').onRef('u.platform_id', '=', 's.platform_id'))
        .select(['s.id', 's.platform_id', 's.user_id', 'u.email', 'u.role', 's.last_seen_at', 's.expires_at'])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst(),

    async touchSession(id: string, at: Date) {
      await db.updateTable('console_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async deleteSession(id: string) {
      await db.deleteFrom('console_sessions').where('id', '=', id).execute();
    },

    async insertInvite(row: {
      id: string;
      platform_id: string;
      email: string;
      role: ConsoleRole;
      token_hash: Buffer;
      invited_by: string | null;
      expires_at: Date;
    }) {
      await db.insertInto('console_invites').values(row).execute();
    },

    /** An unused, unexpired invitation; reading it never uses it up (mail scanners open links too). */
    findUsableInvite: (tokenHash: Buffer, at: Date) =>
      db
        .selectFrom('console_invites')
        .select(['id', 'platform_id', 'email', 'role'])
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst(),

    /** Marks it used; of concurrent callers exactly one gets the row. */
    consumeInvite: (tokenHash: Buffer, at: Date) =>
      db
        .updateTable('console_invites')
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .returning(['id', 'platform_id', 'email', 'role'])
        .executeTakeFirst(),
  };
}

export type ConsoleRepository = ReturnType<typeof createConsoleRepository>;
