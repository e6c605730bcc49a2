import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { DeliveryStatus } from './webhook-deliveries.types.js';

export const DELIVERY_ID_PREFIX = 'whd';

/** Where the fan-out has read the outbox up to: the last event's transaction id (xid8, as text) and seq. */
export interface DispatchCursor {
  xid: string;
  seq: number;
}

export interface OutboxEvent {
  id: string;
  platform_id: string;
  type: string;
  xid: string;
  seq: number;
}

/** A delivery with its event, as an attempt needs it. */
export interface DeliveryToAttempt {
  id: string;
  platform_id: string;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: number;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  legal_entity_id: string | null;
  data: Record<string, unknown>;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

export interface AttemptRow {
  trigger: 'automatic' | 'manual';
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
}

const deliveryColumns = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'e.type as event_type',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_attempt_at',
  'd.created_at',
] as const;

/** Every query of webhook deliveries: the fan-out's cursor and reads, deliveries, attempts. */
export function createWebhookDeliveriesRepository(db: Db) {
  /** Deliveries joined to their events (on the whole key: the event's platform is the delivery's). */
  const withEvents = () =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', (join) => join.onRef('e.id', '=', 'd.event_id').onRef('e.platform_id', '=', 'd.platform_id'));

  return {
    // ---- the fan-out (outbox → deliveries)

    /**
     * Every transaction with an id below this had ended when the snapshot was taken: their events are all visible
     * now and no event with a smaller (xid, seq) can still appear. Read before the cursor's row lock gives this
     * transaction an id of its own (which would hold the bound back).
     */
    snapshotXmin: async (): Promise<string> =>
      (await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db)).rows[0]!.xmin,

    /** The cursor, locked until the transaction ends: one fan-out at a time, whichever process runs it. */
    lockCursor: async (): Promise<DispatchCursor> => {
      const row = (
        await sql<{ xid: string; seq: number }>`
        select last_xid::text as xid, last_seq as seq from event_dispatch_state where id = 1 for update`.execute(db)
      ).rows[0]!;
      return { xid: row.xid, seq: Number(row.seq) };
    },

    /** The next events past the cursor whose transactions are older than `xmin`, in (xid, seq) order. */
    eventsAfter: async (cursor: DispatchCursor, xmin: string, limit: number): Promise<OutboxEvent[]> =>
      (
        await sql<OutboxEvent>`
        select id, platform_id, type, xid::text as xid, seq from events
         where (xid, seq) > (${cursor.xid}::xid8, ${cursor.seq}::bigint) and xid < ${xmin}::xid8
         order by xid, seq limit ${limit}`.execute(db)
      ).rows.map((e) => ({ ...e, seq: Number(e.seq) })),

    advanceCursor: async (cursor: DispatchCursor): Promise<void> => {
      await sql`update event_dispatch_state set last_xid = ${cursor.xid}::xid8, last_seq = ${cursor.seq}, updated_at = now() where id = 1`.execute(
        db,
      );
    },

    /** Whether any event lies past the cursor (visible or not yet): the cheap probe of the idle poll. */
    hasEventsPastCursor: async (): Promise<boolean> =>
      (
        await sql<{ found: boolean }>`
        select exists (select 1 from events e, event_dispatch_state s where s.id = 1 and (e.xid, e.seq) > (s.last_xid, s.last_seq)) as found`.execute(
          db,
        )
      ).rows[0]!.found,

    /** One delivery per (endpoint, event); an existing one is left as it is. Returns the ids of those created. */
    async insertDeliveries(rows: readonly { endpointId: string; eventId: string; platformId: string }[]): Promise<string[]> {
      if (rows.length === 0) return [];
      const inserted = await db
        .insertInto('webhook_deliveries')
        .values(
          rows.map((r) => ({ id: newId(DELIVERY_ID_PREFIX), endpoint_id: r.endpointId, event_id: r.eventId, platform_id: r.platformId })),
        )
        .onConflict((oc) => oc.columns(['endpoint_id', 'event_id', 'platform_id']).doNothing())
        .returning('id')
        .execute();
      return inserted.map((r) => r.id);
    },

    // ---- attempts

    deliveryToAttempt: (deliveryId: string): Promise<DeliveryToAttempt | undefined> =>
      withEvents()
        .select([
          'd.id',
          'd.platform_id',
          'd.endpoint_id',
          'd.status',
          'd.attempts',
          'e.id as event_id',
          'e.type as event_type',
          'e.created_at as event_created_at',
          'e.legal_entity_id',
          'e.data',
        ])
        .where('d.id', '=', deliveryId)
        .executeTakeFirst(),

    /** Records one attempt and the delivery's new state; returns how many attempts the delivery has had. */
    async recordAttempt(
      delivery: Pick<DeliveryToAttempt, 'id' | 'platform_id'>,
      attempt: AttemptRow,
      next: { status: DeliveryStatus; nextAttemptAt: Date | null },
    ): Promise<number> {
      await db
        .insertInto('webhook_attempts')
        .values({ delivery_id: delivery.id, platform_id: delivery.platform_id, ...attempt })
        .execute();
      const row = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: next.status,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: next.nextAttemptAt,
          last_attempt_at: attempt.attempted_at,
        }))
        .where('id', '=', delivery.id)
        .where('platform_id', '=', delivery.platform_id)
        .returning('attempts')
        .executeTakeFirstOrThrow();
      return row.attempts;
    },

    // ---- the API (always within the platform)

    /** The platform's endpoint (not deleted) and whether it is enabled; undefined for any other. */
    endpointOf: (platformId: string, endpointId: string) =>
      db
        .selectFrom('webhook_endpoints')
        .select(['id', 'status'])
        .where('platform_id', '=', platformId)
        .where('id', '=', endpointId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),

    /** Newest first; `afterId`: the last delivery of the previous page (compared in SQL: timestamps keep microseconds). */
    listDeliveries: (endpointId: string, filter: { status?: DeliveryStatus; afterId?: string; limit: number }): Promise<DeliveryRow[]> => {
      let query = withEvents().select(deliveryColumns).where('d.endpoint_id', '=', endpointId);
      if (filter.status) query = query.where('d.status', '=', filter.status);
      if (filter.afterId) {
        query = query.where(
          sql<boolean>`(d.created_at, d.id) < (select p.created_at, p.id from webhook_deliveries p where p.id = ${filter.afterId})`,
        );
      }
      return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(filter.limit).execute();
    },

    delivery: (endpointId: string, deliveryId: string, options: { lock?: boolean } = {}): Promise<DeliveryRow | undefined> => {
      const query = withEvents().select(deliveryColumns).where('d.endpoint_id', '=', endpointId).where('d.id', '=', deliveryId);
      return (options.lock ? query.forUpdate('d') : query).executeTakeFirst();
    },

    attemptsOf: (deliveryId: string): Promise<AttemptRow[]> =>
      db
        .selectFrom('webhook_attempts')
        .select(['trigger', 'attempted_at', 'status_code', 'error', 'latency_ms', 'response_excerpt'])
        .where('delivery_id', '=', deliveryId)
        .orderBy('id')
        .execute(),
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
