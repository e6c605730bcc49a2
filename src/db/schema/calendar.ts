/** Row types of the calendar subscription URLs (src/modules/calendar/). */
import type { CreatedAt } from './columns.js';

export interface CalendarFeedsTable {
  id: string;
  platform_id: string;
  legal_entity_id: string;
  /** SHA-256 of the URL's token: how the feed finds its row. */
  token_hash: Buffer;
  /** The token sealed with the vault key, bound to this row's id (the same URL is handed out again). */
  token_sealed: Buffer;
  token_iv: Buffer;
  token_tag: Buffer;
  key_id: string;
  created_at: CreatedAt;
  revoked_at: Date | null;
}
