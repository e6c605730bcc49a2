import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import { createRequestLogBuffer, type RequestLogBufferSettings } from './request-log-buffer.js';
import { requestLogJobs } from './request-logs.jobs.js';
import { requestLogsPlugin } from './request-logs.plugin.js';
import { createRequestLogsRepository } from './request-logs.repository.js';
import { requestLogRoutes } from './request-logs.routes.js';
import { createRequestLogsService } from './request-logs.service.js';

export interface RequestLogsModuleDeps {
  db: Db;
  now: () => Date;
  /**
   * config.requestLogs: recording on or off (REQUEST_LOGS), the longest wait before a batch is written
   * (REQUEST_LOGS_FLUSH_MS), days a log is kept (REQUEST_LOGS_RETENTION_DAYS).
   */
  settings: { enabled: boolean; flushIntervalMs: number; retentionDays: number };
  /** The write batches' size and bound (defaults in request-log-buffer.ts). */
  buffer?: Pick<RequestLogBufferSettings, 'batchSize' | 'maxBuffered'>;
}

/**
 * Request logs (docs/request-logs.md): every API request of a platform recorded after its response (the hooks and
 * their write buffer), GET /v2/request_logs(/{id}), the service the console lists with, and the retention job.
 */
export function createRequestLogsModule(deps: RequestLogsModuleDeps) {
  const logs = createRequestLogsService({ db: deps.db, now: deps.now, retentionDays: deps.settings.retentionDays });
  const repository = createRequestLogsRepository(deps.db);
  return {
    logs,
    jobs: requestLogJobs(logs),
    /** The recording hooks (no routes), on the root instance: register before the routes. Nothing when REQUEST_LOGS=off. */
    register: async (app: FastifyInstance) => {
      if (!deps.settings.enabled) return;
      const buffer = createRequestLogBuffer({
        ...deps.buffer,
        intervalMs: deps.settings.flushIntervalMs,
        insert: (rows) => repository.insert(rows),
        warn: (m) => app.log.warn(m),
      });
      await app.register(requestLogsPlugin(buffer, deps.now));
    },
    /** GET /v2/request_logs and GET /v2/request_logs/{id}. */
    routes:
      (http: { auth: AuthHooks }): FastifyPluginAsync =>
      async (app) => {
        await app.register(requestLogRoutes({ logs, auth: http.auth }));
      },
  };
}

export type RequestLogsModule = ReturnType<typeof createRequestLogsModule>;
