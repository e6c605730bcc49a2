import type pg from 'pg';
import { connectClient } from './pool.js';

/**
 * Any fixed 64-bit number. Every Statehouse process changes the database's schema (its migrations,
 * the job queue's tables, new queues) only while holding this lock, so processes starting together
 * never run DDL side by side (which deadlocks in PostgreSQL); the others wait and find the work done.
 * Earlier versions took the same number for their migrations.
 */
const SCHEMA_LOCK_ID = 4_711_202_611n;

/**
 * Runs `work` while this process holds the schema lock (a session-level advisory lock on its own connection).
 * `work` may query on that connection (`session`), e.g. to check that nothing is left to do without opening another.
 */
export async function withSchemaLock<T>(connectionString: string, work: (session: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectClient(connectionString);
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK_ID.toString()]);
    try {
      return await work(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [SCHEMA_LOCK_ID.toString()]).catch(() => {});
    }
  } finally {
    // Ending the session releases the lock too, should the unlock above have failed.
    await client.end().catch(() => {});
  }
}
