import type { FastifyInstance } from 'fastify';
import { registerMetrics, type MetricsDeps } from './metrics.plugin.js';

/** /metrics (Prometheus): request, pool, queue and process metrics (docs/observability.md). No tables, no jobs. */
export function createMetricsModule(deps: MetricsDeps) {
  return {
    /**
     * Registers on the root instance itself (not as an encapsulated plugin): its response hook measures every
     * route. Call before the routes.
     */
    register: (app: FastifyInstance) => registerMetrics(app, deps),
  };
}

export type MetricsModule = ReturnType<typeof createMetricsModule>;
