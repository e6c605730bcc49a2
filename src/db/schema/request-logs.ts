/** Row type of the request logs (src/modules/request-logs/, docs/request-logs.md). */
import type { ColumnType } from 'kysely';

export interface RequestLogsTable {
  platform_id: string;
  /** `req_…`. */
  id: string;
  /** When the response was sent (the app's clock). */
  created_at: ColumnType<Date, Date | string, Date | string>;
  method: string;
  /** The concrete path, without the query string. */
  path: string;
  /** The route's pattern in OpenAPI form (`/v2/tasks/{task_id}`). */
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  idempotency_key: string | null;
  legal_entity_id: string | null;
  api_key_id: string | null;
  /** 4xx/5xx only: the error body as sent, sensitive inputs redacted. */
  error: ColumnType<unknown, string | null, string | null>;
}
