/** Row types of the event outbox (src/modules/events/) and the webhooks capability (src/modules/webhooks/). */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from './columns.js';

export interface EventsTable {
  id: string;
  /** bigserial, read as a string (int8). */
  seq: ColumnType<string, never, never>;
  /** The writing transaction's id (xid8), read as a string; set by the column's default. */
  xid: ColumnType<string, never, never>;
  platform_id: string;
  legal_entity_id: string | null;
  type: string;
  data: ColumnType<Record<string, unknown>, string, never>;
  created_at: CreatedAt;
}

export interface WebhookEndpointsTable {
  id: string;
  platform_id: string;
  url: string;
  description: string | null;
  event_types: string[] | null;
  status: Generated<'enabled' | 'disabled'>;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_failures: Generated<number>;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface WebhookEndpointSecretsTable {
  id: string;
  endpoint_id: string;
  /** The endpoint's platform (the tenant key: src/db/distribution.ts). */
  platform_id: string;
  sealed: Buffer;
  iv: Buffer;
  tag: Buffer;
  key_id: string;
  created_at: CreatedAt;
  expires_at: Date | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  /** The event of the log delivered; null for a test event (then `test_event`). */
  event_id: string | null;
  /** A test event (POST /v2/webhook_endpoints/{id}/test), the whole event as delivered: it is not in the log. */
  test_event: ColumnType<Record<string, unknown> | null, string | null | undefined, never>;
  platform_id: string;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: CreatedAt;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  /** The delivery's platform (the tenant key: src/db/distribution.ts). */
  platform_id: string;
  trigger: 'automatic' | 'manual';
  attempted_at: CreatedAt;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
}

export interface EventDispatchStateTable {
  id: number;
  last_xid: string;
  last_seq: string;
  updated_at: UpdatedAt;
}
