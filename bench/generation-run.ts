// One timed roll-forward of the task-generation child (bench/task-generation.ts), and what the child reports.
import os from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { rollForwardAll, rollForwardDue, type PlanningService } from '../src/modules/planning/index.js';
import { readMachineCpu, readProcessTreeCpuSeconds, treeCpuDelta } from './proc.js';

export interface GenerationRun {
  name: string;
  entities: number;
  /** Tasks rollForwardAll reports as created. */
  created: number;
  elapsedSeconds: number;
  entitiesPerSecond: number;
  tasksPerSecond: number;
  /** Task rows the run wrote, read back from the table: inserted (created_at), updated (updated_at only), deleted (count difference). */
  rows: { inserted: number; updated: number; deleted: number; totalAfter: number };
  /** This process's resident memory at the end of the run. */
  rssMiB: number;
  /** Batch calls (batches of 200) and the slowest one. */
  batches: number;
  slowestBatchMs: number;
  /** % of one core over the run: this process, the embedded PostgreSQL, the rest of the machine. */
  cpuPercent: { node: number; database: number | null; other: number; machine: number };
  cpuMicrosPerEntity: { node: number; database: number | null };
}

/** What the child reports (its `benchReady` line, besides `pid`). */
export interface GenerationReport {
  entities: number;
  locations: number;
  entityTypes: Record<string, number>;
  /** The untimed bulk insert. */
  seedSeconds: number;
  batchSize: number;
  /** Tasks per entity after the runs. */
  tasksPerEntity: { min: number; p50: number; p90: number; max: number; avg: number };
  tasksTableMiB: number;
  databaseMiB: number;
  /** The first planning (the daily job's work, every entity due) and, up to 100 000 entities, `rollForwardAll` over them all. */
  runs: GenerationRun[];
  /** The daily job with nothing due, then with 1 % of the entities due (and 1 % of the added book, with padding). */
  daily: GenerationRun[];
  /** Of the planned book, the entities due on the busiest day of the next year, and per day on average. */
  dueSpread: { busiest: number; perDay: number };
  /** EXPLAIN of the daily job's finder query over the whole book (with BENCH_TASK_PLANNED_PADDING). */
  finderPlan: string[];
  /** CPU profiles of a repeat of each run (BENCH_CPU_PROFILE_DIR), by run key (e1, e2). */
  profiles?: Record<string, string>;
}

/** Which roll-forward a run times: the daily job's (due entities only) or the CLI's (every entity). */
export type RunKind = 'due' | 'all';

export async function timedRun(
  name: string,
  kind: RunKind,
  db: Db,
  planning: PlanningService,
  postmasterPid: number | null,
  /** True once SIGTERM came: the run stops between batches. */
  stopping: () => boolean,
): Promise<GenerationRun> {
  const before = await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(db);
  let batches = 0;
  let slowestBatchMs = 0;
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    if (stopping()) throw new Error('stopped by SIGTERM');
    const t = performance.now();
    const out = await work();
    batches += 1;
    slowestBatchMs = Math.max(slowestBatchMs, performance.now() - t);
    return out;
  };
  // Either roll-forward takes any batch re-planning: count and time the batches, and stop between them on SIGTERM.
  const counted = {
    entityIdsAfter: planning.entityIdsAfter,
    dueEntityIdsAfter: planning.dueEntityIdsAfter,
    replanBatch: (ids: string[]) => timed(() => planning.replanBatch(ids)),
    replanDueBatch: (after: string, through: string) => timed(() => planning.replanDueBatch(after, through)),
  };
  // Timestamps come from PostgreSQL's clock, like the rows' created_at / updated_at (now() = transaction start).
  const started = (await sql<{ t: Date }>`select clock_timestamp() as t`.execute(db)).rows[0]!.t;
  const db0 = postmasterPid ? readProcessTreeCpuSeconds(postmasterPid) : null;
  const node0 = process.cpuUsage();
  const machine0 = readMachineCpu();
  const t0 = performance.now();
  const result = kind === 'due' ? await rollForwardDue(counted) : await rollForwardAll(counted);
  const elapsedSeconds = (performance.now() - t0) / 1000;
  const node = process.cpuUsage(node0);
  const machine1 = readMachineCpu();
  const db1 = postmasterPid ? readProcessTreeCpuSeconds(postmasterPid) : null;

  const counts = (
    await sql<{ total: number; inserted: number; updated: number }>`
    select count(*)::int as total,
           count(*) filter (where created_at >= ${started})::int as inserted,
           count(*) filter (where created_at < ${started} and updated_at >= ${started})::int as updated
    from tasks`.execute(db)
  ).rows[0]!;
  const nodeSeconds = (node.user + node.system) / 1e6;
  const dbSeconds = db0 && db1 ? treeCpuDelta(db0, db1) : null;
  const percent = (seconds: number) => (100 * seconds) / elapsedSeconds;
  const machineTotal = machine1.totalSeconds - machine0.totalSeconds;
  const machine = machineTotal > 0 ? (100 * os.cpus().length * (machine1.busySeconds - machine0.busySeconds)) / machineTotal : NaN;
  return {
    name,
    entities: result.entities,
    created: result.created,
    elapsedSeconds,
    entitiesPerSecond: result.entities / elapsedSeconds,
    rssMiB: process.memoryUsage().rss / 1048576,
    tasksPerSecond: result.created / elapsedSeconds,
    rows: {
      inserted: counts.inserted,
      updated: counts.updated,
      deleted: before.rows[0]!.n + counts.inserted - counts.total,
      totalAfter: counts.total,
    },
    batches,
    slowestBatchMs,
    cpuPercent: {
      node: percent(nodeSeconds),
      database: dbSeconds === null ? null : percent(dbSeconds),
      other: Math.max(0, machine - percent(nodeSeconds) - (dbSeconds === null ? 0 : percent(dbSeconds))),
      machine,
    },
    cpuMicrosPerEntity: {
      node: (nodeSeconds * 1e6) / result.entities,
      database: dbSeconds === null ? null : (dbSeconds * 1e6) / result.entities,
    },
  };
}
