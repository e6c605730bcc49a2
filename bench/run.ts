/**
 * `npm run bench`: how close Statehouse's hottest endpoints come to what this machine can do.
 *
 *   (a)  bare-static  a bare node:http server returning the exact bytes of GET /legal_entity
 *   (b)  bare-pg      a bare node:http server running the same one-row query on a pg.Pool(10)
 *   (c1) Statehouse GET /legal_entity   (bearer token)
 *   (c2) Statehouse POST /accounts/auth (platform API key)
 *   (d0) bare-pg-tasks  a bare node:http server running `select * from tasks where legal_entity_id = $1 order by id`
 *        for an entity with ~300 tasks, on a pg.Pool(10)
 *   (d1) Statehouse GET /tasks (filtered by status and tags) for that entity
 *   (d2) Statehouse GET /v2/tasks (filtered by status and category, page_size=100) for that entity
 *   (e)  task generation: rollForwardAll over 10 000 entities × 3 locations, twice (first run and
 *        idempotent re-run), in a child with its own embedded PostgreSQL
 *   (f0) bare-static-pdf  the bare static server returning the exact bytes of one ~100 KB mail PDF
 *        (application/pdf, from memory): the floor for a file download
 *   (f1) Statehouse GET /files/mail/{id} (signed file_url, no token) streaming that same PDF from its file store
 *   (g0) bare-pg-mail  a bare node:http server running
 *        `select * from mail_items where legal_entity_id = $1 order by received_on desc, id` on a pg.Pool(10)
 *   (g1) Statehouse GET /v2/mail (bearer token): the demo entity's whole mail listing
 *   (h)  automations: BENCH_AUTOMATIONS (1000) sandbox automations at zero step delay, started through
 *        POST /tasks/{task_id}/automate (one entity each) and run to completion (bench/automations.ts)
 *   (i)  webhooks: PUT /v2/regions/CA with no webhook endpoint and with one (deliveries to a receiver in this process),
 *        then BENCH_WEBHOOK_EVENTS (10000) events from real writes delivered and verified (bench/webhooks.ts)
 *   The f and g targets' mail: BENCH_MAIL_ITEMS PDFs uploaded (untimed) for the demo legal entity through the
 *   operator API, POST /operator/v1/legal_entities/{id}/mail.
 *
 * Each server runs in its own child process; autocannon runs here, one target at a time:
 * a warmup, then the measured run. See docs/benchmarks.md.
 *
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50),
 *      BENCH_DATABASE_URL (use this PostgreSQL instead of an embedded one in a temp dir),
 *      BENCH_DATABASE_POOL_SIZE (10, for both Statehouse and the bare pg servers),
 *      BENCH_TASKS_PER_ENTITY (300: locations are added to the d entity until it has at least this many tasks),
 *      BENCH_TASK_ENTITIES (10000 entities for e; 0 skips e),
 *      BENCH_MAIL_ITEMS (100: mail PDFs of ~100 KB uploaded for the demo entity, listed by g0/g1),
 *      BENCH_AUTOMATIONS (1000; 0 skips h), BENCH_AUTOMATION_CONCURRENCY (10 starts in flight),
 *      BENCH_WEBHOOKS (1; 0 skips i), BENCH_WEBHOOK_EVENTS (10000; 0 skips i's delivery throughput), BENCH_WEBHOOK_WRITERS (10),
 *      BENCH_CPU_PROFILE (unset; e.g. `d1,e`: after the measured run of these targets, one more run of the same
 *      length under the CPU profiler of the server; profiles and a text summary in bench/results/profiles/).
 *
 * The steps live beside this file: setup.ts (Statehouse, a token, the bare servers), fixtures.ts (the d entity's
 * tasks, the mail), targets.ts, load.ts (autocannon), generation-step.ts (e), verdict.ts (goals, printed report).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './children.js';
import { prepareMailFixture, prepareTasksFixture } from './fixtures.js';
import { runAutomations } from './automations.js';
import type { Child } from './children.js';
import { runTaskGeneration } from './generation-step.js';
import { measure, profileTarget, profiles, type Measurement } from './load.js';
import { readMemory, RssSampler } from './proc.js';
import { memoryUsage, mib } from './report-format.js';
import { cleanup, Interrupted, state } from './run-state.js';
import { startServers } from './setup.js';
import {
  AUTOMATION_CONCURRENCY,
  AUTOMATIONS,
  CONNECTIONS,
  CPU_PROFILE,
  DATABASE_URL,
  MAIL_ITEMS,
  POOL_SIZE,
  RESULTS_FILE,
  say,
  SECONDS,
  TASK_ENTITIES,
  TASKS_PER_ENTITY,
  WARMUP_SECONDS,
  WEBHOOK_EVENTS,
  WEBHOOK_WRITERS,
  WEBHOOKS,
} from './settings.js';
import { buildTargets } from './targets.js';
import { verdict } from './verdict.js';
import { runWebhooks } from './webhooks.js';
import { measureStartup } from './footprint.js';

async function main(): Promise<number> {
  // BENCH_SCENARIO=abuse: only the abuse scenario (bench/abuse.ts).
  if (process.env.BENCH_SCENARIO === 'abuse') return (await import('./abuse.js')).runAbuseScenario();
  // BENCH_SCENARIO=footprint: only the warm starts of the compiled binary, repeated (bench/footprint-starts.ts).
  if (process.env.BENCH_SCENARIO === 'footprint') return (await import('./footprint-starts.js')).runFootprintStarts();
  // BENCH_SCENARIO=automations: only the automations step (h) and the bare-pg floor (bench/automations-scenario.ts).
  if (process.env.BENCH_SCENARIO === 'automations') return (await import('./automations-scenario.js')).runAutomationsScenario();
  // BENCH_SCENARIO=webhooks: only the webhooks step (i) and the bare-pg floor (bench/webhooks-scenario.ts).
  if (process.env.BENCH_SCENARIO === 'webhooks') return (await import('./webhooks-scenario.js')).runWebhooksScenario();
  // BENCH_SCENARIO=scale: the hot paths at 10 000 and BENCH_SCALE entities, with their query plans (bench/scale.ts).
  if (process.env.BENCH_SCENARIO === 'scale') return (await import('./scale.js')).runScaleScenario();
  // BENCH_SCENARIO=tasks: only the task lists (d0, d1, d2 and bare static servers with their bytes) at 10 and 50 connections (bench/tasks-scenario.ts).
  if (process.env.BENCH_SCENARIO === 'tasks') return (await import('./tasks-scenario.js')).runTasksScenario();
  // BENCH_SCENARIO=failover: two processes on one database, one killed (SIGKILL) under write load (bench/failover-scenario.ts).
  if (process.env.BENCH_SCENARIO === 'failover') return (await import('./failover-scenario.js')).runFailoverScenario();
  // BENCH_SCENARIO=request-logs: GET /legal_entity with request logs on and off, in turns (bench/request-logs-scenario.ts).
  if (process.env.BENCH_SCENARIO === 'request-logs') return (await import('./request-logs-scenario.js')).runRequestLogsScenario();
  const startedAt = new Date();
  say(
    `${os.cpus().length} CPUs, node ${process.version}; ${CONNECTIONS} connections, warmup ${WARMUP_SECONDS} s, measured ${SECONDS} s per target`,
  );

  // 0. The footprint's starts first, on a machine as quiet as an operator's (bench/footprint.ts): timed after the
  //    load and the generation, their PostgreSQL servers' background writes slowed each start by 0.2–0.5 s.
  const footprintDir = await fs.mkdtemp(path.join(os.tmpdir(), 'statehouse-footprint-'));
  await fs.chmod(footprintDir, 0o755); // the embedded PostgreSQL runs as `postgres` when we are root
  const startup = await measureStartup(path.join(footprintDir, 'data'), DATABASE_URL, say).finally(() =>
    fs.rm(footprintDir, { recursive: true, force: true }),
  );

  // 1.–3. Statehouse, a token and the bytes of GET /legal_entity, the two bare servers (setup.ts).
  const servers = await startServers();
  const { statehouse, entity, contentType, bareStatic, barePg } = servers;
  // 3b./3c. The d entity's tasks and the f and g targets' mail, with their bare servers (fixtures.ts).
  const tasks = await prepareTasksFixture(servers.sh);
  const { tasksResponse } = tasks;
  const mail = await prepareMailFixture(servers.sh, servers.bearer, state.tempDir!);
  const { mailResponse } = mail;

  // 4./5. Load, one target after another; Statehouse's RSS is sampled during its runs.
  const idle = readMemory(statehouse.pid);
  const idleUsage = await memoryUsage(statehouse);
  const rss = new RssSampler(statehouse.pid, 200);
  const targets = buildTargets({ ...servers, ...tasks, ...mail });
  const results: Measurement[] = [];
  for (const target of targets) {
    const measurement = await measure(target, target.sampleRss ? rss : null);
    // Which target reached the peak: each Statehouse target's own.
    if (target.sampleRss) measurement.peakRssMiB = mib(rss.windowPeakKiB);
    results.push(measurement);
    if (CPU_PROFILE.has(target.key)) await profileTarget(target);
  }
  const end = readMemory(statehouse.pid);
  const endUsage = await memoryUsage(statehouse);
  const staticEnd = readMemory(bareStatic.pid);
  const pgEnd = readMemory(barePg.pid);

  // 5a. The automations (h): sandbox automations started through the API and run to completion, on the same Statehouse.
  const automations = await runAutomations(
    statehouse as Child<Record<string, unknown>>,
    servers.sh.connectionString,
    servers.sh.url,
    results.find((r) => r.key === 'b') ?? null,
  );

  // 5a'. The webhooks (i): the write with and without an endpoint, then delivery throughput, on the same Statehouse.
  const webhooks = WEBHOOKS
    ? await runWebhooks(statehouse as Child<Record<string, unknown>>, servers.sh, results.find((r) => r.key === 'b') ?? null)
    : null;

  // 5b. Task generation (e), in its own child with its own embedded PostgreSQL, once the load is over.
  //     The other servers stay up but idle.
  const generation = await runTaskGeneration(state.tempDir!);

  // 6. Report.
  const { ratios, goal, tasksGoal, generationGoal, memory, footprint, failures, noisy } = await verdict({
    startup,
    results,
    tasksResponse,
    mailResponse,
    generation,
    automations,
    webhooks,
    idle,
    idleUsage,
    rss,
    end,
    endUsage,
    staticEnd,
    pgEnd,
    startedAt,
  });

  // 7. Stop everything (Statehouse must shut down cleanly), then save.
  say('stopping servers');
  const cleanupProblems = await cleanup();
  failures.push(...cleanupProblems);
  for (const p of cleanupProblems) say(`cleanup: ${p}`);

  const report = {
    date: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? null,
      memoryMiB: Math.round(os.totalmem() / 1048576),
      node: process.version,
      platform: `${os.platform()}-${os.arch()}`,
    },
    settings: {
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_SECONDS,
      seconds: SECONDS,
      databasePoolSize: POOL_SIZE,
      database: DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded',
      tasksPerEntity: TASKS_PER_ENTITY,
      taskEntities: TASK_ENTITIES,
      mailItems: MAIL_ITEMS,
      automations: AUTOMATIONS,
      automationConcurrency: AUTOMATION_CONCURRENCY,
      webhooks: WEBHOOKS,
      webhookEvents: WEBHOOK_EVENTS,
      webhookWriters: WEBHOOK_WRITERS,
      cpuProfile: [...CPU_PROFILE],
    },
    legalEntityResponse: { bytes: entity.body.length, contentType },
    tasksEntity: tasksResponse,
    mail: mailResponse,
    targets: results,
    ratios,
    goal,
    tasksGoal,
    generation: generation && { ...generation, goal: generationGoal },
    automations,
    webhooks,
    cpuProfiles: profiles,
    statehouseMemory: memory,
    footprint: { ...startup, goal: footprint },
    disturbedRuns: noisy.map((r) => r.key),
    failures,
    ok: failures.length === 0,
  };
  await fs.mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await fs.writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  say(`results written to ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  if (cleanupProblems.length > 0) process.stdout.write(`\nCLEAN-UP PROBLEMS:\n${cleanupProblems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.stdout.write(
    failures.length === 0 ? '\nbench OK\n' : `\nbench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`,
  );
  return failures.length === 0 ? 0 : 1;
}

process.on('uncaughtException', (error) => {
  say(`uncaught: ${error.stack ?? error.message}`);
  void cleanup().then(() => process.exit(1));
});

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    if (state.interrupted || error instanceof Interrupted) return; // the signal handler exits
    say(`failed: ${(error as Error).stack ?? String(error)}`);
    const problems = await cleanup();
    for (const p of problems) say(`cleanup: ${p}`);
    process.exit(1);
  },
);
