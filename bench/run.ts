/**
 * `npm run bench`: how close Statehouse's hottest endpoints come to what this machine can do.
 *
 *   (a)  bare-static  a bare node:http server returning the exact bytes of GET /legal_entity
 *   (b)  bare-pg      a bare node:http server running the same one-row query on a pg.Pool(10)
 *   (c1) Statehouse GET /legal_entity   (bearer token)
 *   (c2) Statehouse POST /accounts/auth (platform API key)
 *   (d0) bare-pg-tasks  a bare node:http server running `select * from tasks where legal_entity_id = $1`
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
 *      BENCH_CPU_PROFILE (unset; e.g. `d1,e`: after the measured run of these targets, one more run of the same
 *      length under the CPU profiler of the server; profiles and a text summary in bench/results/profiles/).
 */
import autocannon from 'autocannon';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { REGION_CODES } from '../src/catalog/regions.js';
import { READY_KEY } from './child-lifecycle.js';
import { REPO_ROOT, startChild, stopAllChildren, unexpectedExits, type Child } from './children.js';
import { readMachineCpu, readMemory, readProcessCpuSeconds, readProcessTreeCpuSeconds, RssSampler, treeCpuDelta } from './proc.js';
import { benchPdf } from './pdf.js';
import { footprintLines, footprintVerdict, measureStartup } from './footprint.js';
import { summarizeCpuProfile } from './profiler.js';
import type { GenerationReport, GenerationRun } from './task-generation.js';

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
const TASKS_PER_ENTITY = Math.round(envNumber('BENCH_TASKS_PER_ENTITY', 300, 1, 5000));
const TASK_ENTITIES = Math.round(envNumber('BENCH_TASK_ENTITIES', 10_000, 0, 1_000_000));
const MAIL_ITEMS = Math.round(envNumber('BENCH_MAIL_ITEMS', 100, 1, 10_000));
const PROFILE_KEYS = ['a', 'b', 'c1', 'c2', 'd0', 'd1', 'd2', 'f0', 'f1', 'g0', 'g1', 'e'] as const;
const CPU_PROFILE = new Set(
  (process.env.BENCH_CPU_PROFILE ?? '').split(',').map((k) => k.trim()).filter(Boolean).flatMap((k) => (k === 'all' ? [...PROFILE_KEYS] : [k])),
);
for (const key of CPU_PROFILE) {
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) throw new Error(`BENCH_CPU_PROFILE: unknown target '${key}' (use ${PROFILE_KEYS.join(', ')} or all)`);
}
const PROFILE_DIR = path.join(REPO_ROOT, 'bench', 'results', 'profiles');

/** The goal: GET /legal_entity at ≥ 75 % of the bare-pg floor's requests/s, with p99 ≤ 25 ms. */
const GOAL = { minRatioToBarePg: 0.75, maxP99Ms: 25 };
/** The tasks goal: GET /tasks (d1) and GET /v2/tasks (d2) of an entity with ~300 tasks at p99 ≤ 30 ms. */
const TASKS_GOAL = { maxP99Ms: 30 };
/** The generation goal: rollForwardAll at ≥ 1 000 entities/s, first run and re-run alike. */
const GENERATION_GOAL = { minEntitiesPerSecond: 1000 };

/** The d targets' requests (the entity comes from the token). */
const TASKS_PATH = '/tasks?status=todo&status=in-progress&tags=payroll-setup&tags=foreign-qualification&tags=sos-report';
const TASKS_V2_PATH = '/v2/tasks?statuses=todo&categories=payroll&categories=registration&page_size=100';
/** The order in which the d entity gets locations (employees and an office in each): big states first, then the rest. */
const TASK_LOCATION_ORDER = [...new Set(['CA', 'NY', 'TX', 'FL', 'IL', 'WA', 'MA', 'NJ', 'PA', 'GA', 'CO', 'VA', 'NC', 'OH', 'MI', 'AZ', ...REGION_CODES])];

/** The f and g targets' mail PDFs: size of each (bytes, about), and the states and senders they come from, in turn. */
const MAIL_PDF_BYTES = 100 * 1024;
const MAIL_SOURCES = [
  { region: 'CA', sender: 'California Secretary of State' },
  { region: 'NY', sender: 'New York Department of Labor' },
  { region: 'DE', sender: 'Delaware Division of Corporations' },
  { region: 'TX', sender: 'Texas Comptroller of Public Accounts' },
  { region: 'WA', sender: 'Washington Employment Security Department' },
] as const;
/** The g1 request (the entity comes from the token): every item, newest first. */
const MAIL_V2_PATH = '/v2/mail';
/**
 * The part of a mail listing made fresh at every request: each item's file_url is signed with an
 * expiry of now + FILE_URL_TTL_SECONDS (whole seconds), so the body changes every second. g1's check
 * compares bodies with it blanked out (the signature stays 43 characters, the expiry 10 digits).
 */
const FILE_URL_SIGNATURE = /expires=\d+&signature=[A-Za-z0-9_-]{43}/g;
const unsigned = (body: string) => body.replace(FILE_URL_SIGNATURE, 'expires=…&signature=…');

/** Above this much CPU (% of one core) busy outside the bench's own processes, a run is flagged as disturbed. */
const NOISY_OTHER_CPU_PERCENT = 30;

const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'latest.json');
const TAG = '[bench]';
const say = (message: string) => process.stderr.write(`${TAG} ${message}\n`);

// ---------------------------------------------------------------- clean-up and signals

