/**
 * `npm run bench`: how close Statehouse's hottest endpoints come to what this machine can do.
 *
 *   (a)  bare-static  a bare node:http server returning the exact bytes of GET /legal_entity
 *   (b)  bare-pg      a bare node:http server running the same one-row query on a pg.Pool(10)
 *   (c1) Statehouse GET /legal_entity   (bearer token)
 *   (c2) Statehouse POST /accounts/auth (platform API key)
 *
 * Each server runs in its own child process; autocannon runs here, one target at a time:
 * a warmup, then the measured run. See docs/benchmarks.md.
 *
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_CONNECTIONS (50),
 *      BENCH_DATABASE_URL (use this PostgreSQL instead of an embedded one in a temp dir),
 *      BENCH_DATABASE_POOL_SIZE (10, for both Statehouse and the bare pg server).
 */
import autocannon from 'autocannon';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startChild, stopAllChildren, unexpectedExits, type Child } from './children.js';
import { readMachineCpu, readMemory, readProcessCpuSeconds, readProcessTreeCpuSeconds, RssSampler, treeCpuDelta } from './proc.js';

// ---------------------------------------------------------------- settings

function envNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max} (got '${raw}')`);
  return value;
}

const SECONDS = envNumber('BENCH_SECONDS', 10, 1, 3600);
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 3, 0, 600);
const CONNECTIONS = Math.round(envNumber('BENCH_CONNECTIONS', 50, 1, 10_000));
const POOL_SIZE = Math.round(envNumber('BENCH_DATABASE_POOL_SIZE', 10, 1, 200));
const DATABASE_URL = process.env.BENCH_DATABASE_URL?.trim() || null;

/** The goal: GET /legal_entity at ≥ 75 % of the bare-pg floor's requests/s, with p99 ≤ 25 ms. */
const GOAL = { minRatioToBarePg: 0.75, maxP99Ms: 25 };

/** Above this much CPU (% of one core) busy outside the bench's own processes, a run is flagged as disturbed. */
const NOISY_OTHER_CPU_PERCENT = 30;

const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'latest.json');
const TAG = '[bench]';
const say = (message: string) => process.stderr.write(`${TAG} ${message}\n`);

// ---------------------------------------------------------------- clean-up and signals

let tempDir: string | null = null;
let statehouseDataDir: string | null = null;
/** The embedded PostgreSQL's postmaster, whose backends' CPU time is reported (null with BENCH_DATABASE_URL). */
let postmasterPid: number | null = null;
let currentLoad: autocannon.Instance | null = null;
let samplerToStop: RssSampler | null = null;
let interrupted = false;
let cleaning: Promise<string[]> | null = null;

/** Stops children, any orphaned embedded PostgreSQL, removes the temp dir. Returns problems found. */
function cleanup(): Promise<string[]> {
  cleaning ??= (async () => {
    const problems: string[] = [];
    currentLoad?.stop();
    samplerToStop?.stop();
    for (const exit of await stopAllChildren().catch((error: Error) => {
      problems.push(`stopping children failed: ${error.message}`);
      return [];
    })) {
      if (exit.forced) problems.push(`${exit.name} did not shut down on SIGTERM and was killed`);
      else if (exit.code !== 0) problems.push(`${exit.name} shut down with code ${exit.code} (signal ${exit.signal})`);
    }
    if (statehouseDataDir) {
      const orphan = await stopOrphanPostgres(path.join(statehouseDataDir, 'postgres'));
      if (orphan) problems.push(orphan);
    }
    if (tempDir) {
      await fs.rm(tempDir, { recursive: true, force: true }).catch((error: Error) => problems.push(`could not remove ${tempDir}: ${error.message}`));
    }
    return problems;
  })();
  return cleaning;
}

/** Statehouse stops its embedded PostgreSQL on close; if it could not (killed), stop it here. */
async function stopOrphanPostgres(pgdata: string): Promise<string | null> {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n', 1)[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  say(`embedded PostgreSQL (pid ${pid}) is still running after Statehouse stopped: stopping it`);
  process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
  for (let i = 0; i < 150 && isAlive(pid); i++) await sleep(200);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return `embedded PostgreSQL (pid ${pid}) outlived Statehouse and had to be stopped by the bench`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: stopping the load and the servers`);
    void cleanup().then((problems) => {
      for (const p of problems) say(p);
      process.exit(130);
    });
  });
}

