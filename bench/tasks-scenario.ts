/**
 * `BENCH_SCENARIO=tasks npm run bench`: the task lists of an entity with ~300 tasks (issue 15 §4), each at 10 and
 * at 50 connections, beside their floors:
 *
 *   s1 / s2  a bare node:http server returning the exact bytes of d1 / d2 (bench/static-server.ts): transport only
 *   d0       bare node:http + `select * from tasks where legal_entity_id = $1` on a pg.Pool (bench/pg-server.ts)
 *   d1 / d2  Statehouse GET /tasks and GET /v2/tasks (the full bench's d1 and d2 requests)
 *
 * The goal is p99 ≤ 30 ms for d1 and d2 at 10 connections (TASKS TARGET MET / NOT MET). At 50 connections this
 * 2-core machine's load generator competes with the server for the cores, so the figure that compares is the server's
 * CPU time per request (from /proc/<pid>/stat before and after the measured run), against s1/s2 and d0.
 * Writes bench/results/tasks-latest.json. BENCH_CPU_PROFILE=d1,d2 profiles d1 and d2 (at both connection counts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startChild, type Child } from './children.js';
import { prepareTasksFixture } from './fixtures.js';
import { expectStatus, request } from './http-client.js';
import { measure, profileTarget, profiles, type Measurement, type Target } from './load.js';
import { table } from './report-format.js';
import { cleanup, state } from './run-state.js';
import { CPU_PROFILE, NOISY_OTHER_CPU_PERCENT, say, SECONDS, TASKS_GOAL, TASKS_PATH, TASKS_V2_PATH, WARMUP_SECONDS } from './settings.js';
import { startServers } from './setup.js';

/** The connection counts of the scenario: the goal's 10, and 50 (the full bench's default). */
export const TASKS_CONNECTIONS = [10, 50] as const;

/** A bare static server sending these bytes, checked once. */
async function staticServerFor(name: string, body: Buffer, contentType: string): Promise<Child<Record<string, unknown>>> {
  const file = path.join(state.tempDir!, `${name}.body`);
  await fs.writeFile(file, body);
  const server = await startChild(name, 'bench/static-server.ts', {
    ...process.env,
    BENCH_BODY_FILE: file,
    BENCH_CONTENT_TYPE: contentType,
  });
  const check = await request(server.info.url as string);
  expectStatus(check, 200, name);
  if (!check.body.equals(body)) throw new Error(`${name} does not return the captured bytes`);
  return server;
}

const micros = (m: Measurement | undefined) => m?.cpuMicrosPerRequest.server ?? null;
const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? a / b : null);
const fmt = (value: number | null, digits = 1) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

