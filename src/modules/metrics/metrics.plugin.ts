import type { FastifyInstance } from 'fastify';
import { databaseErrorCounts } from '../../db/database-errors.js';
import { poolOf, type Db } from '../../db/database.js';
import { isJobQueueStatsSource, type JobSender } from '../../jobs/queue.js';
import { METRICS_PATH } from './contract.js';
import { metricsAccessCheck } from './metrics-access.js';
import { createAppMetrics, routeLabel } from './metrics-registry.js';

/**
 * Measures every response (count and latency by method, route pattern and status) and serves the
 * Prometheus text at /metrics, protected as described in docs/observability.md.
 */
export interface MetricsDeps {
  db: Db;
  jobs?: JobSender;
  /** METRICS_TOKEN: who may read the scrape (metrics-access.ts). */
  token: string | null;
}

export async function registerMetrics(app: FastifyInstance, deps: MetricsDeps): Promise<void> {
  const pool = poolOf(deps.db);
  const { jobs } = deps;
  const metrics = createAppMetrics({
    ...(pool && { pool }),
    poolMax: pool?.options.max ?? 0,
    databaseErrors: () => databaseErrorCounts(deps.db),
    queueStats: isJobQueueStatsSource(jobs) ? () => jobs.stats() : null,
  });

  // Route patterns are few and fixed: compute each one's label once.
  const routeLabels = new Map<string | undefined, string>();
  const labelOf = (url: string | undefined) => routeLabels.get(url) ?? routeLabels.set(url, routeLabel(url)).get(url)!;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, labelOf(request.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const checkAccess = metricsAccessCheck(deps.token);
  app.get(
    METRICS_PATH,
    {
      // Scrapes come every few seconds: keep them out of the request log unless something goes wrong.
      logLevel: 'warn',
      schema: { hide: true },
    },
    async (request, reply) => {
      checkAccess(request);
      return reply.type(metrics.contentType).send(await metrics.render());
    },
  );
}
