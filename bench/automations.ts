/**
 * The automations step (h): BENCH_AUTOMATIONS sandbox automations (the Statehouse child runs the sandbox with
 * AUTOMATION_SANDBOX_STEP_MS=0) started through POST /tasks/{task_id}/automate, one entity each, and run to
 * `complete` on the durable queue. Timed from the first start to the last completion; CPU time of the Statehouse
 * process and of its PostgreSQL over that window. Completion is awaited by counting the automations' statuses in
 * the database every POLL_MS (one small aggregate query); each automation's latency is read afterwards from
 * `automation_status_logs` (its `started` line to its `complete` line, both stamped by PostgreSQL's clock).
 * Fails when an automation does not reach `complete`, or any output was written twice.
 */
import { sql } from 'kysely';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb, type Db } from '../src/db/database.js';
import { seedAutomationEntities, type AutomationJob } from './automations-seed.js';
import type { Child } from './children.js';
import type { Measurement } from './load.js';
import { readMachineCpu, readProcessCpuSeconds, readProcessTreeCpuSeconds, treeCpuDelta } from './proc.js';
import { checkpoint, state } from './run-state.js';
import { AUTOMATIONS, AUTOMATION_CONCURRENCY, say } from './settings.js';
import { checkAutomationOutputs, type OutputCheck } from './automations-check.js';

const POLL_MS = 250;
/** No automation completed for this long: stuck, give up (and fail). */
const STALL_MS = 120_000;

export interface AutomationsReport {
  automations: number;
  /** Requests in flight while starting. */
  concurrency: number;
  seedSeconds: number;
  /** The start requests as the client saw them. */
  starts: { seconds: number; perSecond: number; latencyMs: { p50: number; p99: number; max: number }; non201: Record<string, number> };
  /** First `started` to last `complete` (database clock); the client's wall time from its first request to seeing the last completion. */
  seconds: number;
  clientSeconds: number;
  automationsPerSecond: number;
  /** Per automation, its `started` log line to its `complete` one. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statuses: Record<string, number>;
  cpu: {
    serverSeconds: number | null;
    databaseSeconds: number | null;
    serverMsPerAutomation: number | null;
    databaseMsPerAutomation: number | null;
    /** % of one core over the client's window, as the load targets report it. */
    percent: { server: number | null; database: number | null; other: number; machine: number };
  };
  outputs: OutputCheck;
  /** The same run's bare-pg floor (b): an automation's CPU in bare-pg requests' worth. */
  floor: {
    key: 'b';
    serverMicrosPerRequest: number | null;
    databaseMicrosPerRequest: number | null;
    serverRequestsPerAutomation: number | null;
    databaseRequestsPerAutomation: number | null;
  } | null;
  failures: string[];
}

const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]! : NaN;

/** Starts every automation, CONCURRENCY requests at a time, over keep-alive connections (fetch). */
async function startAll(baseUrl: string, jobs: AutomationJob[]) {
  const latencies: number[] = [];
  const non201: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const t = performance.now();
      const res = await fetch(`${baseUrl}/tasks/${job.taskId}/automate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(job.filing.input),
      });
      const body = await res.text();
      latencies.push(performance.now() - t);
      if (res.status !== 201) {
        non201[res.status] = (non201[res.status] ?? 0) + 1;
        if (Object.values(non201).reduce((s, n) => s + n, 0) === 1)
          say(`automations: POST /tasks/{id}/automate answered ${res.status}: ${body.slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AUTOMATION_CONCURRENCY, jobs.length) }, worker));
  return { latencies: latencies.sort((a, b) => a - b), non201 };
}

async function statusCounts(db: Db, platformId: string): Promise<Record<string, number>> {
  const { rows } = await sql<{ key: string; n: number }>`
    select status || case when performer = 'operator' and status <> 'complete' then ' (operator)' else '' end as key, count(*)::int as n
    from automations where platform_id = ${platformId} group by 1
  `.execute(db);
  return Object.fromEntries(rows.map((r) => [r.key, r.n]));
}

