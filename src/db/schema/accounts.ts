/** Row types of the tables of agency accounts, their logins and the reveals of those logins' credentials. */
import type { ColumnType } from 'kysely';
import type { CreatedAt, UpdatedAt, DateString } from './columns.js';

export type AgencyAccountDataStatus = 'todo' | 'in-progress' | 'done';

/** One attribute of an agency account (an account number, a rate…). */
export interface AgencyAccountDatum {
  name: string;
  description: string | null;
  value: string | null;
  status: AgencyAccountDataStatus;
}

export interface AgencyAccountsTable {
  id: string;
  legal_entity_id: string;
  region_code: string;
  /** An agency id of the catalog, e.g. `ca-edd`. */
  agency_id: string;
  name: string;
  data: ColumnType<AgencyAccountDatum[], string | undefined, string>;
  /** What a connection learned at the agency; null until an account is connected. */
  details: ColumnType<AgencyAccountDetails | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One filing period of an agency account, as the agency reports it (amounts in cents). */
export interface AgencyAccountHistoryItem {
  period_start_date: DateString;
  period_end_date: DateString;
  payment_date: DateString;
  filing_date: DateString;
  payment_amount: number;
  amount_due: number;
  amount_applied: number;
  raw_data: Record<string, unknown>;
}

export interface AgencyAccountDetails {
  status: 'active' | 'exception' | 'closed';
  id_number: string;
  has_tpa: boolean;
  tax_rate_percent: number | null;
  reporting_schedule: string | null;
  balance: number | null;
  history: AgencyAccountHistoryItem[];
  /** When the connector last read the account (ISO timestamp). */
  synced_at: string;
}

/** A login at an agency site; the credentials are AES-256-GCM encrypted (see crypto/vault.ts). */
export interface AccountLoginsTable {
  id: string;
  legal_entity_id: string;
  agency_account_id: string | null;
  region_code: string;
  name: string;
  login_url: string;
  is_supported: ColumnType<boolean, boolean | undefined, boolean>;
  secret_ciphertext: Buffer;
  secret_iv: Buffer;
  secret_tag: Buffer;
  key_id: string;
  /** The associated data the secret is bound to: 1 = purpose only (legacy), 2 = also the login id. */
  secret_aad_version: number;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LoginRevealsTable {
  id: string;
  login_id: string;
  legal_entity_id: string;
  platform_id: string;
  hosted_session_id: string;
  browser_session_id: string;
  revealed_at: CreatedAt;
}
