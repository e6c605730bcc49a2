/** The load: the targets' shape, autocannon runs (warmup, measured, profiled) and what is measured. */
import autocannon from 'autocannon';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Child } from './children.js';
import { REPO_ROOT } from './children.js';
import { readMachineCpu, readProcessCpuSeconds, readProcessTreeCpuSeconds, treeCpuDelta, type RssSampler } from './proc.js';
import { summarizeCpuProfile } from './profiler.js';
import { checkpoint, state } from './run-state.js';
import { CONNECTIONS, PROFILE_DIR, say, SECONDS, WARMUP_SECONDS } from './settings.js';

export interface Target {
  key:
    'a' | 'b' | 'c1' | 'c2' | 'd0' | 'd1' | 'd2' | 'f0' | 'f1' | 'g0' | 'g1' | 'i0' | 'i1' | 'r0' | 'r1' | 's1' | 's2' | `scale:${string}`;
  name: string;
  description: string;
  server: Child<Record<string, unknown>>;
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** Gives each connection its own requests (the webhooks step's writes: one entity per connection). */
  setupClient?: (client: autocannon.Client) => void;
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
  /** Load connections, when not BENCH_CONNECTIONS (the scale and tasks scenarios measure at 10 and at 50). */
  connections?: number;
}

export interface Measurement {
  key: Target['key'];
  name: string;
  description: string;
  /** Connections autocannon held open. */
  connections: number;
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

export interface WireBytes {
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
        connections: target.connections ?? CONNECTIONS,
        duration: seconds,
        timeout: 10,
        ...(target.headers && { headers: target.headers }),
        ...(target.body !== undefined && { body: target.body }),
        ...(target.setupClient && { setupClient: target.setupClient }),
        ...(target.expectBody !== undefined && { expectBody: target.expectBody }),
        ...(target.verifyBody !== undefined && { verifyBody: target.verifyBody }),
      },
      (error, result) => {
        state.currentLoad = null;
        if (error) reject(error);
        else resolve({ result, latencies, errorMessages, wire });
      },
    );
    state.currentLoad = instance;
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
export const profiles: Record<string, { file: string; summary: string[] }> = {};

/** One more run of the target, not measured, under the CPU profiler of its server. */
export async function profileTarget(target: Target): Promise<void> {
  await fs.mkdir(PROFILE_DIR, { recursive: true });
  const file = path.join(PROFILE_DIR, `${target.key}${target.connections ? `-${target.connections}c` : ''}.cpuprofile`);
  say(`${target.name}: profiling the server for ${SECONDS} s (not measured)`);
  await target.server.command('cpu-profile-start');
  try {
    await runLoad(target, SECONDS, false);
  } finally {
    await target.server.command('cpu-profile-stop', { file }, 120_000);
  }
  profiles[target.connections ? `${target.key}-${target.connections}c` : target.key] = {
    file: path.relative(REPO_ROOT, file),
    summary: summarizeCpuProfile(JSON.parse(await fs.readFile(file, 'utf8')), REPO_ROOT),
  };
}

export async function measure(target: Target, rss: RssSampler | null): Promise<Measurement> {
  checkpoint();
  if (rss) {
    state.samplerToStop = rss;
    rss.start();
  }
  try {
    if (WARMUP_SECONDS > 0) {
      say(`${target.name}: warmup ${WARMUP_SECONDS} s`);
      await runLoad(target, WARMUP_SECONDS, false);
      checkpoint();
    }
    say(`${target.name}: measuring ${SECONDS} s with ${target.connections ?? CONNECTIONS} connections`);
    const serverCpu0 = readProcessCpuSeconds(target.server.pid);
    const dbCpu0 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
    const clientCpu0 = process.cpuUsage();
    const machine0 = readMachineCpu();
    const { result, latencies, errorMessages, wire } = await runLoad(target, SECONDS, true);
    const serverCpu1 = readProcessCpuSeconds(target.server.pid);
    const dbCpu1 = state.postmasterPid ? readProcessTreeCpuSeconds(state.postmasterPid) : null;
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
      connections: target.connections ?? CONNECTIONS,
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
      cpuPercent: {
        server,
        database,
        loadGenerator,
        other: Math.max(0, machine - (server ?? 0) - (database ?? 0) - loadGenerator),
        machine,
      },
      cpuMicrosPerRequest: {
        server: server !== null && result.requests.total > 0 ? (server * wall * 1e4) / result.requests.total : null,
        database: database !== null && result.requests.total > 0 ? (database * wall * 1e4) / result.requests.total : null,
      },
    };
  } finally {
    if (rss) {
      rss.stop();
      state.samplerToStop = null;
    }
  }
}
