import type { Db } from '../../db/database.js';
import type { JobSender } from '../../jobs/queue.js';
import type { EventFeed } from '../events/contract.js';
import type { DeliveryTarget, EndpointsForDelivery } from '../webhooks/contract.js';
import { createWebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { DELIVER_JOB } from './webhook-deliveries.types.js';

/** Events read per transaction of the fan-out. */
export const FAN_OUT_BATCH = 500;
/** How often each serving process looks for events past the cursor (one index probe when there are none). */
export const FAN_OUT_POLL_MS = 500;

export interface FanOutDeps {
  db: Db;
  endpoints: Pick<EndpointsForDelivery, 'subscribedTo'>;
  /** The event log, read past the cursor (the events module's feed). */
  events: Pick<EventFeed, 'snapshotXmin' | 'after' | 'anyAfter'>;
  jobs: JobSender;
}

export interface FanOutResult {
  events: number;
  deliveries: number;
}

/**
 * Outbox → deliveries. Each batch is one transaction: the cursor's row lock (several processes may run this; they
 * take turns), the next events in (xid, seq) order that no running transaction can still precede, a delivery per
 * subscribed enabled endpoint, a `webhooks.deliver` job per delivery, the cursor moved past the batch. A crash at
 * any point leaves the batch either wholly done or wholly to do.
 */
export function createFanOut(deps: FanOutDeps) {
  async function batch(): Promise<FanOutResult> {
    return deps.db.transaction().execute(async (trx) => {
      const repository = createWebhookDeliveriesRepository(trx);
      const xmin = await deps.events.snapshotXmin(trx);
      const cursor = await repository.lockCursor();
      const events = await deps.events.after(trx, cursor, xmin, FAN_OUT_BATCH);
      if (events.length === 0) return { events: 0, deliveries: 0 };
      // A batch holds few distinct (platform, type) pairs: one subscription query each.
      const subscribed = new Map<string, Promise<DeliveryTarget[]>>();
      const rows: { endpointId: string; eventId: string; platformId: string }[] = [];
      for (const event of events) {
        const key = `${event.platform_id} ${event.type}`;
        if (!subscribed.has(key)) subscribed.set(key, deps.endpoints.subscribedTo(trx, event.platform_id, event.type));
        for (const target of await subscribed.get(key)!)
          rows.push({ endpointId: target.id, eventId: event.id, platformId: event.platform_id });
      }
      const created = await repository.insertDeliveries(rows);
      await deps.jobs.sendMany(
        DELIVER_JOB,
        created.map((deliveryId) => ({ deliveryId, attempt: 1 })),
        { transaction: trx },
      );
      const last = events.at(-1)!;
      await repository.advanceCursor({ xid: last.xid, seq: last.seq });
      return { events: events.length, deliveries: created.length };
    });
  }

  return {
    /** Fans out every event visible now, batch after batch while batches come back full. */
    async run(): Promise<FanOutResult> {
      const total = { events: 0, deliveries: 0 };
      for (;;) {
        const done = await batch();
        total.events += done.events;
        total.deliveries += done.deliveries;
        if (done.events < FAN_OUT_BATCH) return total;
      }
    },
    /** Whether the log holds anything past the cursor: the idle poll's two cheap queries (the cursor, one index probe). */
    pending: async () => deps.events.anyAfter(deps.db, await createWebhookDeliveriesRepository(deps.db).cursor()),
  };
}

export type FanOut = ReturnType<typeof createFanOut>;

/** The serving process's fan-out loop: returns its stop, which waits for a run in progress. */
export function startFanOutLoop(fanOut: FanOut, log: (message: string) => void, intervalMs = FAN_OUT_POLL_MS): () => Promise<void> {
  let stopped = false;
  let failing = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      try {
        if (await fanOut.pending()) await fanOut.run();
        if (failing) log('webhook fan-out running again');
        failing = false;
      } catch (error) {
        // Logged once per outage (the database away, say); the next tick tries again.
        if (!failing) log(`webhook fan-out failed (retrying every ${intervalMs} ms): ${(error as Error).message}`);
        failing = true;
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();
  return async () => {
    stopped = true;
    (wake as (() => void) | null)?.();
    await loop;
  };
}
