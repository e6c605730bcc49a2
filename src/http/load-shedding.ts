import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { HttpError } from '../lib/errors.js';
import { UNLIMITED_ROUTES } from './rate-limits.js';

/** Seconds a client is asked to wait when this process sheds load or is shutting down. */
export const SHED_RETRY_AFTER_SECONDS = 5;

const SAMPLE_MS = 1000;
/** Consecutive lagging samples before requests are shed. */
const SUSTAINED_SAMPLES = 2;

const unavailable = (detail: string) => new HttpError(503, detail, { 'retry-after': String(SHED_RETRY_AFTER_SECONDS) });

/**
 * 503 in the error envelope, before any other work, when the event loop has fallen behind (so the requests
 * already accepted can still finish in time) and while the server shuts down. The probes are never shed:
 * a liveness check that fails under load would get a busy process killed.
 */
export async function registerLoadShedding(app: FastifyInstance, limits: Config['loadShedding']): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Replaces Fastify's return503OnClosing (whose body is not our envelope): requests that still arrive on
  // open connections during the drain.
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw unavailable('The server is shutting down; retry the request');
  });
  const { maxEventLoopDelayMs: maxDelay, maxEventLoopUtilization: maxUtilization, maxHeapUsedShare } = limits;
  if (maxDelay === 0 && maxUtilization === 0 && maxHeapUsedShare === 0) return;
  let streak = 0;
  // Near V8's heap limit (`--max-old-space-size`: 256 MiB under `npm start` and the binary) requests are shed at
  // once, without waiting for a streak: a 503 the client retries is better than a process out of memory.
  const heapShedBytes = maxHeapUsedShare > 0 ? maxHeapUsedShare * getHeapStatistics().heap_size_limit : Infinity;
  await app.register(underPressure, {
    sampleInterval: SAMPLE_MS,
    // Judge the last sample interval, not the process's whole life.
    eventLoopUtilizationMode: 'interval',
    // The thresholds are judged here rather than by the plugin, so that pressure must last: one long
    // synchronous stretch (start-up, a large GC) lags a single sample but is not an overload.
    healthCheckInterval: SAMPLE_MS,
    healthCheck: async (instance) => {
      const { eventLoopDelay, eventLoopUtilized, heapUsed } = instance.memoryUsage();
      if (heapUsed > heapShedBytes) return false;
      const over = (maxDelay > 0 && eventLoopDelay > maxDelay) || (maxUtilization > 0 && eventLoopUtilized > maxUtilization);
      streak = over ? streak + 1 : 0;
      return streak < SUSTAINED_SAMPLES;
    },
    pressureHandler: (request, _reply, type) => {
      if (UNLIMITED_ROUTES.has(request.routeOptions.url ?? '')) return undefined; // let it through
      request.log.warn({ type }, 'shedding load');
      // A rejection goes to the error handler, which renders the envelope.
      return Promise.reject(unavailable('The server is overloaded; retry the request'));
    },
  });
}