let tempDir: string | null = null;
let statehouseDataDir: string | null = null;
/** The task generation child's data directory (its embedded PostgreSQL is checked at clean-up like Statehouse's). */
let generationDataDir: string | null = null;
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
    for (const dataDir of [statehouseDataDir, generationDataDir]) {
      if (!dataDir) continue;
      const orphan = await stopOrphanPostgres(path.join(dataDir, 'postgres'));
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
  say(`embedded PostgreSQL (pid ${pid}, ${pgdata}) is still running after its owner stopped: stopping it`);
  process.kill(pid, 'SIGINT'); // PostgreSQL's "fast" shutdown
  for (let i = 0; i < 150 && isAlive(pid); i++) await sleep(200);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return `embedded PostgreSQL (pid ${pid}, ${pgdata}) outlived its owner and had to be stopped by the bench`;
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

function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
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

/**
 * The d targets' entity: signed up through the API with the demo platform's key (a C corp incorporated
 * in Delaware), then given locations with employees and an office, one PUT /locations/{code} at a
 * time (each regenerates its tasks), until GET /v2/tasks counts at least BENCH_TASKS_PER_ENTITY tasks.
 */
async function createTasksEntity(baseUrl: string, apiKey: string): Promise<{ id: string; token: string; total: number; locations: string[] }> {
  const json = { authorization: apiKey, 'content-type': 'application/json' };
  const signup = await request(`${baseUrl}/accounts/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      user_email: 'owner@bench-tasks.example',
      business_name: 'Bench Tasks Inc',
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_location: 'DE',
      incorporation_date: '2019-04-01',
    }),
  });
  expectStatus(signup, 200, 'POST /accounts/signup');
  const id = (JSON.parse(signup.body.toString('utf8')) as { legal_entity_id?: unknown }).legal_entity_id;
  if (typeof id !== 'string') throw new Error('POST /accounts/signup returned no legal_entity_id');
  const auth = await request(`${baseUrl}/accounts/auth`, { method: 'POST', headers: json, body: JSON.stringify({ legal_entity_id: id }) });
  expectStatus(auth, 200, 'POST /accounts/auth (d entity)');
  const token = (JSON.parse(auth.body.toString('utf8')) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error('POST /accounts/auth returned no access_token');
  const bearer = { authorization: `Bearer ${token}` };

  const count = async () => {
    const reply = await request(`${baseUrl}/v2/tasks?page_size=1`, { headers: bearer });
    expectStatus(reply, 200, 'GET /v2/tasks');
    const total = Number(reply.headers['x-total']);
    if (!Number.isInteger(total)) throw new Error(`GET /v2/tasks sent no X-Total header (got '${reply.headers['x-total']}')`);
    return total;
  };
  const locations: string[] = [];
  let total = await count();
  for (const code of TASK_LOCATION_ORDER) {
    if (total >= TASKS_PER_ENTITY) break;
    checkpoint();
    const put = await request(`${baseUrl}/locations/${code}`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ config: { has_employees: true, has_physical_location: true } }),
    });
    expectStatus(put, 200, `PUT /locations/${code}`);
    locations.push(code);
    total = await count();
  }
  if (total < TASKS_PER_ENTITY) say(`note: with all ${locations.length} locations the d entity has only ${total} tasks (wanted ${TASKS_PER_ENTITY})`);
  return { id, token, total, locations };
}

interface SeededMail {
  id: string;
  region: string;
  type: string;
  received: string;
  bytes: number;
  sha256: string;
}

/**
 * The f and g targets' mail: MAIL_ITEMS PDFs (benchPdf: ~100 KB, each different) uploaded one at a time
 * for the demo legal entity through the operator API, as an operator would: regions and senders in turn
 * (MAIL_SOURCES), every fourth `external-mail`, received on a different day each (1, 8, 15, … days ago).
 * Returns the items and the bytes of the first one (the f targets' file).
 */
async function seedMail(baseUrl: string, operatorKey: string, legalEntityId: string): Promise<{ items: SeededMail[]; first: Buffer; totalBytes: number }> {
  const items: SeededMail[] = [];
  let first: Buffer | null = null;
  let totalBytes = 0;
  const today = Date.now();
  for (let i = 0; i < MAIL_ITEMS; i++) {
    if (i % 10 === 0) checkpoint();
    const pdf = benchPdf(i, MAIL_PDF_BYTES);
    first ??= pdf;
    totalBytes += pdf.length;
    const source = MAIL_SOURCES[i % MAIL_SOURCES.length]!;
    const received = new Date(today - (1 + ((i * 7) % 1095)) * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({
      region: source.region,
      type: i % 4 === 3 ? 'external-mail' : 'registered-agent',
      sender: source.sender,
      received,
      file_name: `bench-mail-${String(i).padStart(4, '0')}.pdf`,
    });
    const reply = await request(`${baseUrl}/operator/v1/legal_entities/${encodeURIComponent(legalEntityId)}/mail?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/pdf' },
      body: pdf,
    });
    expectStatus(reply, 201, `POST /operator/v1/legal_entities/{id}/mail (item ${i})`);
    const item = JSON.parse(reply.body.toString('utf8')) as { id?: unknown; region?: unknown; type?: unknown; received?: unknown; file_size?: unknown; file_sha256?: unknown };
    if (typeof item.id !== 'string' || item.file_size !== pdf.length) throw new Error(`mail upload ${i} answered ${reply.body.toString('utf8').slice(0, 300)}`);
    items.push({ id: item.id, region: String(item.region), type: String(item.type), received: String(item.received), bytes: pdf.length, sha256: String(item.file_sha256) });
  }
  return { items, first: first!, totalBytes };
}

// ---------------------------------------------------------------- load

interface Target {
  key: 'a' | 'b' | 'c1' | 'c2' | 'd0' | 'd1' | 'd2' | 'f0' | 'f1' | 'g0' | 'g1';
  name: string;
  description: string;
  server: Child<Record<string, unknown>>;
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** When set, every response body must equal it (checked by autocannon: "mismatches"). */
  expectBody?: string;
  /** When set, every response body must pass it (autocannon's verifyBody: "mismatches"); for bodies with a part made fresh per request (g1). */
  verifyBody?: (body: string) => boolean;
  /**
   * For binary bodies (f0, f1), which autocannon cannot compare (it decodes each chunk as UTF-8 and joins
   * the strings, so bytes are lost and chunk boundaries matter): their bytes are checked once before the
   * load; during it, every 2xx response must bring at least this many bytes (headers + body) over the
   * socket, else it counts as a mismatch, and the fewest/most bytes of a response are reported.
   */
  minResponseWireBytes?: number;
  /** Size of the response body, from the check request made before the load. */
  responseBytes: number;
  sampleRss: boolean;
}