/** Waits until every automation is complete, or none can move any more (final, or with a person), or nothing moves for STALL_MS. */
async function awaitCompletion(db: Db, platformId: string, total: number): Promise<Record<string, number>> {
  let lastComplete = -1;
  let lastMove = Date.now();
  for (;;) {
    checkpoint();
    const counts = await statusCounts(db, platformId);
    const complete = counts.complete ?? 0;
    const settled =
      complete +
      (counts.canceled ?? 0) +
      Object.entries(counts)
        .filter(([k]) => k.endsWith('(operator)'))
        .reduce((s, [, n]) => s + n, 0);
    if (complete === total || settled === total) return counts;
    if (complete !== lastComplete) {
      lastComplete = complete;
      lastMove = Date.now();
    } else if (Date.now() - lastMove > STALL_MS) {
      say(`automations: no completion for ${STALL_MS / 1000} s: ${JSON.stringify(counts)}`);
      return counts;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function latenciesFromLogs(db: Db, platformId: string) {
  const { rows } = await sql<{ ms: number | null; started: Date; completed: Date | null }>`
    select min(l.created_at) filter (where l.status = 'started') as started, min(l.created_at) filter (where l.status = 'complete') as completed,
           extract(epoch from min(l.created_at) filter (where l.status = 'complete') - min(l.created_at) filter (where l.status = 'started')) * 1000 as ms
    from automations a join automation_status_logs l on l.automation_id = a.id
    where a.platform_id = ${platformId} group by a.id
  `.execute(db);
  const done = rows.filter((r) => r.completed !== null);
  const ms = done.map((r) => Number(r.ms)).sort((a, b) => a - b);
  const first = Math.min(...rows.map((r) => r.started.getTime()));
  const last = Math.max(...done.map((r) => r.completed!.getTime()));
  return {
    seconds: done.length ? (last - first) / 1000 : NaN,
    latencyMs: {
      p50: percentile(ms, 0.5),
      p90: percentile(ms, 0.9),
      p99: percentile(ms, 0.99),
      max: ms.at(-1) ?? NaN,
      mean: ms.reduce((s, v) => s + v, 0) / (ms.length || 1),
    },
  };
}

export async function runAutomations(
  statehouse: Child<Record<string, unknown>>,
  connectionString: string,
  baseUrl: string,
  floor: Measurement | null,
): Promise<AutomationsReport | null> {
  if (AUTOMATIONS === 0) return null;
  const db = createDb(connectionString, 2);
  try {
    say(`automations: seeding ${AUTOMATIONS} entities with California employees (untimed)`);
    const s0 = performance.now();
    const { platformId, jobs } = await seedAutomationEntities(db, baseUrl, AUTOMATIONS);
    const seedSeconds = (performance.now() - s0) / 1000;
    checkpoint();

    say(
      `automations: starting ${jobs.length} through POST /tasks/{task_id}/automate, ${AUTOMATION_CONCURRENCY} at a time, and waiting for them to complete`,
    );
    const server0 = readProcessCpuSeconds(statehouse.pid);
    const db0 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
    const machine0 = readMachineCpu();
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const starts = await startAll(baseUrl, jobs);
    const startSeconds = (performance.now() - t0) / 1000;
    // A refused start created nothing: wait for the ones that exist (the refusals fail the run below).
    const statuses = await awaitCompletion(db, platformId, jobs.length - Object.values(starts.non201).reduce((s, c) => s + c, 0));
    const clientSeconds = (performance.now() - t0) / 1000;
    const server1 = readProcessCpuSeconds(statehouse.pid);
    const db1 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
    const machine1 = readMachineCpu();
    const client = process.cpuUsage(client0);

    const { seconds, latencyMs } = await latenciesFromLogs(db, platformId);
    const outputs = await checkAutomationOutputs(db, platformId, jobs);
    const serverSeconds = server0 !== null && server1 !== null ? server1 - server0 : null;
    const databaseSeconds = db0 && db1 ? treeCpuDelta(db0, db1) : null;
    const n = jobs.length;
    const per = (cpu: number | null) => (cpu === null ? null : (cpu * 1000) / n);
    const pct = (cpu: number | null) => (cpu === null ? null : (100 * cpu) / clientSeconds);
    const machineTotal = machine1.totalSeconds - machine0.totalSeconds;
    const machine = machineTotal > 0 ? (100 * os.cpus().length * (machine1.busySeconds - machine0.busySeconds)) / machineTotal : NaN;
    const bench = (100 * (client.user + client.system)) / 1e6 / clientSeconds;
    const serverPct = pct(serverSeconds);
    const databasePct = pct(databaseSeconds);

    const failures: string[] = [];
    const complete = statuses.complete ?? 0;
    if (complete !== n) failures.push(`h automations: ${n - complete} of ${n} did not reach complete (${JSON.stringify(statuses)})`);
    const refused = Object.entries(starts.non201).reduce((s, [, c]) => s + c, 0);
    if (refused > 0) failures.push(`h automations: ${refused} starts not answered 201 (${JSON.stringify(starts.non201)})`);
    failures.push(...outputs.problems.map((p) => `h automations: ${p}`));

    const serverMicros = floor?.cpuMicrosPerRequest.server ?? null;
    const databaseMicros = floor?.cpuMicrosPerRequest.database ?? null;
    const serverMs = per(serverSeconds);
    const databaseMs = per(databaseSeconds);
    return {
      automations: n,
      concurrency: AUTOMATION_CONCURRENCY,
      seedSeconds,
      starts: {
        seconds: startSeconds,
        perSecond: n / startSeconds,
        latencyMs: { p50: percentile(starts.latencies, 0.5), p99: percentile(starts.latencies, 0.99), max: starts.latencies.at(-1) ?? NaN },
        non201: starts.non201,
      },
      seconds,
      clientSeconds,
      automationsPerSecond: n / seconds,
      latencyMs,
      statuses,
      cpu: {
        serverSeconds,
        databaseSeconds,
        serverMsPerAutomation: serverMs,
        databaseMsPerAutomation: databaseMs,
        percent: {
          server: serverPct,
          database: databasePct,
          other: Math.max(0, machine - (serverPct ?? 0) - (databasePct ?? 0) - bench),
          machine,
        },
      },
      outputs,
      floor: floor && {
        key: 'b',
        serverMicrosPerRequest: serverMicros,
        databaseMicrosPerRequest: databaseMicros,
        serverRequestsPerAutomation: serverMs !== null && serverMicros ? (serverMs * 1000) / serverMicros : null,
        databaseRequestsPerAutomation: databaseMs !== null && databaseMicros ? (databaseMs * 1000) / databaseMicros : null,
      },
      failures,
    };
  } finally {
    await db.destroy();
  }
}
