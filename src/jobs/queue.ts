import { createRequire } from 'node:module';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { createPool } from '../db/pool.js';
import { withSchemaLock } from '../db/schema-lock.js';
import { createOutageLog, describeDatabaseError, isDatabaseUnavailable } from '../db/unavailable.js';

export interface JobDefinition {
  name: string;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  /** Runs one job; a throw retries it (up to `retryLimit`, with backoff). */
  handler: (data: Record<string, unknown>) => Promise<unknown>;
  /** Seconds a started job may run before pg-boss hands it to another worker (e.g. after a crash). */
  expireInSeconds?: number;
  retryLimit?: number;
  /** How often an idle worker looks for due jobs (pg-boss allows 0.5 and up). */
  pollingIntervalSeconds?: number;
  /** Log each finished run (scheduled maintenance jobs); off for the frequent small ones. */
  logRuns?: boolean;
  /** Jobs of this queue run at once in this process (one worker each; every worker polls at the interval). Default 1. */
  concurrency?: number;
}

export interface SendOptions {
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
  /** At most one queued (not yet started) job with this key per queue. */
  singletonKey?: string;
  /**
   * A transaction to enqueue in: the job exists exactly when that transaction commits, so a state
   * change and the work it schedules can never be separated by a crash.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's transaction: the queue runs raw SQL and knows no schema
  transaction?: Kysely<any>;
}

export interface SingletonSlot {
  key: (data: Record<string, unknown>) => string;
  seconds: number;
}

/** What domain services see: a way to put durable work on the queue. */
export interface JobSender {
  send(name: string, data: Record<string, unknown>, options?: SendOptions): Promise<void>;
  /**
   * Several jobs of one queue in one statement (the same options for each). `singleton`: a job whose key (from its
   * data) was already sent in the same slot of `seconds` (a UTC day for 86 400) is not sent again.
   */
  sendMany(
    name: string,
    data: readonly Record<string, unknown>[],
    options?: Pick<SendOptions, 'transaction'> & { singleton?: SingletonSlot },
  ): Promise<void>;
}

export interface JobQueue extends JobSender, JobQueueStatsSource {
  /** Starts workers (and schedules) for these jobs in this process. */
  work(jobs: JobDefinition[]): Promise<void>;
  stop(): Promise<void>;
}

const SCHEMA = 'pgboss';

/**
 * pg-boss records a finished job (complete, or fail after a throw) without awaiting the query; if it
 * rejects because the database is away, the rejection is unhandled and would end the process. Those
 * two statements are therefore retried until the database is back (so the outcome is not lost either).
 * They are recognised by their text, from pg-boss's own SQL builders (version pinned by the lockfile).
 */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as Record<string, (schema: string) => string>;
const FIRE_AND_FORGET = new Set([plans.completeJobs!(SCHEMA), plans.failJobsById!(SCHEMA)]);

/** One queue's state, read at scrape time for /metrics (see docs/observability.md). */
export interface QueueStats {
  name: string;
  /** Jobs not yet started (created or waiting for a retry), including those scheduled for later. */
  waiting: number;
  active: number;
  /** Failed jobs pg-boss still keeps (retries exhausted), across all processes. */
  failed: number;
  /** Seconds the oldest due, not yet started job has been waiting since it became due (0: none). */
  oldestDueAgeSeconds: number;
  /** Runs of this queue's handler that threw in this process since it started. */
  handlerFailures: number;
}

export interface JobQueueStatsSource {
  stats(): Promise<QueueStats[]>;
}

export const isJobQueueStatsSource = (value: unknown): value is JobQueueStatsSource =>
  typeof (value as Partial<JobQueueStatsSource> | null)?.stats === 'function';

/**
 * The durable job queue (pg-boss) in Statehouse's own database, schema `pgboss`. Jobs and schedules
 * survive restarts and several Statehouse processes share them: pg-boss hands each job to one worker.
 *
 * It runs on a pool of ours (db/pool.ts), so a dropped connection never ends the process; while the
 * database is away its polling loops fail, are logged once per outage, and resume by themselves.
 * Call it while holding the schema lock (db/schema-lock.ts): starting installs or migrates the
 * queue's tables, which must not run beside another process doing the same.
 */
export async function startJobQueue(
  connectionString: string,
  log: (message: string) => void,
  options: { maintenanceIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  // Its queries are background polls and enqueues: a little more patience than a request's 5 s, for busy machines.
  const pool = createPool(connectionString, 3, 10_000);
  const outage = createOutageLog(log);
  let stopping = false;
  const executeSql = async (text: string, values?: unknown[]) => {
    if (!FIRE_AND_FORGET.has(text)) return pool.query(text, values);
    // Never rejects (nobody would hear it): retried while the database is away, given up on any other error.
    for (;;) {
      try {
        return await pool.query(text, values);
      } catch (error) {
        if (stopping || !isDatabaseUnavailable(error)) {
          log(`job queue could not record a finished job (it will run again once it expires): ${describeDatabaseError(error)}`);
          return { rows: [{ count: '0' }] };
        }
        outage('job queue', error);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  };
  // Maintenance hands expired jobs (a killed process's) back to the queue: the interval bounds how late after expiry.
  const boss = new PgBoss({
    db: { executeSql },
    schema: SCHEMA,
    ...(options.maintenanceIntervalSeconds !== undefined && { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }),
  });
  boss.on('error', (error: Error) => {
    if (isDatabaseUnavailable(error)) outage('job queue', error);
    else log(`job queue error: ${error.message}`);
  });
  try {
    await boss.start();
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const created = new Map<string, Promise<unknown>>();
  const ensureQueue = (name: string, options: QueueSettings = {}) => {
    // Per name and options: a queue first used by a send (no options) is still brought to its worker's options.
    const memo = `${name} ${JSON.stringify(options)}`;
    let ready = created.get(memo);
    if (!ready) {
      ready = boss.getQueue(name).then(async (existing) => {
        if (existing && !differs(existing, options)) return;
        // Creating a queue is DDL (a partition of the job table): two processes doing it at once deadlock. pg-boss
        // applies a queue's options only when it creates it, so an existing queue whose options this release changed
        // (e.g. a longer expiry) is updated, under the same lock.
        await withSchemaLock(connectionString, async () => {
          const current = await boss.getQueue(name);
          if (!current) await boss.createQueue(name, { name, ...options });
          else if (differs(current, options)) await boss.updateQueue(name, { name, ...options });
        });
      });
      // A failure (the database was away) is not remembered: the next call tries again.
      ready.catch(() => created.delete(memo));
      created.set(memo, ready);
    }
    return ready;
  };

  const handlerFailures = new Map<string, number>();

  return {
    async send(name, data, options = {}) {
      await ensureQueue(name);
      await boss.send(name, data, {
        ...(options.transaction && { db: viaTransaction(options.transaction) }),
        ...(options.startAfterSeconds !== undefined && { startAfter: Math.max(0, Math.round(options.startAfterSeconds)) }),
        ...(options.singletonKey !== undefined && { singletonKey: options.singletonKey }),
      });
    },
    async sendMany(name, data, options = {}) {
      if (data.length === 0) return;
      await ensureQueue(name);
      const { singleton } = options;
      const jobs = data.map((item) => ({
        name,
        data: item,
        ...(singleton && { singletonKey: singleton.key(item), singletonSeconds: singleton.seconds }),
      }));
      await boss.insert(jobs, options.transaction ? { db: viaTransaction(options.transaction) } : {});
    },
    async work(jobs) {
      // Side by side: each job's few round trips (its queue, its schedule) need not wait for the others'.
      await Promise.all(
        jobs.map(async (job) => {
          await ensureQueue(job.name, {
            ...(job.expireInSeconds !== undefined && { expireInSeconds: job.expireInSeconds }),
            retryLimit: job.retryLimit ?? 3,
            retryBackoff: true,
          });
          if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
          // pg-boss waits a polling interval after each fetch, even one that found a job: one job per interval (the
          // bench measured 2 automation steps/s). A worker that found a job looks again at once; it waits only when
          // its queue was empty.
          for (let n = 0; n < (job.concurrency ?? 1); n++) {
            const worker: { id?: string } = {};
            worker.id = await boss.work<Record<string, unknown>>(
              job.name,
              { pollingIntervalSeconds: job.pollingIntervalSeconds ?? 2 },
              async ([item]) => {
                if (worker.id) boss.notifyWorker(worker.id);
                const result = await job.handler(item?.data ?? {}).catch((error: unknown) => {
                  handlerFailures.set(job.name, (handlerFailures.get(job.name) ?? 0) + 1);
                  throw error;
                });
                if (job.logRuns) log(`job ${job.name} finished: ${JSON.stringify(result)}`);
                return result;
              },
            );
          }
        }),
      );
    },
    async stats() {
      const { rows } = await boss.getDb().executeSql(QUEUE_STATS_SQL, []);
      return (rows as QueueStatsRow[]).map((row) => ({
        name: row.name,
        waiting: Number(row.waiting),
        active: Number(row.active),
        failed: Number(row.failed),
        oldestDueAgeSeconds: Math.max(0, Number(row.oldest_due_age_seconds ?? 0)),
        handlerFailures: handlerFailures.get(row.name) ?? 0,
      }));
    },
    stop: async () => {
      stopping = true;
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
      await pool.end();
    },
  };
}

/** The queue options a job definition sets (jobs sent without `work` create their queue with none). */
type QueueSettings = Pick<PgBoss.Queue, 'expireInSeconds' | 'retryLimit' | 'retryBackoff'>;

const differs = (current: PgBoss.QueueResult, wanted: QueueSettings) =>
  (Object.keys(wanted) as (keyof QueueSettings)[]).some((key) => wanted[key] !== undefined && current[key] !== wanted[key]);

interface QueueStatsRow {
  name: string;
  waiting: string;
  active: string;
  failed: string;
  oldest_due_age_seconds: string | null;
}

/**
 * One query over pg-boss's tables for every queue (queues without jobs included). Completed and cancelled
 * jobs are skipped; waiting jobs are found through pg-boss's own partial index on not-yet-started jobs.
 */
const QUEUE_STATS_SQL = `
  select q.name,
         count(j.id) filter (where j.state < 'active') as waiting,
         count(j.id) filter (where j.state = 'active') as active,
         count(j.id) filter (where j.state = 'failed') as failed,
         extract(epoch from now() - min(j.start_after) filter (where j.state < 'active' and j.start_after <= now())) as oldest_due_age_seconds
    from pgboss.queue q
    left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry', 'active', 'failed')
   group by q.name
   order by q.name`;

/** pg-boss runs its insert through our transaction's connection. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as `transaction` above
const viaTransaction = (trx: Kysely<any>): PgBoss.Db => ({
  executeSql: async (text, values) => ({ rows: [...(await trx.executeQuery(CompiledQuery.raw(text, values))).rows] }),
});

/** For an app built without a queue (most tests): any attempt to enqueue is a clear error. */
export const noJobQueue: JobSender = {
  send: async (name) => {
    throw new Error(`No job queue is running in this process (job '${name}')`);
  },
  sendMany: async (name) => {
    throw new Error(`No job queue is running in this process (job '${name}')`);
  },
};
