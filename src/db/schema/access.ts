/** Row types of the tables of platforms, their API keys and callback origins, operator keys and the instance's sealed secrets. */
import type { CreatedAt } from './columns.js';

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

export interface InstanceSecretsTable {
  name: string;
  /** The sealed key (AES-256-GCM under the vault key) when key_id is set; plaintext only in rows from before. */
  value: Buffer;
  iv: Buffer | null;
  tag: Buffer | null;
  key_id: string | null;
  created_at: CreatedAt;
}
