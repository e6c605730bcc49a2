/** Row types of the tables of platforms, their API keys and callback origins, operator keys and the instance's sealed secrets. */
import type { ColumnType } from 'kysely';
import type { CreatedAt } from './columns.js';

export interface PlatformsTable {
  id: string;
  name: string;
  /** The default dated API version (docs/versions.md): pinned to the current one by the first API key; null before it. */
  api_version: string | null;
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

export interface PlatformCallbackOriginsTable {
  platform_id: string;
  origin: string;
  created_at: CreatedAt;
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

/** One thing an operator did; append-only (see src/modules/operators/audit.service.ts). */
export interface OperatorAuditEventsTable {
  id: string;
  operator_key_id: string;
  operator_name: string;
  action: string;
  subject_type: string;
  subject_id: string;
  legal_entity_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
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