interface Measurement {
  key: Target['key'];
  name: string;
  description: string;
  method: string;
  url: string;
  durationSeconds: number;
  /** Body bytes of one response (from the check request before the load). */
  responseBytes: number;
  /** Statehouse's peak RSS during this target (warmup and measurement); absent for the bare servers. */
  peakRssMiB?: number;
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
  /** For the binary targets (minResponseWireBytes): fewest and most bytes a response brought over the socket (headers + body). */
  wireBytesPerResponse?: { min: number; max: number; short: number };
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

interface WireBytes {
  min: number;
  max: number;
  /** 2xx responses with fewer bytes than Target.minResponseWireBytes. */
  short: number;
}

function runLoad(
  target: Target,
  seconds: number,
  record: boolean,
): Promise<{ result: autocannon.Result; latencies: number[]; errorMessages: Map<string, number>; wire: WireBytes | null }> {
  const latencies: number[] = [];
  const errorMessages = new Map<string, number>();
  const minWire = target.minResponseWireBytes;
  const wire: WireBytes | null = minWire === undefined ? null : { min: Infinity, max: 0, short: 0 };
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
        ...(target.verifyBody !== undefined && { verifyBody: target.verifyBody }),
      },
      (error, result) => {
        currentLoad = null;
        if (error) reject(error);
        else resolve({ result, latencies, errorMessages, wire });
      },
    );
    currentLoad = instance;
    if (record) instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
    if (wire && minWire !== undefined) {
      instance.on('response', (_client, status: number, bytes: number) => {
        if (status < 200 || status > 299) return;
        if (bytes < wire.min) wire.min = bytes;
        if (bytes > wire.max) wire.max = bytes;
        if (bytes < minWire) wire.short++;
      });
    }
    instance.on('reqError', (error: Error) => errorMessages.set(error.message, (errorMessages.get(error.message) ?? 0) + 1));
  });
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Text summaries of the CPU profiles taken (BENCH_CPU_PROFILE), by target key. */
const profiles: Record<string, { file: string; summary: string[] }> = {};