class Interrupted extends Error {}
function checkpoint(): void {
  if (interrupted) throw new Interrupted('interrupted');
  if (unexpectedExits.length > 0) throw new Error(unexpectedExits.join('; '));
}

// ---------------------------------------------------------------- tiny HTTP client

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${options.method ?? 'GET'} ${url} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status) throw new Error(`${what} answered ${reply.status}, expected ${status}: ${reply.body.toString('utf8').slice(0, 500)}`);
}

// ---------------------------------------------------------------- load

interface Target {
  key: 'a' | 'b' | 'c1' | 'c2';
  name: string;
  description: string;
  server: Child<Record<string, unknown>>;
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** When set, every response body must equal it (checked by autocannon: "mismatches"). */
  expectBody?: string;
  sampleRss: boolean;
}

interface Measurement {
  key: Target['key'];
  name: string;
  description: string;
  method: string;
  url: string;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Our own percentiles from every response's latency (sub-millisecond resolution). */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** autocannon's own figures (whole milliseconds), for comparison with its CLI. */
  autocannon: { requestsPerSecondAverage: number; latencyP50: number; latencyP99: number; latencyMax: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  errorMessages: Record<string, number>;
  /** Requests completed in each second of the run. */
  perSecond: { min: number; max: number; stddev: number };
  /**
   * Percent of one core (this machine's total is 100 × CPUs): the server process, the embedded
   * PostgreSQL (postmaster + backends), autocannon (this process), and the rest of the machine's
   * busy time (kernel networking, and any other work running on the machine: high = noisy run).
   */
  cpuPercent: { server: number | null; database: number | null; loadGenerator: number; other: number; machine: number };
  /** CPU time per completed request (µs): much less sensitive to other load on the machine than requests/s. */
  cpuMicrosPerRequest: { server: number | null; database: number | null };
}

function runLoad(target: Target, seconds: number, record: boolean): Promise<{ result: autocannon.Result; latencies: number[]; errorMessages: Map<string, number> }> {
  const latencies: number[] = [];
  const errorMessages = new Map<string, number>();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 10,
        ...(target.headers && { headers: target.headers }),
        ...(target.body !== undefined && { body: target.body }),
        ...(target.expectBody !== undefined && { expectBody: target.expectBody }),
      },
      (error, result) => {
        currentLoad = null;
        if (error) reject(error);
        else resolve({ result, latencies, errorMessages });
      },
    );
    currentLoad = instance;
    if (record) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
    instance.on('reqError', (error: Error) => errorMessages.set(error.message, (errorMessages.get(error.message) ?? 0) + 1));
  });
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function measure(target: Target, rss: RssSampler | null): Promise<Measurement> {
  checkpoint();
  if (rss) {
    samplerToStop = rss;
    rss.start();
  }
  try {
    if (WARMUP_SECONDS > 0) {
      say(`${target.name}: warmup ${WARMUP_SECONDS} s`);
      await runLoad(target, WARMUP_SECONDS, false);
      checkpoint();
    }
    say(`${target.name}: measuring ${SECONDS} s with ${CONNECTIONS} connections`);
    const serverCpu0 = readProcessCpuSeconds(target.server.pid);
    const dbCpu0 = postmasterPid ? readProcessTreeCpuSeconds(postmasterPid) : null;
    const clientCpu0 = process.cpuUsage();
    const machine0 = readMachineCpu();
    const { result, latencies, errorMessages } = await runLoad(target, SECONDS, true);
    const serverCpu1 = readProcessCpuSeconds(target.server.pid);
    const dbCpu1 = postmasterPid ? readProcessTreeCpuSeconds(postmasterPid) : null;
    const clientCpu = process.cpuUsage(clientCpu0);
    const machine1 = readMachineCpu();
    checkpoint();

    const sorted = Float64Array.from(latencies).sort();
    const wall = result.duration;
    const statusCodes: Record<string, number> = {};
    for (const [code, stats] of Object.entries(result.statusCodeStats)) statusCodes[code] = stats.count;
    const machineTotal = machine1.totalSeconds - machine0.totalSeconds;
    const percent = (cpuSeconds: number) => (100 * cpuSeconds) / wall;
    const server = serverCpu0 !== null && serverCpu1 !== null ? percent(serverCpu1 - serverCpu0) : null;
    const database = dbCpu0 && dbCpu1 ? percent(treeCpuDelta(dbCpu0, dbCpu1)) : null;
    const loadGenerator = percent((clientCpu.user + clientCpu.system) / 1e6);
    const machine = machineTotal > 0 ? (100 * os.cpus().length * (machine1.busySeconds - machine0.busySeconds)) / machineTotal : NaN;
    return {
      key: target.key,
      name: target.name,
      description: target.description,
      method: target.method,
      url: target.url,
      durationSeconds: wall,
      requests: result.requests.total,
      requestsPerSecond: result.requests.total / wall,
      latencyMs: {
        mean: sorted.length ? latencies.reduce((s, v) => s + v, 0) / sorted.length : NaN,
        p50: percentile(sorted, 0.5),
        p90: percentile(sorted, 0.9),
        p99: percentile(sorted, 0.99),
        max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      },
      autocannon: {
        requestsPerSecondAverage: result.requests.average,
        latencyP50: result.latency.p50,
        latencyP99: result.latency.p99,
        latencyMax: result.latency.max,
      },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      mismatches: result.mismatches,
      statusCodes,
      errorMessages: Object.fromEntries(errorMessages),
      perSecond: { min: result.requests.min, max: result.requests.max, stddev: result.requests.stddev },
      cpuPercent: { server, database, loadGenerator, other: Math.max(0, machine - (server ?? 0) - (database ?? 0) - loadGenerator), machine },
      cpuMicrosPerRequest: {
        server: server !== null && result.requests.total > 0 ? (server * wall * 1e4) / result.requests.total : null,
        database: database !== null && result.requests.total > 0 ? (database * wall * 1e4) / result.requests.total : null,
      },
    };
  } finally {
    if (rss) {
      rss.stop();
      samplerToStop = null;
    }
  }
}

