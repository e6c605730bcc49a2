import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RequestLogQuery } from './contract.js';

/** A row as the buffer hands it to the insert. */
export interface NewRequestLogRow {
  platform_id: string;
  id: string;
  created_at: Date;
  method: string;
  path: string;
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  idempotency_key: string | null;
  legal_entity_id: string | null;
  api_key_id: string | null;
  /** The redacted error body, serialised; null for a success. */
  error: string | null;
}

/** Rows per insert statement: 13 parameters each, well under PostgreSQL's 65 535. */
const INSERT_CHUNK = 2_000;

const COLUMNS = [
  'id',
  'created_at',
  'method',
  'path',
  'route',
  'status',
  'duration_ms',
  'request_id',
  'idempotency_key',
  'legal_entity_id',
  'api_key_id',
  'error',
] as const;

export type RequestLogFilter = Omit<RequestLogQuery, 'startingAfter'> & { after?: { created_at: Date; id: string } };

/** Every query of the request logs, platform first. */
export function createRequestLogsRepository(db: Db) {
  return {
    /** One multi-row insert per INSERT_CHUNK rows. */
    async insert(rows: readonly NewRequestLogRow[]): Promise<void> {
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await db
          .insertInto('request_logs')
          .values(rows.slice(start, start + INSERT_CHUNK))
          .execute();
      }
    },

    /** The platform's log; undefined for an unknown id or another platform's. */
    find: (platformId: string, id: string) =>
      db.selectFrom('request_logs').select(COLUMNS).where('platform_id', '=', platformId).where('id', '=', id).executeTakeFirst(),

    /** Where the platform's log sits in the listing order; undefined for an unknown id or another platform's. */
    positionOf: (platformId: string, id: string) =>
      db
        .selectFrom('request_logs')
        .select(['created_at', 'id'])
        .where('platform_id', '=', platformId)
        .where('id', '=', id)
        .executeTakeFirst(),

    /** The platform's logs, newest first ((created_at, id) descending), past `after`. */
    list: (platformId: string, filter: RequestLogFilter) =>
      db
        .selectFrom('request_logs')
        .select(COLUMNS)
        .where('platform_id', '=', platformId)
        .$if(filter.status !== undefined && 'code' in filter.status, (q) =>
          q.where('status', '=', (filter.status as { code: number }).code),
        )
        .$if(filter.status !== undefined && 'class' in filter.status, (q) => {
          const hundreds = (filter.status as { class: number }).class * 100;
          return q.where('status', '>=', hundreds).where('status', '<', hundreds + 100);
        })
        .$if(filter.method !== undefined, (q) => q.where('method', '=', filter.method!))
        .$if(filter.path !== undefined, (q) => q.where((eb) => eb.or([eb('path', '=', filter.path!), eb('route', '=', filter.path!)])))
        .$if(filter.legalEntityId !== undefined, (q) => q.where('legal_entity_id', '=', filter.legalEntityId!))
        .$if(filter.requestId !== undefined, (q) => q.where('request_id', '=', filter.requestId!))
        .$if(filter.idempotencyKey !== undefined, (q) => q.where('idempotency_key', '=', filter.idempotencyKey!))
        .$if(filter.createdAfter !== undefined, (q) => q.where('created_at', '>', filter.createdAfter!))
        .$if(filter.createdBefore !== undefined, (q) => q.where('created_at', '<', filter.createdBefore!))
        .$if(filter.after !== undefined, (q) =>
          q.where(sql<boolean>`(created_at, id) < (${filter.after!.created_at}::timestamptz, ${filter.after!.id})`),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute(),

    /** Deletes up to `limit` logs (of any platform) created before `cutoff`; the count deleted. */
    deleteCreatedBefore: async (cutoff: Date, limit: number): Promise<number> => {
      const result = await db
        .deleteFrom('request_logs')
        .where(sql<boolean>`(platform_id, id) in (select platform_id, id from request_logs where created_at < ${cutoff} limit ${limit})`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RequestLogsRepository = ReturnType<typeof createRequestLogsRepository>;
