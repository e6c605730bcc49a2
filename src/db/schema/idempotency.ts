/** Row type of the Idempotency-Key store (src/modules/idempotency/). */
import type { ColumnType } from 'kysely';

export interface IdempotencyKeysTable {
  /** 'platform:<platform id>' or 'operator:<operator key id>'. */
  scope: string;
  key: string;
  /** SHA-256 (hex) of the request: method, route, parameters, query, body and, for a token, its legal entity. */
  fingerprint: string;
  state: 'in_flight' | 'complete';
  /** Which request holds the key; a takeover after `locked_until` gives it a new one. */
  claim_id: string;
  locked_until: ColumnType<Date, Date | string, Date | string>;
  response_status: number | null;
  /** The replayed headers (content-type, location, paging headers), lower-case names. */
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  /** The response body, sealed with the vault key (it may hold tokens, links or revealed secrets). */
  response_body: Buffer | null;
  response_iv: Buffer | null;
  response_tag: Buffer | null;
  response_key_id: string | null;
  /** Reset when an expired key is used again (the retention counts from the claim). */
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
