/** Row types of the platform console's users, sessions, invitations and trail (src/modules/console, src/modules/audit). */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

export type ConsoleRoleColumn = 'admin' | 'developer' | 'read_only';

export interface ConsoleUsersTable {
  id: string;
  platform_id: string;
  email: string;
  /** scrypt$N$r$p$salt$hash; never the password. */
  password_hash: string;
  role: ConsoleRoleColumn;
  created_at: CreatedAt;
}

export interface ConsoleSessionsTable {
  id: string;
  platform_id: string;
  user_id: string;
  /** SHA-256 of the cookie's token. */
  token_hash: Buffer;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date, Date>;
  expires_at: Date;
}

export interface ConsoleInvitesTable {
  id: string;
  platform_id: string;
  email: string;
  role: ConsoleRoleColumn;
  token_hash: Buffer;
  invited_by: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface ConsoleAuditEventsTable {
  id: string;
  platform_id: string;
  user_id: string;
  user_email: string;
  action: string;
  subject_type: string;
  subject_id: string;
  details: ColumnType<Record<string, unknown>, string, never>;
  created_at: CreatedAt;
}
