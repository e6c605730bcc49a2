/**
 * BENCH_SCENARIO=scale (`BENCH_SCENARIO=scale BENCH_SCALE=1000000 npm run bench`): the hot paths at 10 000 entities
 * and at BENCH_SCALE entities, in the same run (docs/benchmarks.md, "A million entities").
 *
 * 1. Each database is loaded, or reused, by bench/scale-load.ts in BENCH_SCALE_DIR/<entities> (kept between runs).
 * 2. A Statehouse process on each (bench/statehouse-server.ts, capturing its SQL on demand), and tokens: the hot
 *    entity's (~300 tasks) and BENCH_SCALE_TOKENS typical entities' (spread over the whole table).
 * 3. Each target at 10 and at 50 connections, the two sizes back to back: p50, p99, requests/s, and the p50 ratio
 *    (goal: p50 at the large size ≤ 1.5 × p50 at 10 000). Targets on typical entities give each connection its own
 *    slice of the tokens, requests cycling through it, so no two requests in a row read the same entity.
 * 4. The SQL each target's requests send, captured in the server, EXPLAINed (ANALYZE, in a transaction rolled back)
 *    on each database: a Seq Scan (or a whole-index scan) of a tenant table at the large size fails the run (exit 1),
 *    like an error response; a missed p50 goal is reported (GOAL MISSED), as the main run reports its goals.
 *
 * Env: BENCH_SCALE (1000000), BENCH_SCALE_BASELINE (10000), BENCH_SCALE_DIR (/work/bench-scale),
 *      BENCH_SCALE_TOKENS (1000), BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_DATABASE_POOL_SIZE.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { READY_KEY } from './child-lifecycle.js';
import { REPO_ROOT, startChild } from './children.js';
import { expectStatus, request } from './http-client.js';
import { measure, type Measurement } from './load.js';
import { RssSampler } from './proc.js';
import { cleanup, state } from './run-state.js';
import { explainAll, type ExplainedStatement } from './scale-plans.js';
import { fmt, scaleReportText } from './scale-report.js';
import { captureKind, CONNECTION_COUNTS, KINDS, targetOf, type SizeServer } from './scale-targets.js';
import type { ScaleLoadReport } from './scale-load.js';
import { POOL_SIZE, say, SECONDS, WARMUP_SECONDS } from './settings.js';
import type { StatehouseInfo } from './setup.js';

function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
  return value;
}

const SCALE = envInt('BENCH_SCALE', 1_000_000, 1000, 10_000_000);
const BASELINE = envInt('BENCH_SCALE_BASELINE', 10_000, 1000, 10_000_000);
const SCALE_DIR = path.resolve(process.env.BENCH_SCALE_DIR?.trim() || '/work/bench-scale');
const TOKENS = envInt('BENCH_SCALE_TOKENS', 1000, 10, 100_000);
/** The goal: p50 at the large size within 1.5 × p50 at the baseline, for every target and connection count. */
export const SCALE_GOAL = { maxP50Ratio: 1.5 };
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'scale-latest.json');
/** Tokens for many entities, a few requests at a time. */
async function tokensFor(url: string, apiKey: string, ids: string[]): Promise<string[]> {
  const out: string[] = new Array<string>(ids.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const i = next++;
        const auth = await request(`${url}/accounts/auth`, {
          method: 'POST',
          headers: { authorization: apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ legal_entity_id: ids[i] }),
        });
        expectStatus(auth, 200, 'POST /accounts/auth');
        out[i] = `Bearer ${(JSON.parse(auth.body.toString('utf8')) as { access_token: string }).access_token}`;
      }
    }),
  );
  return out;
}

