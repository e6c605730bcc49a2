import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** How often each process adds its new counts to the shared ones and reads theirs back. */
export const SYNC_INTERVAL_MS = 1000;
/** Keys counted at once in one process (as many as the in-memory store kept); past it the oldest is forgotten. */
const MAX_COUNTERS = 20_000;
/** Old windows are deleted every this many syncs. */
const CLEANUP_EVERY = 60;

interface Counter {
  key: string;
  windowStart: number;
  windowMs: number;
  /** The count in the database when last read (every process's requests, ours synced so far included). */
  global: number;
  /** This process's requests not yet added to the database. */
  pending: number;
  /** The first read of the shared count, which a first request in the window waits for (a bounded time). */
  known: Promise<void>;
  /** Whether that read has ended (either way). */
  settled: boolean;
  /** Until when requests wait for it (its first request's arrival plus the wait). */
  waitUntil: number;
}

/**
 * Rate-limit counts shared by every process of an installation without a database write per request: each process
 * counts in memory and, once a second, adds its new counts to `rate_limit_counters` and reads the others' back in ONE
 * statement; a decision uses the last-known shared count plus this process's own since. Windows are fixed and
 * aligned to the epoch, so every process counts the same window. The first request for a key in a window starts
 * one read of its shared count (at most one read per key, window and process), which its requests wait for at most
 * `firstReadWaitMs` from the first (RATE_LIMIT_SHARED_READ_WAIT_MS); the read goes on, and its count is used from
 * then. Without a bound, a database that does not answer would hold requests for the pool's whole connect timeout
 * (or for ever, on a connection that hangs). Once a read has failed or run out of time, no request waits until a read
 * or a sync succeeds again.
 *
 * Overshoot, bounded: a process does not see what the others admitted since their last sync, so an installation of
 * N processes admits at most the limit plus what N − 1 processes admit in one sync interval.
 */
