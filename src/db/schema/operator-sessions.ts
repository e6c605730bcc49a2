/** Row types of the back office's browser sessions and one-time sign-in links (src/modules/operators/operator-sessions.service.ts). */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

export interface OperatorSessionsTable {
  id: string;
  /** SHA-256 of the cookie's token; the token itself is never stored. */
  token_hash: Buffer;
  operator_key_id: string;
  created_at: CreatedAt;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
}

export interface OperatorLoginLinksTable {
  id: string;
  token_hash: Buffer;
  operator_key_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  consumed_at: Date | null;
}
