/**
 * `BENCH_SCENARIO=failover npm run bench`: one of two Statehouse processes on one database killed with SIGKILL under
 * write load (issue 15, "Bad input and faults"). test/kill-under-load.test.ts checks the same in CI, smaller.
 *
 *   survivor  the bench's Statehouse (bench/statehouse-server.ts: `serve` with the embedded PostgreSQL, demo data)
 *   doomed    `statehouse serve` on the survivor's database (DATABASE_URL), same data directory and vault key
 *
 * 1. BENCH_FAILOVER_AUTOMATIONS sandbox automations are started (half through each process) and wait before their
 *    second step; the bench holds their rows, releases the steps, and waits until every step job is started: each
 *    process's workers now sit inside jobs of their own (the row hold keeps them there). Which process holds which
 *    is read from pg_stat_activity (each process names its sessions with PGAPPNAME).
 * 2. BENCH_FAILOVER_WRITERS writers (bench/failover-writers.ts) sign entities up and write their regions through both
 *    processes; once each process acknowledged BENCH_FAILOVER_WRITES writes, the doomed one is killed (SIGKILL) and
 *    the writers go on until the survivor acknowledged as many again.
 * 3. The doomed process's sessions are ended (PostgreSQL notices a dead client only when it next talks to it), the
 *    rows let go. Reported: acknowledged writes, writes lost (must be 0), entities half-written (must be 0), and
 *    how long after the kill the survivor started and finished the jobs the doomed process held (their expiry is the
 *    step's: AUTOMATION_CONNECTOR_TIMEOUT_MS 60 s + 15 s; JOB_MAINTENANCE_INTERVAL_SECONDS=1 hands them back).
 * Writes bench/results/failover-latest.json.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from './children.js';
import { startAutomations, startServe, waitFor } from './failover-support.js';
import { checkWrites, startWriters } from './failover-writers.js';
import { cleanup, state } from './run-state.js';
import { say } from './settings.js';
import { startServers } from './setup.js';

function envCount(name: string, fallback: number, max: number): number {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`${name} must be a whole number from 1 to ${max} (got '${raw}')`);
  return value;
}

const AUTOMATIONS = envCount('BENCH_FAILOVER_AUTOMATIONS', 6, 8); // two processes × 4 step workers
const WRITERS = envCount('BENCH_FAILOVER_WRITERS', 10, 200);
const WRITES = envCount('BENCH_FAILOVER_WRITES', 300, 1_000_000);
/** The step jobs' expiry: the connector time limit (below) + 15 s (src/modules/automations/automations.jobs.ts). */
const STEP_EXPIRY_SECONDS = 75;
const JOB_SETTINGS = {
  AUTOMATION_SANDBOX_STEP_MS: '600000', // steps wait until the bench releases them
  // The step jobs expire 15 s after this: long enough that the writes before the kill end first.
  AUTOMATION_CONNECTOR_TIMEOUT_MS: '60000',
  JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
};
export async function runFailoverScenario(): Promise<number> {
  const startedAt = new Date();
  let doomed: ChildProcess | null = null;
  let holder: pg.Client | null = null;
  try {
    const vaultKey = randomBytes(32).toString('base64');
    const servers = await startServers({ ...JOB_SETTINGS, STATEHOUSE_VAULT_KEY: vaultKey, PGAPPNAME: 'statehouse-survivor' });
    const { sh } = servers;
    const survivorPool = new pg.Pool({ connectionString: sh.connectionString, max: 3 });
    const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await survivorPool.query<R>(text, values)).rows;
    const dead = await startServe({
      ...process.env,
      ...JOB_SETTINGS,
      DATABASE_URL: sh.connectionString,
      STATEHOUSE_DATA_DIR: path.join(state.tempDir!, 'data'),
      STATEHOUSE_VAULT_KEY: vaultKey,
      PGAPPNAME: 'statehouse-doomed',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      AUTOMATION_SANDBOX: 'on',
      RATE_LIMIT_PER_CREDENTIAL: '10000000',
      RATE_LIMIT_PER_ADDRESS: '10000000',
      RATE_LIMIT_AUTH_OPERATIONS: '10000000',
    });
    doomed = dead.child;
    say(`doomed process pid ${doomed.pid} at ${dead.url}; survivor pid ${servers.statehouse.pid} at ${sh.url}`);
    const processes = [
      { name: 'survivor', url: sh.url },
      { name: 'doomed', url: dead.url },
    ];

    // 1. Automations waiting before their second step, started half through each process.
    const automationIds = await startAutomations(processes, sh.apiKey, AUTOMATIONS);
    await waitFor(
      async () =>
        Number(
          (
            await query<{ n: string }>(`select count(*) as n from automations where id = any($1) and status = 'waiting_on_state'`, [
              automationIds,
            ])
          )[0]!.n,
        ) === AUTOMATIONS,
      'every automation waiting on the state',
      120_000,
    );
    holder = new pg.Client({ connectionString: sh.connectionString });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from automations where id = any($1) for update', [automationIds]);
    await query(`update pgboss.job set start_after = now() where name = 'automations.step' and state in ('created', 'retry')`);
    await waitFor(
      async () =>
        Number(
          (
            await query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and application_name like 'statehouse-%'`,
            )
          )[0]!.n,
        ) === AUTOMATIONS,
      'every step job started and waiting on its row',
      120_000,
    );
    const heldBy = await query<{ application_name: string; n: string }>(
      `select application_name, count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and application_name like 'statehouse-%' group by 1`,
    );
    const heldByDoomed = Number(heldBy.find((r) => r.application_name === 'statehouse-doomed')?.n ?? 0);
    const activeJobs = (
      await query<{ id: string }>(
        `select id from pgboss.job where name = 'automations.step' and state = 'active' and data->>'automation_id' = any($1)`,
        [automationIds],
      )
    ).map((r) => r.id);
    const heldSince = Date.now();
    say(`${activeJobs.length} step jobs started, ${heldByDoomed} of them by the doomed process`);

    // 2. Writes through both; the kill.
    const t0 = Date.now();
    const writers = startWriters(processes, sh.apiKey, WRITERS);
    let killedAt = 0;
    let writesAtKill = 0;
    try {
      await waitFor(
        async () => writers.acknowledgedBy('doomed') >= WRITES && writers.acknowledgedBy('survivor') >= WRITES,
        'writes acknowledged by both',
        600_000,
      );
      writesAtKill = writers.acknowledged.length;
      const expired = await query<{ n: string }>(
        `select count(*) as n from pgboss.job where id = any($1) and (state <> 'active' or retry_count > 0)`,
        [activeJobs],
      );
      if (Number(expired[0]!.n) > 0) throw new Error('the held step jobs expired before the kill: lower BENCH_FAILOVER_WRITES');
      say(`${writesAtKill} writes acknowledged in ${((Date.now() - t0) / 1000).toFixed(1)} s; killing the doomed process (SIGKILL)`);
      const exited = new Promise((resolve) => doomed!.once('exit', resolve));
      killedAt = Date.now();
      doomed.kill('SIGKILL');
      await exited;
      const before = writers.acknowledgedBy('survivor');
      await waitFor(
        async () => writers.acknowledgedBy('survivor') >= before + WRITES,
        'writes acknowledged by the survivor after the kill',
        600_000,
      );
    } finally {
      await writers.stop();
    }
    // 3. The doomed process's sessions ended, the rows let go.
    await holder.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'statehouse-doomed'`);
    await holder.query('rollback');
    await holder.end();
    holder = null;

    say('checking every acknowledged write and every entity on the survivor');
    const entityIds = (await query<{ id: string }>(`select id from legal_entities where business_name like 'Failover Writer %'`)).map(
      (r) => r.id,
    );
    const check = await checkWrites(sh.url, sh.apiKey, writers.acknowledged, writers.statusAttempts, entityIds);

    say('waiting for the survivor to finish every automation');
    await waitFor(
      async () => {
        await query(
          `update pgboss.job set start_after = now() where name = 'automations.step' and state in ('created', 'retry') and start_after > now()`,
        );
        return (
          Number(
            (
              await query<{ n: string }>(`select count(*) as n from automations where id = any($1) and status = 'complete'`, [
                automationIds,
              ])
            )[0]!.n,
          ) === AUTOMATIONS
        );
      },
      'every automation complete',
      300_000,
    );
    const jobs = await query<{ id: string; retry_count: number; started_on: Date; completed_on: Date; output: unknown }>(
      `select id, retry_count, started_on, completed_on, output from pgboss.job where id = any($1)`,
      [activeJobs],
    );
    const takenOver = jobs.filter((j) => j.retry_count > 0);
    const steps = await query<{ automation_id: string; n: string }>(
      `select data->>'automation_id' as automation_id, count(*) as n from pgboss.job where name = 'automations.step' and state = 'completed' and output::text like '%performed %' and output::text not like '%not performed%' and data->>'automation_id' = any($1) group by 1, data->>'step_key' having count(*) > 1`,
      [automationIds],
    );
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    const takeover =
      takenOver.length > 0
        ? {
            firstStartedAfterKillSeconds: Math.min(...takenOver.map((j) => j.started_on.getTime() - killedAt)) / 1000,
            lastCompletedAfterKillSeconds: Math.max(...takenOver.map((j) => j.completed_on.getTime() - killedAt)) / 1000,
          }
        : null;

    const failures: string[] = [];
    if (check.lost.length > 0) failures.push(`${check.lost.length} acknowledged writes lost: ${check.lost.slice(0, 5).join('; ')}`);
    if (check.halfWritten.length > 0)
      failures.push(`${check.halfWritten.length} entities half-written: ${check.halfWritten.slice(0, 5).join('; ')}`);
    if (takenOver.length !== heldByDoomed)
      failures.push(`the doomed process held ${heldByDoomed} step jobs; ${takenOver.length} were handed to the survivor after expiry`);
    if (steps.length > 0) failures.push(`${steps.length} automation steps performed more than once`);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    const out = [
      '',
      `Statehouse benchmark, failover — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}; ` +
        `${WRITERS} writers over two processes, kill after ${WRITES} acknowledged writes each; load average at the end ${load}`,
      `requests (signups, tokens, task look-ups, region and status writes): ${writers.counts.sent} sent, ${writers.counts.failed} failed (sent to the killed process); ` +
        `writes acknowledged: ${writers.acknowledged.length} (${writesAtKill} before the kill; ` +
        `${(['signup', 'region', 'status'] as const).map((kind) => `${writers.acknowledged.filter((w) => w.kind === kind).length} ${kind}`).join(', ')})`,
      `acknowledged writes lost: ${check.lost.length}; entities checked whole: ${check.entitiesChecked}, half-written: ${check.halfWritten.length}`,
      `jobs held by the killed process: ${heldByDoomed} step jobs; taken over by the survivor: ${takenOver.length}` +
        (takeover
          ? `, first started ${seconds(takeover.firstStartedAfterKillSeconds * 1000)} s after the kill, last finished ${seconds(takeover.lastCompletedAfterKillSeconds * 1000)} s after it ` +
            `(they expired ${seconds(heldSince + STEP_EXPIRY_SECONDS * 1000 - killedAt)} s after the kill at the latest)`
          : ''),
      failures.length === 0
        ? 'FAILOVER OK (no acknowledged write lost, nothing half-written, every held job finished once by the survivor)'
        : 'FAILOVER FAILED',
      ...(failures.length > 0 ? ['', 'FAILURES:', ...failures.map((f) => `  - ${f}`)] : []),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    await survivorPool.end();
    say('stopping servers');
    failures.push(...(await cleanup()));
    const file = path.join(REPO_ROOT, 'bench', 'results', 'failover-latest.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      `${JSON.stringify(
        {
          date: startedAt.toISOString(),
          cpus: os.cpus().length,
          node: process.version,
          loadAverage: os.loadavg(),
          writers: WRITERS,
          writesPerProcessBeforeKill: WRITES,
          writes: { ...writers.counts, acknowledged: writers.acknowledged.length, acknowledgedBeforeKill: writesAtKill },
          check: { lost: check.lost, halfWritten: check.halfWritten, entitiesChecked: check.entitiesChecked },
          jobs: {
            held: heldByDoomed,
            takenOver: takenOver.length,
            expirySeconds: STEP_EXPIRY_SECONDS,
            expiredAfterKillSecondsAtLatest: (heldSince + STEP_EXPIRY_SECONDS * 1000 - killedAt) / 1000,
            takeover,
          },
          failures,
          ok: failures.length === 0,
        },
        null,
        2,
      )}\n`,
    );
    say(`results written to ${path.relative(REPO_ROOT, file)}`);
    process.stdout.write(
      failures.length === 0 ? '\nbench OK\n' : `\nbench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`,
    );
    return failures.length === 0 ? 0 : 1;
  } finally {
    await holder?.end().catch(() => {});
    if (doomed && doomed.exitCode === null && doomed.signalCode === null) doomed.kill('SIGKILL');
    await cleanup();
  }
}