async function loadSize(entities: number): Promise<ScaleLoadReport> {
  const dataDir = path.join(SCALE_DIR, String(entities));
  await fs.mkdir(SCALE_DIR, { recursive: true, mode: 0o755 });
  await fs.chmod(SCALE_DIR, 0o755);
  say(`scale: ${entities} entities in ${dataDir} (loaded now unless a complete load of this loader version and migrations is there)`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STATEHOUSE_DATA_DIR: dataDir,
    BENCH_SCALE_ENTITIES: String(entities),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const t0 = Date.now();
  // A load of a million entities takes minutes (docs/benchmarks.md): allow two hours on a slow, shared machine.
  const child = await startChild<ScaleLoadReport & Record<string, unknown>>(
    `scale-load-${entities}`,
    'bench/scale-load.ts',
    env,
    2 * 3600_000,
  );
  const { [READY_KEY]: _ready, ...report } = child.info;
  const exit = await child.stop(120_000);
  if (exit.forced || exit.code !== 0) throw new Error(`scale-load did not shut down cleanly (code ${exit.code})`);
  say(
    `scale: ${entities} entities ${report.reused ? 'reused' : 'loaded'} (${((Date.now() - t0) / 1000).toFixed(0)} s this run; load took ${report.loadSeconds.toFixed(0)} s); ` +
      `database ${(report.databaseBytes / 2 ** 30).toFixed(2)} GiB; rows ${JSON.stringify(report.rows)}`,
  );
  return report as ScaleLoadReport;
}

async function startSize(load: ScaleLoadReport): Promise<SizeServer> {
  const dataDir = path.join(SCALE_DIR, String(load.entities));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STATEHOUSE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    BENCH_CAPTURE_SQL: '1',
    // A throughput test from one address with one key, as in the main run (bench/setup.ts).
    RATE_LIMIT_PER_CREDENTIAL: '10000000',
    RATE_LIMIT_PER_ADDRESS: '10000000',
    RATE_LIMIT_AUTH_OPERATIONS: '10000000',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_BASE_URL;
  const statehouse = await startChild<StatehouseInfo & Record<string, unknown>>(
    `statehouse-${load.entities}`,
    'bench/statehouse-server.ts',
    env,
    600_000,
  );
  const pid = Number.parseInt(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n', 1)[0] ?? '', 10);
  const url = statehouse.info.url;
  const [hot] = await tokensFor(url, load.apiKey, [load.hotEntityId]);
  const cold = await tokensFor(url, load.apiKey, load.sampleEntityIds.slice(0, TOKENS));
  say(`scale: Statehouse pid ${statehouse.pid} on ${load.entities} entities at ${url}; ${cold.length + 1} tokens`);
  return {
    entities: load.entities,
    load,
    statehouse,
    postmasterPid: Number.isInteger(pid) && pid > 0 ? pid : null,
    rss: new RssSampler(statehouse.pid, 200),
    hot: hot!,
    cold,
  };
}
export async function runScaleScenario(): Promise<number> {
  const startedAt = new Date();
  const sizes = [...new Set([BASELINE, SCALE])].sort((a, b) => a - b);
  say(
    `scale scenario: ${sizes.join(' and ')} entities; ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const loads: ScaleLoadReport[] = [];
  for (const entities of sizes) loads.push(await loadSize(entities));
  const servers: SizeServer[] = [];
  for (const load of loads) servers.push(await startSize(load));

  // Plans first, on the databases as loaded (before the writes of the load add rows).
  const plans: Record<string, Record<string, ExplainedStatement[]>> = {};
  for (const size of servers) {
    const client = new pg.Client({ connectionString: size.statehouse.info.connectionString });
    await client.connect();
    try {
      plans[size.entities] = {};
      for (const kind of KINDS)
        plans[size.entities]![kind.key] = await explainAll(client, await captureKind(kind, size), { analyze: true, seqscanOff: false });
    } finally {
      await client.end();
    }
  }

  const loadAverages: number[][] = [];
  const results: Array<Measurement & { kind: string; entities: number; connections: number }> = [];
  let turn = 0;
  for (const kind of KINDS) {
    for (const connections of CONNECTION_COUNTS) {
      // The sizes back to back, in turn small-first and large-first, so a drift in the machine's load does not
      // always favour the same size.
      for (const size of turn++ % 2 === 0 ? servers : [...servers].reverse()) {
        state.postmasterPid = size.postmasterPid;
        const target = targetOf(kind, size, connections);
        const measurement = await measure(target, size.rss);
        measurement.peakRssMiB = Math.round(size.rss.windowPeakKiB / 102.4) / 10;
        results.push({ ...measurement, kind: kind.key, entities: size.entities, connections });
        loadAverages.push(os.loadavg());
      }
    }
  }

  // Report: one row per kind and connection count, the sizes side by side.
  const [small, large] = [servers[0]!, servers[servers.length - 1]!];
  const failures: string[] = [];
  const goalMisses: string[] = [];
  const rows = KINDS.flatMap((kind) =>
    CONNECTION_COUNTS.map((connections) => {
      const at = (entities: number) =>
        results.find((r) => r.kind === kind.key && r.connections === connections && r.entities === entities)!;
      const a = at(small.entities);
      const b = at(large.entities);
      const ratio = b.latencyMs.p50 / a.latencyMs.p50;
      for (const m of [a, b])
        if (m.non2xx > 0 || m.errors > 0 || m.requests === 0)
          failures.push(`${m.name}: ${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors ${JSON.stringify(m.statusCodes)}`);
      if (!(ratio <= SCALE_GOAL.maxP50Ratio))
        goalMisses.push(
          `${kind.name} at ${connections} connections: p50 ${fmt(b.latencyMs.p50)} ms at ${large.entities} vs ${fmt(a.latencyMs.p50)} ms at ${small.entities} (${fmt(ratio)}×, goal ≤ ${SCALE_GOAL.maxP50Ratio}×)`,
        );
      return { kind: kind.key, name: kind.name, connections, small: a, large: b, ratio };
    }),
  );
  const planFindings = Object.entries(plans[large.entities] ?? {}).flatMap(([kind, list]) =>
    list.flatMap((p) => [
      ...p.seqScans.map((t) => `${kind}: Seq Scan of ${t}: ${p.text.replace(/\s+/g, ' ').slice(0, 200)}`),
      ...p.fullIndexScans.map((t) => `${kind}: whole-index scan of ${t}: ${p.text.replace(/\s+/g, ' ').slice(0, 200)}`),
    ]),
  );
  failures.push(...planFindings);
  const avg = (i: number) => loadAverages.reduce((s, l) => s + l[i]!, 0) / Math.max(1, loadAverages.length);
  process.stdout.write(scaleReportText({ loads, servers, rows, results, plans, meanLoadAverage: avg(0), goal: SCALE_GOAL }));

  say('stopping servers');
  const cleanupProblems = await cleanup();
  failures.push(...cleanupProblems);
  const report = {
    date: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? null,
      memoryMiB: Math.round(os.totalmem() / 1048576),
      node: process.version,
    },
    settings: {
      scale: SCALE,
      baseline: BASELINE,
      scaleDir: SCALE_DIR,
      tokens: TOKENS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      poolSize: POOL_SIZE,
      connections: CONNECTION_COUNTS,
    },
    loads: loads.map(({ apiKey: _key, sampleEntityIds: _ids, ...rest }) => rest),
    rows: rows.map((r) => ({
      kind: r.kind,
      connections: r.connections,
      p50Ratio: r.ratio,
      [r.small.entities]: r.small,
      [r.large.entities]: r.large,
    })),
    goal: SCALE_GOAL,
    goalMisses,
    loadAverage: avg(0),
    plans,
    failures,
    ok: failures.length === 0,
  };
  await fs.mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await fs.writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  say(`results written to ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  process.stdout.write(
    goalMisses.length === 0
      ? `\ngoal met: every p50 at ${large.entities} within ${SCALE_GOAL.maxP50Ratio}× of ${small.entities}\n`
      : `\nGOAL MISSED:\n${goalMisses.map((f) => `  - ${f}`).join('\n')}\n`,
  );
  if (failures.length > 0) process.stdout.write(`\nFAILURES:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
  process.stdout.write(
    failures.length === 0 ? '\nscale bench OK\n' : `\nscale bench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`,
  );
  return failures.length === 0 ? 0 : 1;
}
