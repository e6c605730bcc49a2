import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { EventPosition, LoggedEvent, NewEvent } from './contract.js';

export const EVENT_ID_PREFIX = 'evt';

export interface EventFilter {
  types?: readonly string[];
  legalEntityId?: string;
  after?: { xid: string; seq: number | string };
  limit: number;
}

/** Events per insert statement: 5 parameters each, well under PostgreSQL's 65 535. */
const INSERT_CHUNK = 5_000;

/** Every query of the event outbox. */
export function createEventsRepository(db: Db) {
  return {
    /**
     * Multi-row inserts of up to INSERT_CHUNK events (a roll-forward batch's first planning writes tens of thousands:
     * one statement would pass PostgreSQL's 65 535 parameters); `xid`, `seq` and `created_at` come from the column
     * defaults (the writing transaction), `seq` in order.
     */
    async insert(events: readonly NewEvent[]): Promise<void> {
      for (let start = 0; start < events.length; start += INSERT_CHUNK) {
        await db
          .insertInto('events')
          .values(
            events.slice(start, start + INSERT_CHUNK).map((e) => ({
              id: newId(EVENT_ID_PREFIX),
              platform_id: e.platformId,
              legal_entity_id: e.legalEntityId,
              type: e.type,
              data: JSON.stringify(e.data),
            })),
          )
          .execute();
      }
    },

    /** The platform's event's position; undefined for an unknown id or another platform's. */
    positionOf: (platformId: string, eventId: string): Promise<{ xid: string; seq: number | string } | undefined> =>
      db.selectFrom('events').select(['xid', 'seq']).where('platform_id', '=', platformId).where('id', '=', eventId).executeTakeFirst(),

    /** The platform's event; undefined for an unknown id or another platform's. */
    find: (platformId: string, eventId: string) =>
      db
        .selectFrom('events')
        .select(['id', 'type', 'created_at', 'legal_entity_id', 'data'])
        .where('platform_id', '=', platformId)
        .where('id', '=', eventId)
        .executeTakeFirst(),

    /** The types of these events of the platform. */
    typesOf: (platformId: string, eventIds: readonly string[]) =>
      eventIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('events')
            .select(['id', 'type'])
            .where('platform_id', '=', platformId)
            .where('id', 'in', [...eventIds])
            .execute(),

    // ---- the feed (every platform's events in log order; webhook deliveries' fan-out)

    /** See EventFeed.snapshotXmin. */
    snapshotXmin: async (): Promise<string> =>
      (await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(db)).rows[0]!.xmin,

    /** The next events past `after` whose transactions are older than `xmin`, in (xid, seq) order. */
    after: async (after: EventPosition, xmin: string, limit: number): Promise<LoggedEvent[]> =>
      (
        await sql<LoggedEvent>`
        select id, platform_id, type, xid::text as xid, seq from events
         where (xid, seq) > (${after.xid}::xid8, ${after.seq}::bigint) and xid < ${xmin}::xid8
         order by xid, seq limit ${limit}`.execute(db)
      ).rows.map((e) => ({ ...e, seq: Number(e.seq) })),

    /** Whether any event lies past `after` (visible or not yet). */
    anyAfter: async (after: EventPosition): Promise<boolean> =>
      (
        await sql<{ found: boolean }>`
        select exists (select 1 from events where (xid, seq) > (${after.xid}::xid8, ${after.seq}::bigint)) as found`.execute(db)
      ).rows[0]!.found,

    /**
     * The platform's events in log order, after `after`. Only events of transactions older than every one still
     * running: an event committed later can then never sort before one already read (a cursor skips nothing).
     */
    list: (platformId: string, filter: EventFilter) =>
      db
        .selectFrom('events')
        .select(['id', 'type', 'created_at', 'legal_entity_id', 'data', 'xid', 'seq'])
        .where('platform_id', '=', platformId)
        .where(sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`)
        .$if(Boolean(filter.types?.length), (q) => q.where('type', 'in', [...filter.types!]))
        .$if(filter.legalEntityId !== undefined, (q) => q.where('legal_entity_id', '=', filter.legalEntityId!))
        .$if(filter.after !== undefined, (q) =>
          q.where(sql<boolean>`(xid, seq) > (${filter.after!.xid}::xid8, ${String(filter.after!.seq)}::bigint)`),
        )
        .orderBy('xid')
        .orderBy('seq')
        .limit(filter.limit)
        .execute(),

    /** Deletes up to `limit` events created before `cutoff` (their deliveries and attempts cascade); the count deleted. */
    deleteCreatedBefore: async (cutoff: Date, limit: number): Promise<number> => {
      const result = await db
        .deleteFrom('events')
        .where('id', 'in', db.selectFrom('events').select('id').where('created_at', '<', cutoff).limit(limit))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
