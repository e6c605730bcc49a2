/**
 * `BENCH_SCENARIO=footprint npm run bench`: only the start-up figures of bench/footprint.ts, repeated.
 * One cold start initialises a data directory; then BENCH_FOOTPRINT_RUNS (default 5) warm starts of
 * the compiled binary are timed (spawn → first /readyz 200), each with the CPU time (user + system)
 * the node process had used by then, its idle RSS and its SIGTERM → exit time. On a machine busy with
 * other work the wall clock varies a lot; the best run, the median and the CPU time are what to compare.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { binaryEnvironment, FOOTPRINT_GOAL, startBinary, stopBinary } from './footprint.js';
import { readMemory } from './proc.js';

const IDLE_SETTLE_MS = 3000;

interface WarmStart {
  seconds: number;
  cpuSeconds: number | null;
  idleRssMiB: number | null;
  stopSeconds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export async function runFootprintStarts(): Promise<number> {
  const say = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const runs = Math.max(1, Math.round(Number(process.env.BENCH_FOOTPRINT_RUNS ?? 5)));
  const databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'statehouse-footprint-'));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as `postgres`, which must traverse it.
  await fs.chmod(dir, 0o755);
  try {
    const { env, port } = await binaryEnvironment(path.join(dir, 'data'), databaseUrl);
    const cold = await startBinary(env, port);
    await stopBinary(cold.child);
    say(`cold start (initialising) ${cold.seconds.toFixed(2)} s`);
    const starts: WarmStart[] = [];
    for (let i = 0; i < runs; i += 1) {
      const warm = await startBinary(env, port);
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
      const memory = readMemory(warm.child.pid!);
      const stopSeconds = await stopBinary(warm.child);
      const start = {
        seconds: warm.seconds,
        cpuSeconds: warm.cpuSeconds,
        idleRssMiB: memory ? Math.round(memory.rssKiB / 102.4) / 10 : null,
        stopSeconds,
      };
      starts.push(start);
      say(
        `warm start ${i + 1}/${runs}: ${start.seconds.toFixed(2)} s (CPU ${start.cpuSeconds?.toFixed(2) ?? 'n/a'} s), idle RSS ${start.idleRssMiB ?? 'n/a'} MiB, stop ${start.stopSeconds.toFixed(2)} s`,
      );
    }
    const seconds = starts.map((s) => s.seconds);
    const cpu = starts.flatMap((s) => (s.cpuSeconds === null ? [] : [s.cpuSeconds]));
    const rss = starts.flatMap((s) => (s.idleRssMiB === null ? [] : [s.idleRssMiB]));
    const line =
      `FOOTPRINT STARTS (${runs} warm): wall median ${median(seconds).toFixed(2)} s, best ${Math.min(...seconds).toFixed(2)} s (need ≤ ${FOOTPRINT_GOAL.maxWarmStartSeconds}); ` +
      `CPU median ${cpu.length ? median(cpu).toFixed(2) : 'n/a'} s, best ${cpu.length ? Math.min(...cpu).toFixed(2) : 'n/a'} s; ` +
      `idle RSS median ${rss.length ? median(rss).toFixed(1) : 'n/a'} MiB (need ≤ ${FOOTPRINT_GOAL.maxIdleRssMiB}); load average ${os.loadavg()[0]!.toFixed(1)}`;
    process.stdout.write(`${line}\n`);
    return median(seconds) <= FOOTPRINT_GOAL.maxWarmStartSeconds ? 0 : 1;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
