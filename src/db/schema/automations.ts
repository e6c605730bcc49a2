/** Row types of the automations capability's tables (src/modules/automations/). */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt, DateString } from './columns.js';

/** What a completed automation produced (ids of the records it wrote), as stored. */
export interface StoredAutomationOutputs {
  agency_account_id: string | null;
  login_id: string | null;
  document_id: string | null;
  dates: Record<string, string>;
  account_data: { name: string; value: string }[];
}

export interface AutomationsTable {
  id: string;
  task_id: string;
  legal_entity_id: string;
  platform_id: string;
  requirement_id: string;
  region_code: string;
  agency_id: string;
  fulfilment: 'connector' | 'operator';
  performer: string;
  status: string;
  status_reason: string | null;
  customer_message: string | null;
  customer_response: string | null;
  input: ColumnType<Record<string, unknown>, string, string>;
  sealed_input: Buffer | null;
  sealed_input_iv: Buffer | null;
  sealed_input_tag: Buffer | null;
  sealed_input_key_id: string | null;
  current_step: string | null;
  round: Generated<number>;
  step_due_at: Date | null;
  lease_token: string | null;
  lease_until: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
  assigned_operator_key_id: string | null;
  assigned_operator_name: string | null;
  outputs: ColumnType<StoredAutomationOutputs | null, string | null, string | null>;
  due_date: DateString | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  completed_at: Date | null;
}

export interface AutomationStatusLogsTable {
  id: Generated<string>;
  automation_id: string;
  /** The automation's entity (the tenant key: src/db/distribution.ts). */
  legal_entity_id: string;
  status: string;
  reason: string | null;
  actor: string;
  created_at: CreatedAt;
}

export interface AutomationStepsTable {
  automation_id: string;
  /** The automation's entity (the tenant key: src/db/distribution.ts). */
  legal_entity_id: string;
  step_key: string;
  result: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
}
