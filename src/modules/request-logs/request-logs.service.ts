import type { Db } from '../../db/database.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { RequestLogQuery, RequestLogsService, RequestLogView } from './contract.js';
import { createRequestLogsRepository, type RequestLogsRepository } from './request-logs.repository.js';

/** Logs deleted per statement by the retention job: short statements, no long lock. */
export const PRUNE_BATCH = 5000;

export interface RequestLogsServiceDeps {
  db: Db;
  now: () => Date;
  /** Days a log is kept (REQUEST_LOGS_RETENTION_DAYS). */
  retentionDays: number;
  repositoryFor?: (db: Db) => RequestLogsRepository;
}

type Row = Awaited<ReturnType<RequestLogsRepository['find']>> & object;

const view = (row: Row): RequestLogView => ({
  id: row.id,
  created_at: new Date(row.created_at).toISOString(),
  method: row.method,
  path: row.path,
  route: row.route,
  status: row.status,
  duration_ms: row.duration_ms,
  request_id: row.request_id,
  idempotency_key: row.idempotency_key,
  legal_entity_id: row.legal_entity_id,
  api_key_id: row.api_key_id,
  error: row.error ?? null,
});

/** Reading a platform's request logs (GET /v2/request_logs, the console) and keeping them to their retention. */
export function createRequestLogsService(deps: RequestLogsServiceDeps): RequestLogsService & { prune(): Promise<number> } {
  const repo = (deps.repositoryFor ?? createRequestLogsRepository)(deps.db);
  return {
    async list(platformId: string, query: RequestLogQuery) {
      const { startingAfter, ...filter } = query;
      const after = startingAfter === undefined ? undefined : await repo.positionOf(platformId, startingAfter);
      if (startingAfter !== undefined && !after) {
        throw new InvalidInputError(
          ['starting_after'],
          'Not a request log of this platform (or older than the retention period): pass the id of a log you listed',
          startingAfter,
        );
      }
      const rows = await repo.list(platformId, { ...filter, after, limit: query.limit + 1 });
      return { logs: rows.slice(0, query.limit).map(view), hasMore: rows.length > query.limit };
    },

    async get(platformId: string, id: string) {
      const row = await repo.find(platformId, id);
      return row && view(row);
    },

    /** Deletes every log older than the retention period (the app's clock), a batch per statement; the count deleted. */
    async prune(): Promise<number> {
      const cutoff = new Date(deps.now().getTime() - deps.retentionDays * 86_400_000);
      let total = 0;
      for (;;) {
        const deleted = await repo.deleteCreatedBefore(cutoff, PRUNE_BATCH);
        total += deleted;
        if (deleted < PRUNE_BATCH) return total;
      }
    },
  };
}

export type RequestLogsServiceWithPrune = ReturnType<typeof createRequestLogsService>;
