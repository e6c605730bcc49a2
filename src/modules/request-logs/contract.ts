/**
 * The request logs' contract: what another module (the platform console) may use to show a platform its own API
 * requests. Recording is wired by app.ts (the module's plugin); nothing here does I/O.
 */

/** Request log ids: `req_…`. */
export const REQUEST_LOG_ID_PREFIX = 'req';

/** What replaces a sensitive value in a stored error body. */
export const REDACTED = '[redacted]';

/** One API request as GET /v2/request_logs shows it. */
export interface RequestLogView {
  id: string;
  created_at: string;
  method: string;
  /** The concrete path, without the query string. */
  path: string;
  /** The route's pattern (`/v2/tasks/{task_id}`); null when no route matched. */
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  idempotency_key: string | null;
  legal_entity_id: string | null;
  api_key_id: string | null;
  /** 4xx/5xx only: the error body as sent, every sensitive input redacted; null for a success. */
  error: unknown;
}

/** A status filter: one code (404) or a class (4 for 4xx). */
export type StatusFilter = { code: number } | { class: number };

export interface RequestLogQuery {
  status?: StatusFilter;
  method?: string;
  /** Matches the concrete path or the route pattern, exactly. */
  path?: string;
  legalEntityId?: string;
  requestId?: string;
  idempotencyKey?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** A log id of this platform: the page starts after it (newest first). */
  startingAfter?: string;
  limit: number;
}

/** What the console (or any module) calls to list a platform's own logs; another platform's are never returned. */
export interface RequestLogsService {
  /** One page, newest first, and whether more logs follow it now. An unknown `startingAfter` is a 422 (InvalidInputError). */
  list(platformId: string, query: RequestLogQuery): Promise<{ logs: RequestLogView[]; hasMore: boolean }>;
  /** The platform's log; undefined for an unknown id or another platform's. */
  get(platformId: string, id: string): Promise<RequestLogView | undefined>;
}