export async function runTasksScenario(): Promise<number> {
  const startedAt = new Date();
  try {
    const servers = await startServers();
    const statehouse = servers.statehouse as Child<Record<string, unknown>>;
    const fixture = await prepareTasksFixture(servers.sh);
    const { tasksReply, tasksV2Reply, tasksBearer, barePgTasks, pgTasksCheck, tasksEntity, tasksResponse } = fixture;
    const contentType = (reply: typeof tasksReply) => reply.headers['content-type'] ?? 'application/json; charset=utf-8';
    const s1 = await staticServerFor('bare-static-tasks', tasksReply.body, contentType(tasksReply));
    const s2 = await staticServerFor('bare-static-tasks-v2', tasksV2Reply.body, contentType(tasksV2Reply));

    const base = (connections: number): Target[] => [
      {
        key: 's1',
        name: `bare-static-tasks @${connections}`,
        server: s1,
        url: s1.info.url as string,
        method: 'GET',
        expectBody: tasksReply.body.toString('utf8'),
        sampleRss: false,
        responseBytes: tasksReply.body.length,
        connections,
        description: 'node:http returning the exact bytes of d1',
      },
      {
        key: 's2',
        name: `bare-static-tasks-v2 @${connections}`,
        server: s2,
        url: s2.info.url as string,
        method: 'GET',
        expectBody: tasksV2Reply.body.toString('utf8'),
        sampleRss: false,
        responseBytes: tasksV2Reply.body.length,
        connections,
        description: 'node:http returning the exact bytes of d2',
      },
      {
        key: 'd0',
        name: `bare-pg-tasks @${connections}`,
        server: barePgTasks,
        url: barePgTasks.info.url as string,
        method: 'GET',
        expectBody: pgTasksCheck.body.toString('utf8'),
        sampleRss: false,
        responseBytes: pgTasksCheck.body.length,
        connections,
        description: `node:http + select * from tasks where legal_entity_id = $1 (${tasksResponse.rows} rows)`,
      },
      {
        key: 'd1',
        name: `GET /tasks @${connections}`,
        server: statehouse,
        url: `${servers.sh.url}${TASKS_PATH}`,
        method: 'GET',
        headers: tasksBearer,
        expectBody: tasksReply.body.toString('utf8'),
        sampleRss: false,
        responseBytes: tasksReply.body.length,
        connections,
        description: `Statehouse: ${TASKS_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d1.tasks} returned)`,
      },
      {
        key: 'd2',
        name: `GET /v2/tasks @${connections}`,
        server: statehouse,
        url: `${servers.sh.url}${TASKS_V2_PATH}`,
        method: 'GET',
        headers: tasksBearer,
        expectBody: tasksV2Reply.body.toString('utf8'),
        sampleRss: false,
        responseBytes: tasksV2Reply.body.length,
        connections,
        description: `Statehouse: ${TASKS_V2_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d2.tasks} of ${tasksResponse.d2.xTotal} returned)`,
      },
    ];

    const results: Measurement[] = [];
    for (const connections of TASKS_CONNECTIONS) {
      for (const target of base(connections)) {
        results.push(await measure(target, null));
        if (CPU_PROFILE.has(target.key)) await profileTarget(target);
      }
    }

    const find = (key: Target['key'], connections: number) => results.find((r) => r.key === key && r.connections === connections);
    const failures: string[] = [];
    for (const r of results) {
      // d0 (the full bench's floor, unchanged) sends `select *` in no set order, timestamps included: in the 50-connection
      // pass its bodies differed from the one captured at the start (rows in another order or rewritten since; cause not
      // pinned down). Reported, not failed: its CPU figures still hold.
      const mismatches = r.key === 'd0' ? 0 : r.mismatches;
      if (r.requests === 0 || r.non2xx > 0 || r.errors > 0 || mismatches > 0)
        failures.push(`${r.name}: ${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.mismatches} mismatches`);
    }
    const floorMismatches = results.filter((r) => r.key === 'd0' && r.mismatches > 0);
    const at10 = (['d1', 'd2'] as const).map((key) => find(key, 10)!);
    const met = at10.every((m) => m.latencyMs.p99 <= TASKS_GOAL.maxP99Ms);
    const cpuLines = TASKS_CONNECTIONS.flatMap((connections) =>
      (['d1', 'd2'] as const).map((key) => {
        const own = micros(find(key, connections));
        const bare = micros(find(key === 'd1' ? 's1' : 's2', connections));
        const pg = find('d0', connections);
        return (
          `  ${key} @${connections}: server ${fmt(own, 0)} µs/req = ${fmt(ratio(own, bare))}× bare-static with the same bytes (${fmt(bare, 0)} µs), ` +
          `${fmt(ratio(own, micros(pg)))}× bare-pg-tasks (${fmt(micros(pg), 0)} µs; its database ${fmt(pg?.cpuMicrosPerRequest.database ?? null, 0)} µs/req)`
        );
      }),
    );
    const noisy = results.filter((m) => m.cpuPercent.other > NOISY_OTHER_CPU_PERCENT);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    const out = [
      '',
      `Statehouse benchmark, task lists only — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}; ` +
        `${WARMUP_SECONDS} s warmup + ${SECONDS} s per target; entity with ${tasksEntity.total} tasks; load average at the end ${load}`,
      '',
      table(results),
      '',
      'Server CPU per request (the comparison that holds when the load generator saturates the cores):',
      ...cpuLines,
      '',
      ...at10.map(
        (m) =>
          `  ${m.name}: p50 ${fmt(m.latencyMs.p50, 2)} ms, p99 ${fmt(m.latencyMs.p99, 2)} ms, ${fmt(m.requestsPerSecond, 0)} req/s (goal p99 ≤ ${TASKS_GOAL.maxP99Ms} ms)`,
      ),
      met ? 'TASKS TARGET MET (p99 at 10 connections)' : 'TASKS TARGET NOT MET (p99 at 10 connections)',
      ...Object.entries(profiles).flatMap(([key, p]) => ['', `CPU profile ${key} (${p.file}):`, ...p.summary]),
      ...floorMismatches.map(
        (r) =>
          `NOTE: ${r.name}: ${r.mismatches} of ${r.requests} bodies differed from the one captured at the start (select * in no set order, timestamps included; not counted as a failure).`,
      ),
      ...(noisy.length > 0
        ? [
            '',
            `NOTE: other work used the CPU during ${noisy.map((m) => `${m.name} (${m.cpuPercent.other.toFixed(0)} %)`).join(', ')}: those figures are disturbed.`,
          ]
        : []),
      ...(failures.length > 0 ? ['', 'FAILURES:', ...failures.map((f) => `  - ${f}`)] : []),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    say('stopping servers');
    failures.push(...(await cleanup()));
    const file = path.join(REPO_ROOT, 'bench', 'results', 'tasks-latest.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      `${JSON.stringify(
        {
          date: startedAt.toISOString(),
          cpus: os.cpus().length,
          node: process.version,
          loadAverage: os.loadavg(),
          tasksEntity: tasksResponse,
          results,
          goal: { maxP99MsAt10: TASKS_GOAL.maxP99Ms, met },
          cpuProfiles: profiles,
          disturbedRuns: noisy.map((m) => m.name),
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
    await cleanup();
  }
}
