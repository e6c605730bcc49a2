import net from 'node:net';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.js';
import { createSharedRateLimitCounters } from './shared-rate-limit-counters.js';

/**
 * A "database" that accepts connections and then either never answers (a host that went away behind a live
 * socket) or hangs up at once (a refused connection). No timeout anywhere: a read against it ends only if the
 * socket is closed, so what these tests see cannot depend on how fast the machine is.
 */
function fakeDatabase() {
  let mode: 'hang' | 'hang up' = 'hang';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (mode === 'hang up') return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  const listening = new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
  return {
    async db(): Promise<Db> {
      const pool = new pg.Pool({ connectionString: `postgres://u:p@127.0.0.1:${await listening}/x`, max: 4, connectionTimeoutMillis: 0 });
      pool.on('error', () => {});
      return new Kysely({ dialect: new PostgresDialect({ pool }) }) as unknown as Db;
    },
    set mode(next: 'hang' | 'hang up') {
      mode = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const incr = (store: FastifyRateLimitStore, key: string) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), 60_000, 100),
  );

describe('shared rate-limit counters when the database does not answer', () => {
  let cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const step of cleanup.reverse()) await step();
    cleanup = [];
  });

  it('a first request waits a bounded time for the shared count, then is decided on what this process knows', async () => {
    const database = fakeDatabase();
    cleanup.push(() => database.close());
    const errors: unknown[] = [];
    const counters = createSharedRateLimitCounters(await database.db(), (error) => errors.push(error), { firstReadWaitMs: 20 });
    const store = new (counters.store as unknown as new () => FastifyRateLimitStore)();
    // The read of the shared count never ends against this database; the requests are decided all the same.
    expect(await incr(store, 'requests:c:one')).toMatchObject({ current: 1 });
    expect(await incr(store, 'requests:c:one')).toMatchObject({ current: 2 });
    expect(errors).toEqual([]); // the read is still waiting: nothing has failed yet
  });

  it('the wait is counted from the first request for the key, and once a read has outlived it no request waits', async () => {
    const database = fakeDatabase();
    cleanup.push(() => database.close());
    const db = await database.db();
    // The clock is the test's: what is "in time" cannot depend on the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const counters = createSharedRateLimitCounters(db, () => {}, { firstReadWaitMs: 250 });
    const store = new (counters.store as unknown as new () => FastifyRateLimitStore)();
    const decided: string[] = [];
    const track = (name: string, key: string) => incr(store, key).then((result) => decided.push(`${name}:${result.current}`));
    const first = track('first', 'requests:c:one');
    await vi.advanceTimersByTimeAsync(200);
    const second = track('second', 'requests:c:one'); // arrives 200 ms in: 50 ms left, not another 250
    await vi.advanceTimersByTimeAsync(49);
    expect(decided).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second]);
    expect(decided.sort()).toEqual(['first:1', 'second:2']);
    // The read is still out: another key's first request is decided at once, with no time passing.
    await track('other key', 'requests:c:two');
    expect(decided).toContain('other key:1');
  });

  it('once the shared counts are known to fail, a first request does not wait at all', async () => {
    const database = fakeDatabase();
    cleanup.push(() => database.close());
    const errors: unknown[] = [];
    // An hour's wait: were it waited, this test would time out.
    const counters = createSharedRateLimitCounters(await database.db(), (error) => errors.push(error), { firstReadWaitMs: 3_600_000 });
    const store = new (counters.store as unknown as new () => FastifyRateLimitStore)();
    database.mode = 'hang up';
    // The first read fails as soon as the connection is refused, and the request is counted from zero.
    expect(await incr(store, 'requests:c:one')).toMatchObject({ current: 1 });
    expect(errors).toHaveLength(1);
    // The database now hangs: a new key's first read never ends, and its request is not held for it.
    database.mode = 'hang';
    expect(await incr(store, 'requests:c:two')).toMatchObject({ current: 1 });
  });
});
