/** Row types of the tables of mail items and agency account connections with their status events. */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt, DateString } from './columns.js';

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
  /** What the mail is about (e.g. "Statement of Information reminder"); null when none was recorded. */
  subject: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the owner first opened it from the documents page; null: new. */
  opened_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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
  /** The connection's entity (the tenant key: src/db/distribution.ts). */
  legal_entity_id: string;
  from_status: ConnectionStatus | null;
  to_status: ConnectionStatus;
  reason: string | null;
  occurred_at: CreatedAt;
}
