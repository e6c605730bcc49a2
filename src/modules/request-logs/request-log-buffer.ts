// The write path of the request logs: entries collected in memory as responses finish, written in batches
// (one multi-row insert) when enough have gathered or the interval passes, and on close. A request never waits
// for its log. What a crash loses is what is buffered: at most one interval's (or one batch's) entries.
import { newId } from '../../lib/ids.js';
import { REQUEST_LOG_ID_PREFIX } from './contract.js';
import { storedErrorBody } from './request-logs.fns.js';
import type { NewRequestLogRow } from './request-logs.repository.js';

/** What the response hook hands over: cheap to build; the error body is parsed and redacted at flush. */
export interface RequestLogEntry extends Omit<NewRequestLogRow, 'id' | 'error'> {
  /** The 4xx/5xx response body as sent; null for a success. */
  errorPayload: string | null;
}

export interface RequestLogBufferSettings {
  /** Writes the batch (one multi-row insert). */
  insert(rows: readonly NewRequestLogRow[]): Promise<void>;
  /** A batch is written as soon as this many entries wait. */
  batchSize?: number;
  /** …or when this much time has passed since the last write. */
  intervalMs?: number;
  /** Entries held at most while the database does not answer; further ones are dropped (and counted). */
  maxBuffered?: number;
  /** Where a failed write or a drop is reported (one line per occurrence, never an entry's content). */
  warn(message: string): void;
}

export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_INTERVAL_MS = 1000;
export const DEFAULT_MAX_BUFFERED = 50_000;

export function createRequestLogBuffer(settings: RequestLogBufferSettings) {
  const batchSize = settings.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxBuffered = settings.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  let pending: RequestLogEntry[] = [];
  let writing: Promise<void> = Promise.resolve();
  let dropped = 0;
  let closed = false;

  const toRow = ({ errorPayload, ...entry }: RequestLogEntry): NewRequestLogRow => ({
    ...entry,
    id: newId(REQUEST_LOG_ID_PREFIX),
    error: errorPayload === null ? null : JSON.stringify(storedErrorBody(errorPayload)),
  });

  /** Takes what waits now and writes it after any write in progress (batches never overlap). */
  const flush = (): Promise<void> => {
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    writing = writing.then(async () => {
      try {
        await settings.insert(batch.map(toRow));
      } catch (error) {
        // Observability data: a batch the database refused is reported and dropped, never retried into a loop.
        settings.warn(`request logs: ${batch.length} entries not written (${(error as Error).message})`);
      }
      if (dropped > 0) {
        settings.warn(`request logs: ${dropped} entries dropped while ${maxBuffered} were waiting to be written`);
        dropped = 0;
      }
    });
    return writing;
  };

  const timer = setInterval(() => void flush(), settings.intervalMs ?? DEFAULT_INTERVAL_MS);
  timer.unref();

  return {
    /** Called by the response hook; returns at once. */
    push(entry: RequestLogEntry): void {
      if (closed) return;
      if (pending.length >= maxBuffered) {
        dropped++;
        return;
      }
      pending.push(entry);
      if (pending.length >= batchSize) void flush();
    },
    /** Writes everything pushed so far; resolves when it is written. */
    flush,
    /** Stops the interval and writes what waits (app.close). */
    async close(): Promise<void> {
      closed = true;
      clearInterval(timer);
      await flush();
    },
    /** Entries waiting for the next write. */
    get pending(): number {
      return pending.length;
    },
  };
}

export type RequestLogBuffer = ReturnType<typeof createRequestLogBuffer>;