export function createSharedRateLimitCounters(
  db: Db,
  reportError: (error: unknown) => void,
  { firstReadWaitMs }: { firstReadWaitMs: number },
) {
  // Reported once per outage, not every second of it.
  let failing = false;
  const onError = (error: unknown) => {
    if (!failing) reportError(error);
    failing = true;
  };
  // A read outlived its wait: the database is slow or gone, and no other request should wait for it either.
  let slow = false;
  const recovered = () => {
    failing = false;
    slow = false;
  };
  const counters = new Map<string, Counter>();
  // Counts of counters forgotten (see MAX_COUNTERS) before their sync: still sent with the next one (bounded too).
  let orphans: { key: string; windowStart: number; sent: number }[] = [];
  let syncs = 0;
  let longestWindowMs = 0;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const readShared = async (key: string, windowStart: number): Promise<number> =>
    (await sql<{ count: number }>`select count from rate_limit_counters where key = ${key} and window_start = ${windowStart}`.execute(db))
      .rows[0]?.count ?? 0;

  function counterFor(key: string, windowMs: number, now: number): Counter {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const id = `${windowStart}\n${key}`;
    let counter = counters.get(id);
    if (!counter) {
      // A flood of distinct keys (random credentials) must not grow memory or the sync without bound.
      if (counters.size >= MAX_COUNTERS) {
        const [oldestId, oldest] = counters.entries().next().value!;
        if (oldest.pending > 0 && orphans.length < MAX_COUNTERS)
          orphans.push({ key: oldest.key, windowStart: oldest.windowStart, sent: oldest.pending });
        counters.delete(oldestId);
      }
      longestWindowMs = Math.max(longestWindowMs, windowMs);
      const created: Counter = {
        key,
        windowStart,
        windowMs,
        global: 0,
        pending: 0,
        known: Promise.resolve(),
        settled: false,
        waitUntil: now + firstReadWaitMs,
      };
      // A failed read counts from zero here (the limiter must not take the service down with the database).
      created.known = readShared(key, windowStart)
        .then((count) => {
          created.global = Math.max(created.global, count);
          recovered();
        }, onError)
        .finally(() => {
          created.settled = true;
        });
      counters.set(id, created);
      counter = created;
    }
    return counter;
  }

  async function syncNow(): Promise<void> {
    const now = Date.now();
    for (const [id, c] of counters) if (c.windowStart + c.windowMs <= now) counters.delete(id); // the window is over
    const live = [...counters.values()];
    const flushing = orphans;
    orphans = [];
    if (live.length > 0 || flushing.length > 0) {
      const counted = live.filter((c) => c.pending > 0).map((c) => ({ c, sent: c.pending }));
      const sending = [...counted.map(({ c, sent }) => ({ key: c.key, windowStart: c.windowStart, sent })), ...flushing];
      const reading = live.filter((c) => c.pending === 0);
      // The insert's rows come back with their new totals; the others are read as they stood (one round trip).
      const { rows } = await sql<{ key: string; window_start: string; count: number }>`
        with added as (
          insert into rate_limit_counters as r (key, window_start, count)
          select * from unnest(${sending.map((s) => s.key)}::text[], ${sending.map((s) => s.windowStart)}::bigint[], ${sending.map((s) => s.sent)}::int[])
          order by 1, 2
          on conflict (key, window_start) do update set count = r.count + excluded.count
          returning r.key, r.window_start, r.count)
        select key, window_start::text, count from added
        union all
        select r.key, r.window_start::text, r.count from rate_limit_counters r
        join unnest(${reading.map((c) => c.key)}::text[], ${reading.map((c) => c.windowStart)}::bigint[]) as w(key, window_start)
          on r.key = w.key and r.window_start = w.window_start`
        .execute(db)
        .catch((error: unknown) => {
          orphans.push(...flushing); // kept for the next sync, as the live counters' pending counts are
          throw error;
        });
      recovered();
      for (const { c, sent } of counted) c.pending -= sent;
      for (const row of rows) {
        const c = counters.get(`${row.window_start}\n${row.key}`);
        if (c) c.global = Math.max(c.global, row.count);
      }
    }
    if (++syncs % CLEANUP_EVERY === 0 && longestWindowMs > 0) {
      await sql`delete from rate_limit_counters where window_start < ${now - 2 * longestWindowMs}`.execute(db);
    }
  }

  /** One sync at a time; a failure keeps the pending counts for the next one. */
  function sync(): Promise<void> {
    running ??= syncNow()
      .catch(onError)
      .finally(() => {
        running = null;
      });
    return running;
  }

  async function count(key: string, windowMs: number, increment: boolean) {
    const now = Date.now();
    const counter = counterFor(key, windowMs, now);
    if (!counter.settled && !failing && !slow) {
      await waitAtMost(counter.known, counter.waitUntil - now);
      if (!counter.settled) slow = true;
    }
    if (increment) counter.pending += 1;
    return { current: counter.global + counter.pending, ttl: counter.windowStart + windowMs - now };
  }

  /** The promise, or the end of `ms`, whichever comes first. */
  async function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
    if (ms <= 0) return;
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([promise, new Promise<void>((resolve) => (timeout = setTimeout(resolve, ms)))]);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** The @fastify/rate-limit store: every limiter (child) shares these counters; their keys name the limiter. */
  class SharedStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      count(key, timeWindow, true).then((result) => callback(null, result), callback);
    }
    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      count(key, timeWindow, false).then((result) => callback(null, result), callback);
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }

  return {
    store: SharedStore as FastifyRateLimitStoreCtor,
    /** Starts the once-a-second sync (unref'd: it never keeps the process alive). */
    start() {
      timer ??= setInterval(() => void sync(), SYNC_INTERVAL_MS).unref();
    },
    /** Stops it after a last sync, so what this process counted is not lost to the others. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sync();
    },
    sync,
  };
}
