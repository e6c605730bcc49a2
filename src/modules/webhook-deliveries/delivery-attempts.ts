import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { JobSender } from '../../jobs/queue.js';
import type { EventFeed } from '../events/contract.js';
import type { DestinationGuard, EndpointsForDelivery } from '../webhooks/contract.js';
import { retryDelayMs } from './retry-schedule.js';
import { createWebhookDeliveriesRepository, type DeliveryToAttempt } from './webhook-deliveries.repository.js';
import { DELIVER_JOB, type DeliverJobData } from './webhook-deliveries.types.js';
import { signedHeaders } from './webhook-message.js';
import { postWebhook, type AttemptOutcome } from './webhook-request.js';

/**
 * Attempts of one slow endpoint running at once in a process: beyond this, while its oldest running attempt has
 * taken longer than SLOW_ATTEMPT_MS, its next ones wait a second, so one slow receiver cannot hold every worker.
 * A fast endpoint is never held back (it may use every worker).
 */
export const ENDPOINT_SHARE = 4;
export const SLOW_ATTEMPT_MS = 1_000;
/** Workers of the delivery queue per process (twice the share: others' deliveries always have room). */
export const DELIVERY_WORKERS = 2 * ENDPOINT_SHARE;
/**
 * However fast it has been so far, one endpoint never holds more attempts than this: when a burst of its jobs is
 * fetched at once, before any could be seen to be slow, a receiver that then hangs still leaves workers for others.
 */
export const ENDPOINT_MAX_RUNNING = DELIVERY_WORKERS - 2;

export const NOT_ATTEMPTED = 'Not attempted: the endpoint is disabled or deleted';

export interface DeliveryAttemptsDeps {
  db: Db;
  endpoints: EndpointsForDelivery;
  /** The delivered event, read from the events module's log. */
  events: Pick<EventFeed, 'get'>;
  guard: DestinationGuard;
  jobs: JobSender;
  settings: Pick<Config['webhooks'], 'attemptTimeoutMs' | 'retryBaseMs' | 'maxAttempts'>;
  now: () => Date;
}

/** The `webhooks.deliver` job: one signed attempt, recorded with its consequences in one transaction. */
export function createDeliveryAttempts(deps: DeliveryAttemptsDeps) {
  /** Per endpoint, the start times of its attempts running in this process. */
  const inFlight = new Map<string, Set<number>>();
  const isHeldUp = (endpointId: string) => {
    const running = inFlight.get(endpointId);
    if (running === undefined) return false;
    return (
      running.size >= ENDPOINT_MAX_RUNNING || (running.size >= ENDPOINT_SHARE && performance.now() - Math.min(...running) > SLOW_ATTEMPT_MS)
    );
  };

  /**
   * Records the attempt, the delivery's new state, the endpoint's outcome and (failed, automatic, attempts left)
   * the next attempt's job, together: a crash leaves either all of them or none (and the job runs again).
   */
  async function record(
    delivery: DeliveryToAttempt,
    job: DeliverJobData,
    outcome: AttemptOutcome,
    at: Date,
    options: { countsForEndpoint: boolean },
  ) {
    const attemptsAfter = delivery.attempts + 1;
    const retry = !outcome.ok && !job.manual && options.countsForEndpoint && attemptsAfter < deps.settings.maxAttempts;
    const pauseMs = retry ? retryDelayMs(attemptsAfter, deps.settings.retryBaseMs) : 0;
    await deps.db.transaction().execute(async (trx) => {
      await createWebhookDeliveriesRepository(trx).recordAttempt(
        delivery,
        {
          trigger: job.manual ? 'manual' : 'automatic',
          attempted_at: at,
          status_code: outcome.statusCode,
          error: outcome.error,
          latency_ms: outcome.latencyMs,
          response_excerpt: outcome.excerpt,
        },
        { status: outcome.ok ? 'succeeded' : retry ? 'pending' : 'failed', nextAttemptAt: retry ? new Date(at.getTime() + pauseMs) : null },
      );
      if (options.countsForEndpoint) {
        await deps.endpoints.recordOutcome(trx, delivery.endpoint_id, {
          ok: outcome.ok,
          at,
          ...(outcome.error !== null && { error: outcome.error }),
        });
      }
      if (retry) {
        await deps.jobs.send(
          DELIVER_JOB,
          { deliveryId: delivery.id, attempt: attemptsAfter + 1 },
          { transaction: trx, startAfterSeconds: pauseMs / 1000 },
        );
      }
    });
  }

  return {
    async deliver(job: DeliverJobData): Promise<string> {
      const delivery = await createWebhookDeliveriesRepository(deps.db).deliveryToAttempt(job.deliveryId);
      // A test event is carried by its delivery; every other event is read from the log.
      const event = delivery && (delivery.test_event ?? (await deps.events.get(deps.db, delivery.platform_id, delivery.event_id)));
      // Gone with its event (retention) or its endpoint; or this attempt was already made and recorded.
      if (!delivery || !event) return 'no such delivery';
      if (!job.manual && (delivery.status !== 'pending' || delivery.attempts >= job.attempt)) return 'already attempted';
      const target = await deps.endpoints.target(deps.db, delivery.endpoint_id);
      if (!target) {
        await record(delivery, job, { ok: false, statusCode: null, error: NOT_ATTEMPTED, latencyMs: 0, excerpt: null }, deps.now(), {
          countsForEndpoint: false,
        });
        return 'endpoint disabled or deleted';
      }
      if (isHeldUp(target.id)) {
        await deps.jobs.send(DELIVER_JOB, job, { startAfterSeconds: 1 });
        return 'deferred: the endpoint is slow and has its share of attempts running';
      }
      const running = inFlight.get(target.id) ?? new Set<number>();
      let startedAt = performance.now();
      while (running.has(startedAt)) startedAt += 1e-6;
      running.add(startedAt);
      inFlight.set(target.id, running);
      try {
        const secrets = await deps.endpoints.signingSecrets(deps.db, target.id);
        const body = JSON.stringify(event);
        const at = deps.now();
        const outcome = await postWebhook(target.url, signedHeaders(delivery.event_id, body, secrets, at), body, {
          timeoutMs: deps.settings.attemptTimeoutMs,
          guard: deps.guard,
        });
        await record(delivery, job, outcome, at, { countsForEndpoint: true });
        return outcome.ok ? 'delivered' : `failed: ${outcome.error}`;
      } finally {
        running.delete(startedAt);
        if (running.size === 0) inFlight.delete(target.id);
      }
    },
  };
}
