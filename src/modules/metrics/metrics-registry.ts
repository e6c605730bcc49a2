import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type pg from 'pg';
import type { DatabaseErrorClass } from '../../db/database-errors.js';
import type { QueueStats } from '../../jobs/queue.js';

/** Route label of requests that matched no route (404, 405, trailing-slash redirects): one value, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Fastify's `/v2/tasks/:id` as `/v2/tasks/{id}` (the OpenAPI spelling); regex constraints dropped. */
export const routeLabel = (url: string | undefined): string =>
  url === undefined ? UNMATCHED_ROUTE : url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');

// Latency buckets in seconds: fine below 100 ms where the API lives, coarse up to the 10 s a client would give up at.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ScrapeSources {
  pool?: pg.Pool;
  poolMax: number;
  databaseErrors: () => ReadonlyMap<DatabaseErrorClass, number>;
  /** null when this process runs no job queue (queue metrics are then absent). */
  queueStats: (() => Promise<QueueStats[]>) | null;
}

/**
 * The application's metrics. Request metrics are updated per response; everything else is read from
 * its source when scraped (`collect`), so nothing runs between scrapes.
 */
export function createAppMetrics(sources: ScrapeSources) {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'statehouse_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'statehouse_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route pattern and status code',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const { pool } = sources;
  new Gauge({
    name: 'statehouse_db_pool_clients',
    help: 'Connections of the database pool: total open, idle, and checked out (active)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const total = pool?.totalCount ?? 0;
      const idle = pool?.idleCount ?? 0;
      this.set({ state: 'total' }, total);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'active' }, total - idle);
    },
  });
  new Gauge({
    name: 'statehouse_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the database pool',
    registers: [registry],
    collect() {
      this.set(pool?.waitingCount ?? 0);
    },
  });
  new Gauge({
    name: 'statehouse_db_pool_max_clients',
    help: 'Size limit of the database pool (DATABASE_POOL_SIZE)',
    registers: [registry],
  }).set(sources.poolMax);
  new Counter({
    name: 'statehouse_db_errors_total',
    help: 'Failed database operations (queries, connection checkouts, broken idle connections), by class',
    labelNames: ['class'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, count] of sources.databaseErrors()) this.inc({ class: kind }, count);
    },
  });

  const refreshQueueMetrics = sources.queueStats ? queueMetrics(registry, sources.queueStats) : async () => {};

  // The app's metrics and the process's, served together.
  const served = Registry.merge([registry, processMetrics()]);
  return {
    observeRequest(method: string, route: string, statusCode: number, seconds: number) {
      const labels = { method, route, status_code: statusCode };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    contentType: served.contentType,
    /** The Prometheus text of this app's metrics and the process's. */
    async render(): Promise<string> {
      await refreshQueueMetrics();
      return served.metrics();
    },
  };
}

/** Longest a scrape waits for the queue's tables (the database may be slow or away); then the queue metrics say so. */
const QUEUE_STATS_TIMEOUT_MS = 2_000;

/**
 * The queue gauges (read from the shared job tables, so the same in every process: their HELP says to take the
 * max across processes), and the function that fills them from one query (run before each scrape). */
function queueMetrics(registry: Registry, read: () => Promise<QueueStats[]>) {
  const queue = ['queue'] as const;
  const waiting = new Gauge({
    name: 'statehouse_job_queue_waiting_jobs',
    help: 'Jobs not yet started (new or waiting to retry, including scheduled ones) (installation-wide: every process reports the same figure; aggregate with max, not sum)',
    labelNames: queue,
    registers: [registry],
  });
  const active = new Gauge({
    name: 'statehouse_job_queue_active_jobs',
    help: 'Jobs being worked on (installation-wide: every process reports the same figure; aggregate with max, not sum)',
    labelNames: queue,
    registers: [registry],
  });
  const failed = new Gauge({
    name: 'statehouse_job_queue_failed_jobs',
    help: 'Jobs that failed for good (retries exhausted) and are still retained (installation-wide: every process reports the same figure; aggregate with max, not sum)',
    labelNames: queue,
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'statehouse_job_queue_oldest_due_age_seconds',
    help: 'How long the oldest due job has been waiting to start (0: none waiting) (installation-wide: every process reports the same figure; aggregate with max, not sum)',
    labelNames: queue,
    registers: [registry],
  });
  const handlerFailures = new Counter({
    name: 'statehouse_job_failures_total',
    help: 'Job runs that threw in this process (each is retried until its retry limit)',
    labelNames: queue,
    registers: [registry],
  });
  const up = new Gauge({
    name: 'statehouse_job_queue_stats_up',
    help: '1 when this scrape could read the job queue, else 0 (the per-queue metrics are then absent)',
    registers: [registry],
  });
  return async () => {
    const rows = await withTimeout(read(), QUEUE_STATS_TIMEOUT_MS).catch(() => null);
    for (const metric of [waiting, active, failed, oldest, handlerFailures]) metric.reset();
    up.set(rows ? 1 : 0);
    for (const row of rows ?? []) {
      const labels = { queue: row.name };
      waiting.set(labels, row.waiting);
      active.set(labels, row.active);
      failed.set(labels, row.failed);
      oldest.set(labels, row.oldestDueAgeSeconds);
      handlerFailures.inc(labels, row.handlerFailures);
    }
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let processRegistry: Registry | null = null;

/**
 * Process metrics (memory, CPU, event-loop lag, GC, handles) from prom-client's defaults. One registry
 * per process: they describe the process, not an app, and their collectors must not be installed twice.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
