import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** PostgreSQL `date` columns are read as 'YYYY-MM-DD' strings (see database.ts). */
type DateString = string;

export interface AddressValue {
  id: string | null;
  address_line_1: string;
  address_line_2: string | null;
  city: string;
  state: string;
  country: string;
  postal_code: string;
}

export interface PlatformsTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  platform_id: string;
  key_hash: Buffer;
  key_hint: string;
  created_at: CreatedAt;
  revoked_at: Date | null;
}

export interface LegalEntitiesTable {
  id: string;
  platform_id: string;
  status: 'inactive' | 'active';
  business_name: string;
  user_email: string | null;
  entity_type: string | null;
  tax_classification: string | null;
  incorporation_region: string | null;
  incorporation_date: DateString | null;
  ein: string | null;
  llc_managed_type: string | null;
  business_purpose: string | null;
  business_phone: string | null;
  business_email: string | null;
  business_address: ColumnType<AddressValue | null, string | null, string | null>;
  mailing_address: ColumnType<AddressValue | null, string | null, string | null>;
  naics_code: string | null;
  accounting_method: string | null;
  accounting_period: string | null;
  accounting_year_end: number | null;
  futa_liability_year: string | null;
  external_company_id: string | null;
  authorization_callback_url: string | null;
  payroll_connected_at: Date | null;
  last_payroll_update: Date | null;
  activated_at: Date | null;
  signup_step: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type HostedPurpose = 'signup' | 'tasks' | 'task' | 'automation' | 'payroll' | 'login' | 'accounts' | 'documents' | 'connect';

/** What a hosted session may show: filters of a task list, one task. */
export interface HostedScope {
  task_type?: 'requirement' | 'question';
  status?: string;
  region_id?: string;
  task_id?: string;
  login_id?: string;
  connection_id?: string;
}

export interface HostedSessionsTable {
  id: string;
  purpose: HostedPurpose;
  scope: ColumnType<HostedScope, string | undefined, string>;
  legal_entity_id: string;
  token_hash: Buffer;
  callback_url: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface LegalEntityLocationsTable {
  legal_entity_id: string;
  region_id: string;
  has_employees: boolean | null;
  has_physical_location: boolean | null;
  employee_count: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface InstanceSecretsTable {
  name: string;
  /** The sealed key (AES-256-GCM under the vault key) when key_id is set; plaintext only in rows from before. */
  value: Buffer;
  iv: Buffer | null;
  tag: Buffer | null;
  key_id: string | null;
  created_at: CreatedAt;
}

export interface TasksTable {
  id: string;
  legal_entity_id: string;
  kind: 'requirement' | 'question';
  definition_id: string;
  region_code: string;
  period_key: string;
  period_start_date: DateString | null;
  period_end_date: DateString | null;
  due_date: DateString | null;
  status: Generated<'todo' | 'in-progress' | 'done' | 'dismissed'>;
  answer: ColumnType<unknown, string | null | undefined, string | null>;
  criteria_met: ColumnType<{ key: string; reason: string; data: Record<string, unknown> }[], string, string>;
  blocked_by: ColumnType<string[], string, string>;
  applicable: Generated<boolean>;
  acted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  completed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface HostedBrowserSessionsTable {
  id: string;
  token_hash: Buffer;
  hosted_session_id: string;
  legal_entity_id: string;
  purpose: HostedPurpose;
  scope: ColumnType<HostedScope, string, string>;
  callback_url: string | null;
  created_at: CreatedAt;
  expires_at: Date;
}

export interface PlatformCallbackOriginsTable {
  platform_id: string;
  origin: string;
  created_at: CreatedAt;
}

export interface AutomationStatusChange {
  status: string;
  updated_at: string;
}

export interface TaskAutomationsTable {
  task_id: string;
  legal_entity_id: string;
  input: ColumnType<Record<string, unknown>, string, string>;
  status: string;
  history: ColumnType<AutomationStatusChange[], string, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

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

/** A login at an agency site; the credentials are AES-256-GCM encrypted (see modules/accounts/vault.ts). */
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

export interface OperatorKeysTable {
  id: string;
  name: string;
  key_hash: Buffer;
  key_hint: string;
  created_at: CreatedAt;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type MailType = 'registered-agent' | 'external-mail';

export interface MailItemsTable {
  id: string;
  legal_entity_id: string;
  region_code: string | null;
  type: MailType;
  received_on: DateString;
  sender: string | null;
  /** Key of the PDF in the file store (hex SHA-256 of its bytes). */
  file_sha256: string;
  file_size: ColumnType<number, number, number>;
  file_name: string | null;
  created_at: CreatedAt;
}

export type ConnectionStatus = 'pending' | 'authenticating' | 'registering' | 'connected' | 'disconnected' | 'canceled';

export interface AccountConnectionsTable {
  id: string;
  legal_entity_id: string;
  platform_id: string;
  agency_account_id: string;
  login_id: string | null;
  status: ConnectionStatus;
  /** Why the connection is in its status (e.g. why authentication failed); never a secret. */
  status_reason: string | null;
  status_changed_at: UpdatedAt;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface AccountConnectionEventsTable {
  id: Generated<number>;
  connection_id: string;
  from_status: ConnectionStatus | null;
  to_status: ConnectionStatus;
  reason: string | null;
  occurred_at: CreatedAt;
}

export interface Database {
  platforms: PlatformsTable;
  api_keys: ApiKeysTable;
  legal_entities: LegalEntitiesTable;
  hosted_sessions: HostedSessionsTable;
  legal_entity_locations: LegalEntityLocationsTable;
  instance_secrets: InstanceSecretsTable;
  tasks: TasksTable;
  hosted_browser_sessions: HostedBrowserSessionsTable;
  platform_callback_origins: PlatformCallbackOriginsTable;
  task_automations: TaskAutomationsTable;
  agency_accounts: AgencyAccountsTable;
  account_logins: AccountLoginsTable;
  login_reveals: LoginRevealsTable;
  operator_keys: OperatorKeysTable;
  mail_items: MailItemsTable;
  account_connections: AccountConnectionsTable;
  account_connection_events: AccountConnectionEventsTable;
}

export type LegalEntityRow = Selectable<LegalEntitiesTable>;
export type LocationRow = Selectable<LegalEntityLocationsTable>;
export type TaskRow = Selectable<TasksTable>;
export type BrowserSessionRow = Selectable<HostedBrowserSessionsTable>;
export type TaskAutomationRow = Selectable<TaskAutomationsTable>;
export type AgencyAccountRow = Selectable<AgencyAccountsTable>;
export type MailItemRow = Selectable<MailItemsTable>;
export type ConnectionRow = Selectable<AccountConnectionsTable>;
