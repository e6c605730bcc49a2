/** The webhooks step's reads of the event outbox (the bench's own connection): a marker, and the events after it. */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { checkpoint } from './run-state.js';
import { say } from './settings.js';
import type { WebhookReceiver } from './webhook-receiver.js';

const POLL_MS = 250;
/** No new delivery arrived for this long while some are missing: give up (and fail). */
const STALL_MS = 120_000;

/** The outbox's highest seq now: the events a phase produces are the platform's above it. */
export async function outboxMarker(db: Db): Promise<string> {
  const { rows } = await sql<{ seq: string | null }>`select max(seq)::text as seq from events`.execute(db);
  return rows[0]?.seq ?? '0';
}

export async function countEventsAfter(db: Db, platformId: string, marker: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from events where platform_id = ${platformId} and seq > ${marker}::bigint`.execute(db);
  return rows[0]?.n ?? 0;
}

export interface OutboxEvent {
  id: string;
  legalEntityId: string | null;
  type: string;
  /** created_at (its transaction's start), in ms since the epoch with PostgreSQL's microseconds. */
  createdMs: number;
}

export async function eventsAfter(db: Db, platformId: string, marker: string): Promise<OutboxEvent[]> {
  const { rows } = await sql<{ id: string; legal_entity_id: string | null; type: string; created_ms: number }>`
    select id, legal_entity_id, type, extract(epoch from created_at) * 1000 as created_ms
    from events where platform_id = ${platformId} and seq > ${marker}::bigint
  `.execute(db);
  return rows.map((r) => ({ id: r.id, legalEntityId: r.legal_entity_id, type: r.type, createdMs: Number(r.created_ms) }));
}

/**
 * Waits until the receiver has a verified delivery of every event of the platform after `marker`, or none arrives
 * for STALL_MS. Returns the events, and the ids still missing (empty when all arrived).
 */
export async function awaitDelivered(
  db: Db,
  platformId: string,
  marker: string,
  receiver: WebhookReceiver,
): Promise<{ events: OutboxEvent[]; missing: string[] }> {
  let lastArrived = -1;
  let lastMove = Date.now();
  for (;;) {
    checkpoint();
    const events = await eventsAfter(db, platformId, marker);
    const missing = events.filter((e) => !receiver.arrivals.has(e.id)).map((e) => e.id);
    if (missing.length === 0) return { events, missing };
    const arrived = events.length - missing.length;
    if (arrived !== lastArrived) {
      lastArrived = arrived;
      lastMove = Date.now();
    } else if (Date.now() - lastMove > STALL_MS) {
      say(`webhooks: no delivery for ${STALL_MS / 1000} s, ${missing.length} of ${events.length} events not delivered`);
      return { events, missing };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
