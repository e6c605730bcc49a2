/** Row types of the tables of hosted sessions (the links platforms hand out) and the browser sessions they are exchanged for. */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

export type HostedPurpose =
  'signup' | 'tasks' | 'task' | 'automation' | 'payroll' | 'login' | 'accounts' | 'documents' | 'connect' | 'handbook';

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