/** One more run of the target, not measured, under the CPU profiler of its server. */
async function profileTarget(target: Target): Promise<void> {
  await fs.mkdir(PROFILE_DIR, { recursive: true });
  const file = path.join(PROFILE_DIR, `${target.key}.cpuprofile`);
  say(`${target.name}: profiling the server for ${SECONDS} s (not measured)`);
  await target.server.command('cpu-profile-start');
  try {
    await runLoad(target, SECONDS, false);
  } finally {
    await target.server.command('cpu-profile-stop', { file }, 120_000);
  }
  profiles[target.key] = { file: path.relative(REPO_ROOT, file), summary: summarizeCpuProfile(JSON.parse(await fs.readFile(file, 'utf8')), REPO_ROOT) };
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
    const { result, latencies, errorMessages, wire } = await runLoad(target, SECONDS, true);
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
      responseBytes: target.responseBytes,
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
      mismatches: result.mismatches + (wire?.short ?? 0),
      statusCodes,
      errorMessages: Object.fromEntries(errorMessages),
      ...(wire && { wireBytesPerResponse: { min: wire.min === Infinity ? 0 : wire.min, max: wire.max, short: wire.short } }),
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

/** The Statehouse child's process.memoryUsage() in MiB (bench/child-lifecycle.ts `memory`). */
async function memoryUsage(child: Child<Record<string, unknown>>): Promise<Record<string, number> | null> {
  const reply = await child.command('memory').catch(() => null);
  const usage = reply?.usage as Record<string, number> | undefined;
  return usage ? Object.fromEntries(Object.entries(usage).map(([k, bytes]) => [k, mib(bytes / 1024)])) : null;
}

const describeUsage = (usage: Record<string, number> | null) =>
  usage ? `heap ${usage.heapUsed}/${usage.heapTotal} MiB, external ${usage.external} MiB (array buffers ${usage.arrayBuffers} MiB)` : 'n/a';

const mib = (kib: number) => Math.round((kib / 1024) * 10) / 10;
const fixed = (value: number | null, digits: number) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function table(rows: Measurement[]): string {
  const header = ['target', 'body B', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'mismatch', 'srv CPU', 'srv µs/req', 'db CPU', 'db µs/req', 'bench CPU', 'other CPU'];
  const lines = rows.map((r) => [
    `${r.key} ${r.name}`,
    String(r.responseBytes),
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
  return formatTable(header, lines);
}

function formatTable(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

function generationTable(runs: GenerationRun[]): string {
  const header = ['run', 'entities', 'elapsed s', 'entities/s', 'tasks created', 'tasks/s', 'rows updated', 'rows deleted', 'slowest batch ms', 'node CPU', 'node µs/entity', 'db CPU', 'db µs/entity', 'other CPU'];
  const lines = runs.map((r, i) => [
    `e${i + 1} ${r.name}`,
    String(r.entities),
    fixed(r.elapsedSeconds, 2),
    fixed(r.entitiesPerSecond, 0),
    String(r.created),
    fixed(r.tasksPerSecond, 0),
    String(r.rows.updated),
    String(r.rows.deleted),
    fixed(r.slowestBatchMs, 0),
    `${fixed(r.cpuPercent.node, 0)} %`,
    fixed(r.cpuMicrosPerEntity.node, 0),
    `${fixed(r.cpuPercent.database, 0)} %`,
    fixed(r.cpuMicrosPerEntity.database, 0),
    `${fixed(r.cpuPercent.other, 0)} %`,
  ]);
  return formatTable(header, lines);
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  // BENCH_SCENARIO=abuse: only the abuse scenario (bench/abuse.ts).
  if (process.env.BENCH_SCENARIO === 'abuse') return (await import('./abuse.js')).runAbuseScenario();
  // BENCH_SCENARIO=footprint: only the warm starts of the compiled binary, repeated (bench/footprint-starts.ts).
  if (process.env.BENCH_SCENARIO === 'footprint') return (await import('./footprint-starts.js')).runFootprintStarts();
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
    // The f1 link is signed once before the load and must stay valid for the whole run.
    FILE_URL_TTL_SECONDS: '86400',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    // One load generator on one address with one key is a throughput test, not abuse: limits far above any
    // target keep the rate limiter's counting in the measurement without its 429s. BENCH_SCENARIO=abuse
    // (bench/abuse.ts) measures the limits themselves, at their defaults.
    RATE_LIMIT_PER_CREDENTIAL: '10000000',
    RATE_LIMIT_PER_ADDRESS: '10000000',
    RATE_LIMIT_AUTH_OPERATIONS: '10000000',
  };
  delete statehouseEnv.DATABASE_URL;
  delete statehouseEnv.PUBLIC_BASE_URL;
  if (DATABASE_URL) statehouseEnv.DATABASE_URL = DATABASE_URL;
  else statehouseDataDir = statehouseEnv.STATEHOUSE_DATA_DIR!;
  say(`starting Statehouse (${DATABASE_URL ? 'BENCH_DATABASE_URL' : `embedded PostgreSQL in ${statehouseEnv.STATEHOUSE_DATA_DIR}`})`);
  const t0 = Date.now();
  const statehouse = await startChild<{ url: string; apiKey: string; platformId: string; legalEntityId: string; operatorKey: string; connectionString: string }>(
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

  // 3b. An entity with ~300 tasks (d targets): a new legal entity of the demo platform, then locations with
  //     employees and an office (PUT /locations/{code} regenerates its tasks) until GET /v2/tasks counts enough.
  const tasksEntity = await createTasksEntity(sh.url, sh.apiKey);
  const tasksBearer = { authorization: `Bearer ${tasksEntity.token}` };
  const tasksReply = await request(`${sh.url}${TASKS_PATH}`, { headers: tasksBearer });
  expectStatus(tasksReply, 200, `GET ${TASKS_PATH}`);
  const tasksV2Reply = await request(`${sh.url}${TASKS_V2_PATH}`, { headers: tasksBearer });
  expectStatus(tasksV2Reply, 200, `GET ${TASKS_V2_PATH}`);
  for (const reply of [tasksReply, tasksV2Reply]) {
    if (reply.headers['content-encoding']) throw new Error(`a tasks response came back encoded (${reply.headers['content-encoding']}); the bench compares plain bytes`);
  }
  const barePgTasks = await startChild('bare-pg-tasks', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_PG_QUERY: 'tasks',
    BENCH_LEGAL_ENTITY_ID: tasksEntity.id,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const pgTasksCheck = await request(barePgTasks.info.url as string);
  expectStatus(pgTasksCheck, 200, 'bare-pg-tasks');
  const pgTaskRows = JSON.parse(pgTasksCheck.body.toString('utf8')) as unknown[];
  const tasksResponse = {
    entityId: tasksEntity.id,
    locations: tasksEntity.locations,
    /** X-Total of GET /v2/tasks without filters: every task of the entity. */
    tasks: tasksEntity.total,
    /** Rows the bare server's query returns (every task row, applicable or not). */
    rows: pgTaskRows.length,
    d1: { path: TASKS_PATH, bytes: tasksReply.body.length, tasks: (JSON.parse(tasksReply.body.toString('utf8')) as unknown[]).length },
    d2: {
      path: TASKS_V2_PATH,
      bytes: tasksV2Reply.body.length,
      tasks: (JSON.parse(tasksV2Reply.body.toString('utf8')) as unknown[]).length,
      xTotal: Number(tasksV2Reply.headers['x-total']),
    },
    d0: { bytes: pgTasksCheck.body.length },
  };
  if (pgTaskRows.length !== tasksEntity.total) throw new Error(`bare-pg-tasks returned ${pgTaskRows.length} rows, GET /v2/tasks counts ${tasksEntity.total} tasks`);
  say(`d entity ${tasksEntity.id}: ${tasksEntity.total} tasks over ${tasksEntity.locations.length} locations (${tasksEntity.locations.join(' ')}); ` +
    `GET /tasks returns ${tasksResponse.d1.tasks} (${tasksResponse.d1.bytes} B), GET /v2/tasks ${tasksResponse.d2.tasks} of ${tasksResponse.d2.xTotal} (${tasksResponse.d2.bytes} B), ` +
    `bare-pg-tasks ${tasksResponse.rows} rows (${tasksResponse.d0.bytes} B)`);
  checkpoint();

  // 3c. Mail for the f and g targets: MAIL_ITEMS PDFs uploaded (untimed) for the demo entity through the operator API;
  //     its listing (g1) with the demo token, the first PDF through its signed file_url (f1), and two more bare servers.
  const t2 = Date.now();
  const mail = await seedMail(sh.url, sh.operatorKey, sh.legalEntityId);
  const mailSeedSeconds = (Date.now() - t2) / 1000;
  const mailReply = await request(`${sh.url}${MAIL_V2_PATH}`, { headers: bearer });
  expectStatus(mailReply, 200, `GET ${MAIL_V2_PATH}`);
  if (mailReply.headers['content-encoding']) throw new Error(`GET ${MAIL_V2_PATH} came back encoded (${mailReply.headers['content-encoding']}); the bench compares plain bytes`);
  const mailListing = JSON.parse(mailReply.body.toString('utf8')) as { id: string; file_url: string }[];
  const seededIds = new Set(mail.items.map((m) => m.id));
  const listed = mailListing.filter((m) => seededIds.has(m.id)).length;
  if (listed !== mail.items.length) throw new Error(`GET ${MAIL_V2_PATH} lists ${listed} of the ${mail.items.length} items just uploaded`);
  // With BENCH_DATABASE_URL the demo entity keeps the mail of earlier runs (whose files went with their temp dirs).
  if (mailListing.length !== mail.items.length) say(`note: the demo entity has ${mailListing.length} mail items, ${mailListing.length - mail.items.length} of them from earlier runs`);
  const mailCheck = unsigned(mailReply.body.toString('utf8'));
  if (mailCheck === mailReply.body.toString('utf8')) throw new Error(`GET ${MAIL_V2_PATH}: no signed file_url found in the listing`);
  // The file_url's origin is PUBLIC_BASE_URL (unset here, so it names port 0): keep its path and query, use the server's address.
  const fileItem = mailListing.find((m) => m.id === mail.items[0]!.id)!;
  const fileLink = new URL(fileItem.file_url);
  const fileUrl = `${sh.url}${fileLink.pathname}${fileLink.search}`;
  const fileReply = await request(fileUrl);
  expectStatus(fileReply, 200, `GET ${fileLink.pathname}`);
  if (fileReply.headers['content-type'] !== 'application/pdf') throw new Error(`GET ${fileLink.pathname} answered ${fileReply.headers['content-type']}, expected application/pdf`);
  if (!fileReply.body.equals(mail.first)) throw new Error(`GET ${fileLink.pathname} did not return the uploaded bytes (${fileReply.body.length} B, uploaded ${mail.first.length} B)`);
  // f0's body is too large for an environment variable (base64 of ~100 KB > Linux's 128 KiB per variable): a file.
  const pdfFile = path.join(tempDir, 'bench-mail-0000.pdf');
  await fs.writeFile(pdfFile, mail.first);
  const bareStaticPdf = await startChild('bare-static-pdf', 'bench/static-server.ts', {
    ...process.env,
    BENCH_BODY_FILE: pdfFile,
    BENCH_CONTENT_TYPE: 'application/pdf',
  });
  const staticPdfCheck = await request(bareStaticPdf.info.url as string);
  expectStatus(staticPdfCheck, 200, 'bare-static-pdf');
  if (!staticPdfCheck.body.equals(mail.first)) throw new Error('bare-static-pdf does not return the PDF\'s bytes');
  const barePgMail = await startChild('bare-pg-mail', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_PG_QUERY: 'mail',
    BENCH_LEGAL_ENTITY_ID: sh.legalEntityId,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const pgMailCheck = await request(barePgMail.info.url as string);
  expectStatus(pgMailCheck, 200, 'bare-pg-mail');
  const pgMailRows = JSON.parse(pgMailCheck.body.toString('utf8')) as { id: string }[];
  if (pgMailRows.map((r) => r.id).join() !== mailListing.map((m) => m.id).join()) {
    throw new Error(`bare-pg-mail returned ${pgMailRows.length} rows, not the ${mailListing.length} items of GET ${MAIL_V2_PATH} in the same order`);
  }
  const regions = [...new Set(mail.items.map((m) => m.region))];
  const receivedDays = mail.items.map((m) => m.received).sort();
  const mailResponse = {
    entityId: sh.legalEntityId,
    items: mail.items.length,
    listed: mailListing.length,
    seedSeconds: mailSeedSeconds,
    pdfBytes: { min: Math.min(...mail.items.map((m) => m.bytes)), max: Math.max(...mail.items.map((m) => m.bytes)), total: mail.totalBytes },
    regions,
    received: { first: receivedDays[0]!, last: receivedDays[receivedDays.length - 1]! },
    externalMail: mail.items.filter((m) => m.type === 'external-mail').length,
    f0: { bytes: staticPdfCheck.body.length },
    f1: { path: fileLink.pathname, mailId: fileItem.id, bytes: fileReply.body.length, sha256: mail.items[0]!.sha256 },
    g0: { bytes: pgMailCheck.body.length, rows: pgMailRows.length },
    g1: { path: MAIL_V2_PATH, bytes: mailReply.body.length, items: mailListing.length },
  };
  say(`mail: ${mail.items.length} PDFs (${(mail.totalBytes / 1048576).toFixed(1)} MiB) uploaded in ${mailSeedSeconds.toFixed(1)} s for ${sh.legalEntityId}; ` +
    `GET ${MAIL_V2_PATH} ${mailReply.body.length} B, bare-pg-mail ${pgMailRows.length} rows (${pgMailCheck.body.length} B), f1 ${fileLink.pathname} ${fileReply.body.length} B`);
  checkpoint();

  // 4./5. Load, one target after another; Statehouse's RSS is sampled during its runs.
  const idle = readMemory(statehouse.pid);
  const idleUsage = await memoryUsage(statehouse);
  const rss = new RssSampler(statehouse.pid, 200);
  const targets: Target[] = [
    {
      key: 'a', name: 'bare-static', server: bareStatic, url: bareStatic.info.url as string, method: 'GET', expectBody: entity.body.toString('utf8'), sampleRss: false,
      responseBytes: staticCheck.body.length,
      description: 'node:http returning the exact bytes of GET /legal_entity (no framework, no database)',
    },
    {
      key: 'b', name: 'bare-pg', server: barePg, url: barePg.info.url as string, method: 'GET', expectBody: pgCheck.body.toString('utf8'), sampleRss: false,
      responseBytes: pgCheck.body.length,
      description: 'node:http + one pg query (pg.Pool of 10) + JSON.stringify(row): the floor for a database-backed endpoint',
    },
    {
      key: 'c1', name: 'GET /legal_entity', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}/legal_entity`, method: 'GET', headers: bearer,
      expectBody: entity.body.toString('utf8'), sampleRss: true, responseBytes: entity.body.length,
      description: 'Statehouse: bearer token check (HMAC) + one query + response schema',
    },
    {
      key: 'c2', name: 'POST /accounts/auth', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}/accounts/auth`, method: 'POST',
      headers: authHeaders, body: authBody, sampleRss: true, responseBytes: auth.body.length,
      description: 'Statehouse: API key lookup + legal entity lookup + token issue',
    },
    {
      key: 'd0', name: 'bare-pg-tasks', server: barePgTasks, url: barePgTasks.info.url as string, method: 'GET',
      expectBody: pgTasksCheck.body.toString('utf8'), sampleRss: false, responseBytes: pgTasksCheck.body.length,
      description: `node:http + select * from tasks where legal_entity_id = $1 (${tasksResponse.rows} rows, pg.Pool of 10) + JSON.stringify(rows): the floor for GET /tasks`,
    },
    {
      key: 'd1', name: 'GET /tasks', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}${TASKS_PATH}`, method: 'GET', headers: tasksBearer,
      expectBody: tasksReply.body.toString('utf8'), sampleRss: true, responseBytes: tasksReply.body.length,
      description: `Statehouse: ${TASKS_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d1.tasks} returned)`,
    },
    {
      key: 'd2', name: 'GET /v2/tasks', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}${TASKS_V2_PATH}`, method: 'GET', headers: tasksBearer,
      expectBody: tasksV2Reply.body.toString('utf8'), sampleRss: true, responseBytes: tasksV2Reply.body.length,
      description: `Statehouse: ${TASKS_V2_PATH} of an entity with ${tasksEntity.total} tasks (${tasksResponse.d2.tasks} of ${tasksResponse.d2.xTotal} returned)`,
    },
    // f0, f1: binary bodies, so no expectBody (autocannon decodes chunks as UTF-8 strings): the bytes were compared
    // above, and during the load status codes and the bytes of each response (minResponseWireBytes) are checked.
    {
      key: 'f0', name: 'bare-static-pdf', server: bareStaticPdf, url: bareStaticPdf.info.url as string, method: 'GET', sampleRss: false,
      minResponseWireBytes: staticPdfCheck.body.length, responseBytes: staticPdfCheck.body.length,
      description: 'node:http returning the exact bytes of one mail PDF from memory (application/pdf): the floor for a file download',
    },
    {
      key: 'f1', name: 'GET /files/mail/{id}', server: statehouse as Child<Record<string, unknown>>, url: fileUrl, method: 'GET', sampleRss: true,
      minResponseWireBytes: fileReply.body.length, responseBytes: fileReply.body.length,
      description: 'Statehouse: the signed file_url of one mail item (no token): row lookup + HMAC check + the PDF streamed from the file store',
    },
    {
      key: 'g0', name: 'bare-pg-mail', server: barePgMail, url: barePgMail.info.url as string, method: 'GET',
      expectBody: pgMailCheck.body.toString('utf8'), sampleRss: false, responseBytes: pgMailCheck.body.length,
      description: `node:http + select * from mail_items where legal_entity_id = $1 order by received_on desc, id (${pgMailRows.length} rows, pg.Pool of 10) + JSON.stringify(rows): the floor for GET /v2/mail`,
    },
    {
      // Not expectBody: every file_url is signed afresh with the current second's expiry; compared without it.
      key: 'g1', name: 'GET /v2/mail', server: statehouse as Child<Record<string, unknown>>, url: `${sh.url}${MAIL_V2_PATH}`, method: 'GET', headers: bearer,
      verifyBody: (body) => unsigned(body) === mailCheck, sampleRss: true, responseBytes: mailReply.body.length,
      description: `Statehouse: ${MAIL_V2_PATH} of the demo entity with ${mailListing.length} mail items (each with a freshly signed file_url)`,
    },
  ];
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

  // 5b. Task generation (e), in its own child with its own embedded PostgreSQL, once the load is over.
  //     The other servers stay up but idle.
  let generation: (GenerationReport & { pid: number }) | null = null;
  if (TASK_ENTITIES > 0) {
    generationDataDir = path.join(tempDir, 'generation');
    const generationEnv: NodeJS.ProcessEnv = { ...process.env, STATEHOUSE_DATA_DIR: generationDataDir, BENCH_TASK_ENTITIES: String(TASK_ENTITIES), LOG_LEVEL: 'warn' };
    delete generationEnv.DATABASE_URL;
    delete generationEnv.BENCH_CPU_PROFILE_DIR;
    if (CPU_PROFILE.has('e')) {
      await fs.mkdir(PROFILE_DIR, { recursive: true });
      generationEnv.BENCH_CPU_PROFILE_DIR = PROFILE_DIR;
    }
    say(`task generation: ${TASK_ENTITIES} entities × 3 locations, embedded PostgreSQL in ${generationDataDir}`);
    const t1 = Date.now();
    // It reports when both runs are done (and their profiled repeats): allow for a slow machine (~50 ms per entity and pass).
    const timeoutMs = 300_000 + TASK_ENTITIES * 50 * (CPU_PROFILE.has('e') ? 2 : 1);
    const child = await startChild<GenerationReport & Record<string, unknown>>('task-generation', 'bench/task-generation.ts', generationEnv, timeoutMs);
    const { [READY_KEY]: _ready, ...report } = child.info;
    generation = report as GenerationReport & { pid: number };
    for (const [key, file] of Object.entries(generation.profiles ?? {})) {
      profiles[key] = { file: path.relative(REPO_ROOT, file), summary: summarizeCpuProfile(JSON.parse(await fs.readFile(file, 'utf8')), REPO_ROOT) };
    }
    say(`task generation done in ${((Date.now() - t1) / 1000).toFixed(1)} s; stopping its PostgreSQL`);
    const exit = await child.stop();
    if (exit.forced || exit.code !== 0) throw new Error(`task-generation did not shut down cleanly (code ${exit.code}, signal ${exit.signal}${exit.forced ? ', killed' : ''})`);
    await fs.rm(generationDataDir, { recursive: true, force: true });
    checkpoint();
  }

  // 6. Report.
  const by = (key: Target['key']) => results.find((r) => r.key === key)!;
  const [a, b, c1, c2, d0, d1, d2] = [by('a'), by('b'), by('c1'), by('c2'), by('d0'), by('d1'), by('d2')];
  const [f0, f1, g0, g1] = [by('f0'), by('f1'), by('g0'), by('g1')];
  const ratios = {
    c1_over_a: c1.requestsPerSecond / a.requestsPerSecond,
    c1_over_b: c1.requestsPerSecond / b.requestsPerSecond,
    c2_over_a: c2.requestsPerSecond / a.requestsPerSecond,
    d1_over_d0: d1.requestsPerSecond / d0.requestsPerSecond,
    d2_over_d0: d2.requestsPerSecond / d0.requestsPerSecond,
    f1_over_f0: f1.requestsPerSecond / f0.requestsPerSecond,
    g1_over_g0: g1.requestsPerSecond / g0.requestsPerSecond,
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
  const tasksGoal = {
    ...TASKS_GOAL,
    tasks: tasksResponse.tasks,
    d1P99Ms: d1.latencyMs.p99,
    d2P99Ms: d2.latencyMs.p99,
    d1Met: d1.latencyMs.p99 <= TASKS_GOAL.maxP99Ms,
    d2Met: d2.latencyMs.p99 <= TASKS_GOAL.maxP99Ms,
    met: false,
  };
  tasksGoal.met = tasksGoal.d1Met && tasksGoal.d2Met;
  const generationGoal = generation && {
    ...GENERATION_GOAL,
    firstRunEntitiesPerSecond: generation.runs[0]?.entitiesPerSecond ?? NaN,
    reRunEntitiesPerSecond: generation.runs[1]?.entitiesPerSecond ?? NaN,
    firstRunMet: (generation.runs[0]?.entitiesPerSecond ?? 0) >= GENERATION_GOAL.minEntitiesPerSecond,
    reRunMet: (generation.runs[1]?.entitiesPerSecond ?? 0) >= GENERATION_GOAL.minEntitiesPerSecond,
    met: false,
  };
  if (generationGoal) generationGoal.met = generationGoal.firstRunMet && generationGoal.reRunMet;
  const memory = {
    idleRssMiB: idle ? mib(idle.rssKiB) : null,
    peakRssDuringLoadMiB: rss.samples > 0 ? mib(rss.peakKiB) : null,
    idleUsage,
    endUsage,
    rssSamples: rss.samples,
    vmHwmMiB: end ? mib(end.hwmKiB) : null,
    endRssMiB: end ? mib(end.rssKiB) : null,
    // For scale: the bare servers run the same way (compiled, or node + tsx in development).
    bareStaticVmHwmMiB: staticEnd ? mib(staticEnd.hwmKiB) : null,
    barePgVmHwmMiB: pgEnd ? mib(pgEnd.hwmKiB) : null,
  };
  // The footprint targets (bench/footprint.ts): the compiled binary's warm start, idle RSS and stop; the peak from above.
  const startup = await measureStartup(path.join(tempDir!, 'footprint'), DATABASE_URL, say);
  const footprint = footprintVerdict(startup, memory.peakRssDuringLoadMiB);
  const failures: string[] = [];
  for (const r of results) {
    if (r.requests === 0) failures.push(`${r.key} ${r.name}: no request completed`);
    if (r.non2xx > 0) failures.push(`${r.key} ${r.name}: ${r.non2xx} non-2xx responses (${JSON.stringify(r.statusCodes)})`);
    if (r.errors > 0) failures.push(`${r.key} ${r.name}: ${r.errors} errors (${r.timeouts} timeouts) ${JSON.stringify(r.errorMessages)}`);
    if (r.mismatches > 0) failures.push(`${r.key} ${r.name}: ${r.mismatches} responses with a different body`);
  }
  for (const run of generation?.runs ?? []) {
    if (run.entities !== generation!.entities) failures.push(`e ${run.name}: rollForwardAll regenerated ${run.entities} entities of ${generation!.entities}`);
  }
  if (generation && generation.runs[0] && generation.runs[0].created === 0) failures.push('e first run: rollForwardAll created no task');

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
  out.push(`d1/d0 GET /tasks vs bare pg tasks floor    ${(ratios.d1_over_d0 * 100).toFixed(1)} %`);
  out.push(`d2/d0 GET /v2/tasks vs bare pg tasks floor ${(ratios.d2_over_d0 * 100).toFixed(1)} %`);
  out.push(`f1/f0 GET /files/mail/{id} vs static PDF   ${(ratios.f1_over_f0 * 100).toFixed(1)} %`);
  out.push(`g1/g0 GET /v2/mail vs bare pg mail floor   ${(ratios.g1_over_g0 * 100).toFixed(1)} %`);
  out.push(`d entity: ${tasksResponse.tasks} tasks (${tasksResponse.locations.length} locations with employees and an office: ${tasksResponse.locations.join(' ')});`);
  out.push(`  d0 returns all ${tasksResponse.rows} rows, d1 ${tasksResponse.d1.tasks} tasks, d2 ${tasksResponse.d2.tasks} of X-Total ${tasksResponse.d2.xTotal}`);
  out.push(`mail (f, g): ${mailResponse.items} PDFs of ${mailResponse.pdfBytes.min}–${mailResponse.pdfBytes.max} B uploaded (untimed, ${mailResponse.seedSeconds.toFixed(1)} s) for the demo entity, ` +
    `regions ${mailResponse.regions.join(' ')}, received ${mailResponse.received.first} … ${mailResponse.received.last};`);
  out.push(`  f0/f1 send one ${mailResponse.f1.bytes} B PDF (${f1.wireBytesPerResponse ? `${f1.wireBytesPerResponse.min}–${f1.wireBytesPerResponse.max}` : 'n/a'} B per f1 response on the wire), ` +
    `g0 returns ${mailResponse.g0.rows} rows, g1 ${mailResponse.g1.items} items`);
  out.push(`Statehouse RSS: idle ${memory.idleRssMiB ?? 'n/a'} MiB, peak under load ${memory.peakRssDuringLoadMiB ?? 'n/a'} MiB (${memory.rssSamples} samples / 200 ms), VmHWM ${memory.vmHwmMiB ?? 'n/a'} MiB`);
  out.push(`  V8 and buffers (process.memoryUsage): idle ${describeUsage(memory.idleUsage)}; after the load ${describeUsage(memory.endUsage)}`);
  out.push(`  peak RSS per target: ${results.filter((r) => r.peakRssMiB !== undefined).map((r) => `${r.key} ${r.peakRssMiB} MiB`).join(', ')}`);
  out.push(`  (for scale, peak RSS of the bare servers, run the same way: static ${memory.bareStaticVmHwmMiB ?? 'n/a'} MiB, pg ${memory.barePgVmHwmMiB ?? 'n/a'} MiB)`);
  out.push('');
  out.push(
    `TARGET ${goal.met ? 'MET' : 'NOT MET'}: GET /legal_entity at ${(ratios.c1_over_b * 100).toFixed(1)} % of bare-pg req/s (need ≥ ${GOAL.minRatioToBarePg * 100} %: ${goal.throughputMet ? 'ok' : 'MISSED'}), ` +
      `p99 ${c1.latencyMs.p99.toFixed(2)} ms (need ≤ ${GOAL.maxP99Ms} ms: ${goal.p99Met ? 'ok' : 'MISSED'})`,
  );
  out.push(
    `TASKS TARGET ${tasksGoal.met ? 'MET' : 'NOT MET'} (${tasksResponse.tasks} tasks, ${CONNECTIONS} connections): ` +
      `GET /tasks p99 ${d1.latencyMs.p99.toFixed(2)} ms (need ≤ ${TASKS_GOAL.maxP99Ms} ms: ${tasksGoal.d1Met ? 'ok' : 'MISSED'}), ` +
      `GET /v2/tasks p99 ${d2.latencyMs.p99.toFixed(2)} ms (need ≤ ${TASKS_GOAL.maxP99Ms} ms: ${tasksGoal.d2Met ? 'ok' : 'MISSED'}); ` +
      `for scale, the bare floor d0: p99 ${d0.latencyMs.p99.toFixed(2)} ms`,
  );
  out.push(...footprintLines(footprint, startup.coldStartSeconds));
  if (generation && generationGoal) {
    out.push('');
    out.push(
      `Task generation: rollForwardAll over ${generation.entities} entities (${generation.locations} locations; ${Object.entries(generation.entityTypes).map(([k, v]) => `${v} ${k}`).join(', ')}), ` +
        `batches of ${generation.batchSize}, own embedded PostgreSQL; seeded (untimed) in ${generation.seedSeconds.toFixed(1)} s`,
    );
    out.push('CPU columns: % of one core: the generating node process, its PostgreSQL, and the rest of the machine. rows updated/deleted: task rows the run rewrote/removed.');
    out.push('');
    out.push(generationTable(generation.runs));
    out.push('');
    const t = generation.tasksPerEntity;
    out.push(`tasks per entity: min ${t.min}, median ${t.p50}, p90 ${t.p90}, max ${t.max}, mean ${t.avg.toFixed(1)}; tasks table ${generation.tasksTableMiB.toFixed(0)} MiB`);
    out.push('');
    out.push(
      `GENERATION TARGET ${generationGoal.met ? 'MET' : 'NOT MET'}: first run ${generationGoal.firstRunEntitiesPerSecond.toFixed(0)} entities/s ` +
        `(need ≥ ${GENERATION_GOAL.minEntitiesPerSecond}: ${generationGoal.firstRunMet ? 'ok' : 'MISSED'}), re-run ${generationGoal.reRunEntitiesPerSecond.toFixed(0)} entities/s ` +
        `(need ≥ ${GENERATION_GOAL.minEntitiesPerSecond}: ${generationGoal.reRunMet ? 'ok' : 'MISSED'})`,
    );
  } else {
    out.push('Task generation: skipped (BENCH_TASK_ENTITIES=0)');
  }
  const noisy = [
    ...results.filter((r) => r.cpuPercent.other > NOISY_OTHER_CPU_PERCENT).map((r) => ({ key: r.key, other: r.cpuPercent.other })),
    ...(generation?.runs ?? []).map((r, i) => ({ key: `e${i + 1}`, other: r.cpuPercent.other })).filter((r) => r.other > NOISY_OTHER_CPU_PERCENT),
  ];
  if (noisy.length > 0) {
    out.push('');
    out.push(
      `NOTE: other work used the CPU during ${noisy.map((r) => `${r.key} (${r.other.toFixed(0)} %)`).join(', ')}: ` +
        'those figures are disturbed; run again on a quiet machine before drawing conclusions.',
    );
  }
  for (const [key, profile] of Object.entries(profiles)) {
    out.push('');
    out.push(`CPU PROFILE ${key} (${key.startsWith('e') ? 'the generating process, during a repeat of the run' : 'the server, during one more run after the measured one'}): ${profile.file}`);
    for (const line of profile.summary) out.push(`  ${line}`);
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
    settings: {
      connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, databasePoolSize: POOL_SIZE, database: DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded',
      tasksPerEntity: TASKS_PER_ENTITY, taskEntities: TASK_ENTITIES, mailItems: MAIL_ITEMS, cpuProfile: [...CPU_PROFILE],
    },
    legalEntityResponse: { bytes: entity.body.length, contentType },
    tasksEntity: tasksResponse,
    mail: mailResponse,
    targets: results,
    ratios,
    goal,
    tasksGoal,
    generation: generation && { ...generation, goal: generationGoal },
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