// ---------------------------------------------------------------- report

const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;
const fixed = (value: number | null, digits: number) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function table(rows: Measurement[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'mismatch', 'srv CPU', 'srv µs/req', 'db CPU', 'db µs/req', 'bench CPU', 'other CPU'];
  const lines = rows.map((r) => [
    `${r.key} ${r.name}`,
    fixed(r.requestsPerSecond, 0),
    fixed(r.latencyMs.p50, 2),
    fixed(r.latencyMs.p99, 2),
    fixed(r.latencyMs.max, 1),
    String(r.non2xx),
    String(r.errors),
    String(r.mismatches),
    `${fixed(r.cpuPercent.server, 0)} %`,
    fixed(r.cpuMicrosPerRequest.server, 0),
    `${fixed(r.cpuPercent.database, 0)} %`,
    fixed(r.cpuMicrosPerRequest.database, 0),
    `${fixed(r.cpuPercent.loadGenerator, 0)} %`,
    `${fixed(r.cpuPercent.other, 0)} %`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const startedAt = new Date();
  say(`${os.cpus().length} CPUs, node ${process.version}; ${CONNECTIONS} connections, warmup ${WARMUP_SECONDS} s, measured ${SECONDS} s per target`);

  // 1. Statehouse, in a fresh data directory.
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'statehouse-bench-'));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as `postgres`, which must traverse it.
  await fs.chmod(tempDir, 0o755);
  const statehouseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    STATEHOUSE_DATA_DIR: path.join(tempDir, 'data'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
  };
  delete statehouseEnv.DATABASE_URL;
  delete statehouseEnv.PUBLIC_BASE_URL;
  if (DATABASE_URL) statehouseEnv.DATABASE_URL = DATABASE_URL;
  else statehouseDataDir = statehouseEnv.STATEHOUSE_DATA_DIR!;
  say(`starting Statehouse (${DATABASE_URL ? 'BENCH_DATABASE_URL' : `embedded PostgreSQL in ${statehouseEnv.STATEHOUSE_DATA_DIR}`})`);
  const t0 = Date.now();
  const statehouse = await startChild<{ url: string; apiKey: string; platformId: string; legalEntityId: string; connectionString: string }>(
    'statehouse',
    'bench/statehouse-server.ts',
    statehouseEnv,
    180_000,
  );
  const sh = statehouse.info;
  say(`Statehouse pid ${statehouse.pid} ready at ${sh.url} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (statehouseDataDir) {
    const pid = Number.parseInt(readFileSync(path.join(statehouseDataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n', 1)[0] ?? '', 10);
    postmasterPid = Number.isInteger(pid) && pid > 0 ? pid : null;
  }
  checkpoint();

  // 2. A token, and the exact bytes of GET /legal_entity.
  const authBody = JSON.stringify({ legal_entity_id: sh.legalEntityId });
  const authHeaders = { authorization: sh.apiKey, 'content-type': 'application/json' };
  const auth = await request(`${sh.url}/accounts/auth`, { method: 'POST', headers: authHeaders, body: authBody });
  expectStatus(auth, 200, 'POST /accounts/auth');
  const token = (JSON.parse(auth.body.toString('utf8')) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error('POST /accounts/auth returned no access_token');
  const bearer = { authorization: `Bearer ${token}` };
  const entity = await request(`${sh.url}/legal_entity`, { headers: bearer });
  expectStatus(entity, 200, 'GET /legal_entity');
  if (entity.headers['content-encoding']) throw new Error(`GET /legal_entity came back encoded (${entity.headers['content-encoding']}); the bare server needs the plain bytes`);
  const contentType = entity.headers['content-type'] ?? 'application/json; charset=utf-8';
  say(`GET /legal_entity: ${entity.body.length} bytes, ${contentType}`);

  // 3. The two bare servers.
  const bareStatic = await startChild('bare-static', 'bench/static-server.ts', {
    ...process.env,
    BENCH_BODY_B64: entity.body.toString('base64'),
    BENCH_CONTENT_TYPE: contentType,
  });
  const barePg = await startChild('bare-pg', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_LEGAL_ENTITY_ID: sh.legalEntityId,
    BENCH_PLATFORM_ID: sh.platformId,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const staticCheck = await request(bareStatic.info.url as string);
  expectStatus(staticCheck, 200, 'bare-static');
  if (!staticCheck.body.equals(entity.body)) throw new Error('bare-static does not return the captured bytes');
  const pgCheck = await request(barePg.info.url as string);
  expectStatus(pgCheck, 200, 'bare-pg');
  const pgRow = JSON.parse(pgCheck.body.toString('utf8')) as { id?: unknown };
  if (pgRow.id !== sh.legalEntityId) throw new Error(`bare-pg returned the wrong row: ${pgCheck.body.toString('utf8').slice(0, 200)}`);
  checkpoint();

  // 4./5. Load, one target after another; Statehouse's RSS is sampled during its runs.
  const idle = readMemory(statehouse.pid);
  const rss = new RssSampler(statehouse.pid, 200);
  const targets: Target[] = [
    {
      key: 'a', name: 'bare-static', server: bareStatic, url: bareStatic.info.url as string, method: 'GET', expectBody: entity.body.toString('utf8'), sampleRss: false,
      description: 'node:http returning the exact bytes of GET /legal_entity (no framework, no database)',
    },
    {
      key: 'b', name: 'bare-pg', server: barePg, url: barePg.info.url as string, method: 'GET', expectBody: pgCheck.body.toString('utf8'), sampleRss: false,
      description: 'node:http + one pg query (pg.Pool of 10) + JSON.stringify(row): the floor for a database-backed endpoint',
    },
    {
      key: 'c1', name: 'GET /legal_entity', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}/legal_entity`, method: 'GET', headers: bearer,
      expectBody: entity.body.toString('utf8'), sampleRss: true,
      description: 'Statehouse: bearer token check (HMAC) + one query + response schema',
    },
    {
      key: 'c2', name: 'POST /accounts/auth', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}/accounts/auth`, method: 'POST',
      headers: authHeaders, body: authBody, sampleRss: true,
      description: 'Statehouse: API key lookup + legal entity lookup + token issue',
    },
  ];
  const results: Measurement[] = [];
  for (const target of targets) results.push(await measure(target, target.sampleRss ? rss : null));
  const end = readMemory(statehouse.pid);
  const staticEnd = readMemory(bareStatic.pid);
  const pgEnd = readMemory(barePg.pid);

  // 6. Report.
  const by = (key: Target['key']) => results.find((r) => r.key === key)!;
  const [a, b, c1, c2] = [by('a'), by('b'), by('c1'), by('c2')];
  const ratios = {
    c1_over_a: c1.requestsPerSecond / a.requestsPerSecond,
    c1_over_b: c1.requestsPerSecond / b.requestsPerSecond,
    c2_over_a: c2.requestsPerSecond / a.requestsPerSecond,
  };
  const goal = {
    ...GOAL,
    ratioToBarePg: ratios.c1_over_b,
    p99Ms: c1.latencyMs.p99,
    throughputMet: ratios.c1_over_b >= GOAL.minRatioToBarePg,
    p99Met: c1.latencyMs.p99 <= GOAL.maxP99Ms,
    met: false,
  };
  goal.met = goal.throughputMet && goal.p99Met;
  const memory = {
    idleRssMiB: idle ? mib(idle.rssKiB) : null,
    peakRssDuringLoadMiB: rss.samples > 0 ? mib(rss.peakKiB) : null,
    rssSamples: rss.samples,
    vmHwmMiB: end ? mib(end.hwmKiB) : null,
    endRssMiB: end ? mib(end.rssKiB) : null,
    // For scale: the bare servers also run on node + tsx.
    bareStaticVmHwmMiB: staticEnd ? mib(staticEnd.hwmKiB) : null,
    barePgVmHwmMiB: pgEnd ? mib(pgEnd.hwmKiB) : null,
  };
  const failures: string[] = [];
  for (const r of results) {
    if (r.requests === 0) failures.push(`${r.key} ${r.name}: no request completed`);
    if (r.non2xx > 0) failures.push(`${r.key} ${r.name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
    if (r.errors > 0) failures.push(`${r.key} ${r.name}: ${r.errors} errors (${r.timeouts} timeouts) ${JSON.stringify(r.errorMessages)}`);
    if (r.mismatches > 0) failures.push(`${r.key} ${r.name}: ${r.mismatches} responses with a different body`);
  }

  const out: string[] = [];
  out.push('');
  out.push(`Statehouse benchmark — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}`);
  out.push(`${CONNECTIONS} connections; per target ${WARMUP_SECONDS} s warmup + ${SECONDS} s measured; latencies are per response, sub-ms resolution`);
  out.push(`CPU columns: % of one core (this machine has ${os.cpus().length}): server process, embedded PostgreSQL, autocannon (this process),`);
  out.push(`and "other": the rest of the machine's busy time (kernel networking, other programs; high means a noisy run).`);
  out.push('µs/req: CPU time per request of the server process / of PostgreSQL, the figure least disturbed by other load.');
  out.push('');
  out.push(table(results));
  out.push('');
  out.push(`c1/a  GET /legal_entity vs bare static     ${(ratios.c1_over_a * 100).toFixed(1)} %`);
  out.push(`c1/b  GET /legal_entity vs bare pg floor   ${(ratios.c1_over_b * 100).toFixed(1)} %`);
  out.push(`c2/a  POST /accounts/auth vs bare static   ${(ratios.c2_over_a * 100).toFixed(1)} %`);
  out.push(`Statehouse RSS: idle ${memory.idleRssMiB ?? 'n/a'} MiB, peak under load ${memory.peakRssDuringLoadMiB ?? 'n/a'} MiB (${memory.rssSamples} samples / 200 ms), VmHWM ${memory.vmHwmMiB ?? 'n/a'} MiB`);
  out.push(`  (for scale, peak RSS of the bare servers, also node + tsx: static ${memory.bareStaticVmHwmMiB ?? 'n/a'} MiB, pg ${memory.barePgVmHwmMiB ?? 'n/a'} MiB)`);
  out.push('');
  out.push(
    `TARGET ${goal.met ? 'MET' : 'NOT MET'}: GET /legal_entity at ${(ratios.c1_over_b * 100).toFixed(1)} % of bare-pg req/s (need ≥ ${GOAL.minRatioToBarePg * 100} %: ${goal.throughputMet ? 'ok' : 'MISSED'}), ` +
      `p99 ${c1.latencyMs.p99.toFixed(2)} ms (need ≤ ${GOAL.maxP99Ms} ms: ${goal.p99Met ? 'ok' : 'MISSED'})`,
  );
  const noisy = results.filter((r) => r.cpuPercent.other > NOISY_OTHER_CPU_PERCENT);
  if (noisy.length > 0) {
    out.push('');
    out.push(
      `NOTE: other work used the CPU during ${noisy.map((r) => `${r.key} (${r.cpuPercent.other.toFixed(0)} %)`).join(', ')}: ` +
        'those figures are disturbed; run again on a quiet machine before drawing conclusions.',
    );
  }
  if (failures.length > 0) {
    out.push('');
    out.push('FAILURES:');
    for (const f of failures) out.push(`  - ${f}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);

  // 7. Stop everything (Statehouse must shut down cleanly), then save.
  say('stopping servers');
  const cleanupProblems = await cleanup();
  failures.push(...cleanupProblems);
  for (const p of cleanupProblems) say(`cleanup: ${p}`);

  const report = {
    date: startedAt.toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model.trim() ?? null, memoryMiB: Math.round(os.totalmem() / 1048576), node: process.version, platform: `${os.platform()}-${os.arch()}` },
    settings: { connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, databasePoolSize: POOL_SIZE, database: DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded' },
    legalEntityResponse: { bytes: entity.body.length, contentType },
    targets: results,
    ratios,
    goal,
    statehouseMemory: memory,
    disturbedRuns: noisy.map((r) => r.key),
    failures,
    ok: failures.length === 0,
  };
  await fs.mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await fs.writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  say(`results written to ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  if (cleanupProblems.length > 0) process.stdout.write(`\nCLEAN-UP PROBLEMS:\n${cleanupProblems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.stdout.write(failures.length === 0 ? '\nbench OK\n' : `\nbench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`);
  return failures.length === 0 ? 0 : 1;
}

process.on('uncaughtException', (error) => {
  say(`uncaught: ${error.stack ?? error.message}`);
  void cleanup().then(() => process.exit(1));
});

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    if (interrupted || error instanceof Interrupted) return; // the signal handler exits
    say(`failed: ${(error as Error).stack ?? String(error)}`);
    const problems = await cleanup();
    for (const p of problems) say(`cleanup: ${p}`);
    process.exit(1);
  },
);
