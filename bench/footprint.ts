/**
 * The footprint targets of `npm run bench`: what an operator pays to run Statehouse.
 *
 *   idle RSS      ≤ 120 MiB  the compiled binary (`statehouse serve --demo`, what `npm start` runs, with its node flags), ready and idle
 *   peak RSS      ≤ 200 MiB  the Statehouse bench child (the same compiled server) while the load targets ran
 *   warm start    ≤ 1.5 s    spawn of the binary on an already initialised data directory → first /readyz 200
 *   stop          ≤ 10 s     SIGTERM → the process has exited, its embedded PostgreSQL stopped
 *
 * The binary is started on a data directory of its own, first thing in the run (before any other server):
 * the first (cold) start initialises it, then three warm starts are timed and their median is judged.
 * With BENCH_DATABASE_URL all use that database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/lib/package-root.js';
import { SERVER_NODE_FLAGS } from './children.js';
import { readMemory, readProcessCpuSeconds } from './proc.js';
import { freePort } from '../src/lib/free-port.js';

export const FOOTPRINT_GOAL = { maxIdleRssMiB: 120, maxPeakRssMiB: 200, maxWarmStartSeconds: 1.5, maxStopSeconds: 10 };

export interface StartupFigures {
  coldStartSeconds: number;
  warmStartSeconds: number;
  /** CPU time (user + system) the warm-started node process had used when /readyz first answered 200: less noisy than the wall clock on a busy machine. */
  warmStartCpuSeconds: number | null;
  /** RSS of the warm-started binary once idle (its demo seeded, a few seconds after ready). */
  idleRssMiB: number | null;
  stopSeconds: number;
}

export interface FootprintVerdict {
  idleRssMiB: number | null;
  peakRssMiB: number | null;
  warmStartSeconds: number;
  stopSeconds: number;
  idleMet: boolean;
  peakMet: boolean;
  warmStartMet: boolean;
  stopMet: boolean;
  met: boolean;
}

const BINARY = path.join(PACKAGE_ROOT, 'bin', 'statehouse.js');
const IDLE_SETTLE_MS = 3000;

/** Warm starts timed in the full bench; the verdict takes their median (one start alone swings with the machine). */
const WARM_STARTS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Starts the compiled binary cold (initialising `dataDir`), then WARM_STARTS times warm, and reports the
 * median warm start (and its CPU time), the idle RSS of the last and the slowest stop.
 */
export async function measureStartup(dataDir: string, databaseUrl: string | null, say: (m: string) => void): Promise<StartupFigures> {
  const { env, port } = await binaryEnvironment(dataDir, databaseUrl);

  const cold = await startBinary(env, port);
  await stopBinary(cold.child);
  say(`footprint: cold start (initialising ${databaseUrl ? 'the database' : dataDir}) took ${cold.seconds.toFixed(2)} s`);

  const seconds: number[] = [];
  const cpu: number[] = [];
  let stopSeconds = 0;
  let memory: ReturnType<typeof readMemory> = null;
  for (let i = 0; i < WARM_STARTS; i += 1) {
    const warm = await startBinary(env, port);
    seconds.push(warm.seconds);
    if (warm.cpuSeconds !== null) cpu.push(warm.cpuSeconds);
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    memory = readMemory(warm.child.pid!);
    stopSeconds = Math.max(stopSeconds, await stopBinary(warm.child));
  }
  say(`footprint: warm starts ${seconds.map((x) => x.toFixed(2)).join(', ')} s`);
  return {
    coldStartSeconds: cold.seconds,
    warmStartSeconds: median(seconds),
    warmStartCpuSeconds: cpu.length ? median(cpu) : null,
    idleRssMiB: memory ? Math.round((memory.rssKiB / 1024) * 10) / 10 : null,
    stopSeconds,
  };
}

/** The environment the binary runs with in the footprint measurements: its own data directory (or the database), a free port, quiet logs. */
export async function binaryEnvironment(dataDir: string, databaseUrl: string | null): Promise<{ env: NodeJS.ProcessEnv; port: number }> {
  if (!existsSync(path.join(PACKAGE_ROOT, 'dist', 'bundle', 'statehouse.js')))
    throw new Error('footprint: dist/ is missing; run `npm run build`');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STATEHOUSE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_BASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return { env, port };
}

export function footprintVerdict(startup: StartupFigures, peakRssMiB: number | null): FootprintVerdict {
  const idleMet = startup.idleRssMiB !== null && startup.idleRssMiB <= FOOTPRINT_GOAL.maxIdleRssMiB;
  const peakMet = peakRssMiB !== null && peakRssMiB <= FOOTPRINT_GOAL.maxPeakRssMiB;
  const warmStartMet = startup.warmStartSeconds <= FOOTPRINT_GOAL.maxWarmStartSeconds;
  const stopMet = startup.stopSeconds <= FOOTPRINT_GOAL.maxStopSeconds;
  return {
    idleRssMiB: startup.idleRssMiB,
    peakRssMiB,
    warmStartSeconds: startup.warmStartSeconds,
    stopSeconds: startup.stopSeconds,
    idleMet,
    peakMet,
    warmStartMet,
    stopMet,
    met: idleMet && peakMet && warmStartMet && stopMet,
  };
}

export function footprintLines(v: FootprintVerdict, coldStartSeconds: number): string[] {
  const ok = (met: boolean) => (met ? 'ok' : 'MISSED');
  return [
    `FOOTPRINT TARGET ${v.met ? 'MET' : 'NOT MET'}: idle RSS ${v.idleRssMiB ?? 'n/a'} MiB (need ≤ ${FOOTPRINT_GOAL.maxIdleRssMiB}: ${ok(v.idleMet)}), ` +
      `peak under load ${v.peakRssMiB ?? 'n/a'} MiB (need ≤ ${FOOTPRINT_GOAL.maxPeakRssMiB}: ${ok(v.peakMet)}), ` +
      `warm start to /readyz ${v.warmStartSeconds.toFixed(2)} s, median of ${WARM_STARTS} (need ≤ ${FOOTPRINT_GOAL.maxWarmStartSeconds}: ${ok(v.warmStartMet)}), ` +
      `SIGTERM to exit ${v.stopSeconds.toFixed(2)} s (need ≤ ${FOOTPRINT_GOAL.maxStopSeconds}: ${ok(v.stopMet)})`,
    `  (the binary \`statehouse serve --demo\`, compiled; cold start with initialisation ${coldStartSeconds.toFixed(2)} s)`,
  ];
}

/** Spawns the binary (`serve --demo`) and waits for its first /readyz 200: the seconds since spawn and the node process's CPU time then. */
export async function startBinary(
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<{ child: ChildProcess; seconds: number; cpuSeconds: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, BINARY, 'serve', '--demo'], {
    cwd: PACKAGE_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`footprint: statehouse serve exited before it was ready:\n${stderr}`);
    if ((await readyStatus(port)) === 200)
      return { child, seconds: (performance.now() - started) / 1000, cpuSeconds: readProcessCpuSeconds(child.pid!) };
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  throw new Error(`footprint: /readyz was not 200 within 120 s:\n${stderr}`);
}

/** SIGTERM, then the seconds until the process has exited (its shutdown stops the embedded PostgreSQL first). */
export async function stopBinary(child: ChildProcess): Promise<number> {
  const started = performance.now();
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
  return (performance.now() - started) / 1000;
}

function readyStatus(port: number): Promise<number | null> {
  return fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    () => null,
  );
}
