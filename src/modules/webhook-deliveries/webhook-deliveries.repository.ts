import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { EventPosition } from '../events/contract.js';
import type { DeliveryStatus } from './webhook-deliveries.types.js';

export const DELIVERY_ID_PREFIX = 'whd';

/** A delivery as an attempt needs it (its event is read through the events module's feed). */
export interface DeliveryToAttempt {
  id: string;
  platform_id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  /** A test event's whole body (it is not in the log); null for an event of the log. */
  test_event: Record<string, unknown> | null;
}

/** A delivery as the API lists it; `event_type` is the events module's (EventFeed.typesOf). */
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

/** A delivery row without its event's type (a test event's type is its own, `test_event_type`). */
export type DeliveryRecord = Omit<DeliveryRow, 'event_type'> & { test_event_type: string | null };

/** A test event's id and type are read from it: it has no row in the log. */
const eventIdColumn = sql<string>`coalesce(event_id, test_event->>'id')`.as('event_id');
const testEventTypeColumn = sql<string | null>`test_event->>'type'`.as('test_event_type');

const deliveryColumns = [
  'id',
  'endpoint_id',
  eventIdColumn,
  testEventTypeColumn,
  'status',
  'attempts',
  'next_attempt_at',
  'last_attempt_at',
  'created_at',
] as const;

/** Every query of webhook deliveries: the fan-out's cursor, deliveries, attempts (events and endpoints are read through their modules). */
export function createWebhookDeliveriesRepository(db: Db) {
  const cursorRow = (lock: boolean) => sql<{ xid: string; seq: number }>`
        select last_xid::text as xid, last_seq as seq from event_dispatch_state where id = 1 ${lock ? sql`for update` : sql``}`;
  const readCursor = async (lock: boolean): Promise<EventPosition> => {
    const row = (await cursorRow(lock).execute(db)).rows[0]!;
    return { xid: row.xid, seq: Number(row.seq) };
  };

  return {
    // ---- the fan-out (event log → deliveries)

    /** The cursor, locked until the transaction ends: one fan-out at a time, whichever process runs it. */
    lockCursor: (): Promise<EventPosition> => readCursor(true),

    /** The cursor as it is now (the idle poll's probe; no lock). */
    cursor: (): Promise<EventPosition> => readCursor(false),

    advanceCursor: async (cursor: EventPosition): Promise<void> => {
      await sql`update event_dispatch_state set last_xid = ${cursor.xid}::xid8, last_seq = ${cursor.seq}, updated_at = now() where id = 1`.execute(
        db,
      );
    },

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

    /** A delivery of a test event to one endpoint (POST /v2/webhook_endpoints/{id}/test); its event is not in the log. */
    insertTestDelivery: (row: { endpointId: string; platformId: string; event: Record<string, unknown> }): Promise<DeliveryRecord> =>
      db
        .insertInto('webhook_deliveries')
        .values({
          id: newId(DELIVERY_ID_PREFIX),
          endpoint_id: row.endpointId,
          platform_id: row.platformId,
          event_id: null,
          test_event: JSON.stringify(row.event),
        })
        .returning(deliveryColumns)
        .executeTakeFirstOrThrow(),

    // ---- attempts

    deliveryToAttempt: (deliveryId: string): Promise<DeliveryToAttempt | undefined> =>
      db
        .selectFrom('webhook_deliveries')
        .select(['id', 'platform_id', 'endpoint_id', eventIdColumn, 'test_event', 'status', 'attempts'])
        .where('id', '=', deliveryId)
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

    /** Newest first; `afterId`: the last delivery of the previous page (compared in SQL: timestamps keep microseconds). */
    listDeliveries: (
      endpointId: string,
      filter: { status?: DeliveryStatus; afterId?: string; limit: number },
    ): Promise<DeliveryRecord[]> => {
      let query = db.selectFrom('webhook_deliveries').select(deliveryColumns).where('endpoint_id', '=', endpointId);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.afterId) {
        query = query.where(
          sql<boolean>`(webhook_deliveries.created_at, webhook_deliveries.id) < (select p.created_at, p.id from webhook_deliveries p where p.id = ${filter.afterId})`,
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    },

    delivery: (endpointId: string, deliveryId: string, options: { lock?: boolean } = {}): Promise<DeliveryRecord | undefined> => {
      const query = db
        .selectFrom('webhook_deliveries')
        .select(deliveryColumns)
        .where('endpoint_id', '=', endpointId)
        .where('id', '=', deliveryId);
      return (options.lock ? query.forUpdate() : query).executeTakeFirst();
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
