/**
 * CPU profiles for the benchmark (BENCH_CPU_PROFILE): V8's sampling profiler through the inspector
 * of the process itself, started and stopped around one measured run, written as a .cpuprofile
 * (open it in Chrome DevTools or speedscope), and summarised as text: where the time goes, by
 * function (self time) and by source file.
 *
 * Compiled code (tsc, or tsx in development) has other positions than the TypeScript; they are mapped back to
 * the TypeScript lines with the source maps node loaded (in the profiled process, on stop).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import path from 'node:path';

export interface CpuProfiler {
  stop(file: string): Promise<void>;
}

/** Starts sampling this process (every 200 µs); `stop` writes the profile. */
export async function startCpuProfile(): Promise<CpuProfiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      writeFileSync(file, JSON.stringify(toSourcePositions(profile as unknown as Profile)));
    },
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number; scriptId: string };
  hitCount?: number;
  children?: number[];
  positionTicks?: unknown[];
}

/** Rewrites the positions of compiled (tsx) frames to their TypeScript source lines. */
function toSourcePositions(profile: Profile): Profile {
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    if (!frame.url.startsWith('file://') || frame.url.includes('/node_modules/') || frame.lineNumber < 0) continue;
    let entry: { originalLine?: number; originalColumn?: number } | undefined;
    try {
      entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as typeof entry;
    } catch {
      entry = undefined;
    }
    if (entry?.originalLine === undefined) continue;
    frame.lineNumber = entry.originalLine;
    frame.columnNumber = entry.originalColumn ?? 0;
    delete node.positionTicks; // lines of the compiled file: meaningless now
  }
  return profile;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a function comes from, short: `src/…`, `bench/…`, `<package>`, `node:…` or `(native/eval)`. */
function origin(url: string, root: string): string {
  // No URL: V8 built-ins, native bindings, and code compiled at run time (new Function: fast-json-stringify's serialisers).
  if (!url) return '(native/eval)';
  let file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (file.startsWith(root)) file = path.relative(root, file);
  return file;
}

const isIdle = (name: string) => name === '(idle)' || name === '(program)' || name === '(garbage collector)';

/**
 * A text summary of a .cpuprofile: busy time, then the top functions by self time and the top
 * source files / packages by self time (each with its share of the busy time).
 */
export function summarizeCpuProfile(profile: Profile, root: string, top = 15): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Self time per node from samples and time deltas (more exact than hitCount × interval).
  const selfMicros = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const dt = deltas[i + 1] ?? 0;
    selfMicros.set(samples[i]!, (selfMicros.get(samples[i]!) ?? 0) + Math.max(0, dt));
  }
  const total = profile.endTime - profile.startTime || 1;
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(garbage collector)') gc += micros;
    if (functionName === '(idle)') idle += micros;
    if (isIdle(functionName) && functionName !== '(garbage collector)') continue;
    const where = origin(url, root);
    const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + micros);
    file.set(where, (file.get(where) ?? 0) + micros);
  }
  // Inclusive time of the application's own functions (src/): every sample counts once for each
  // distinct function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    const dt = Math.max(0, deltas[i + 1] ?? 0);
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (!node) break;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = origin(url, root);
      if (!where.startsWith('src/')) continue;
      const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  }
  const busy = Math.max(1, total - idle);
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
  const ms = (micros: number) => `${(micros / 1000).toFixed(0).padStart(6)} ms`;
  const lines = [
    `profile: ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)} %), garbage collection ${pct(gc).trim()} of busy`,
    `top functions by self time (% of busy time):`,
    ...[...fn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)} ${ms(v)}  ${k}`),
    `by file / package (self time):`,
    ...[...file]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)} ${ms(v)}  ${k}`),
    `application functions (src/) by total time, callees included:`,
    ...[...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `  ${pct(v)} ${ms(v)}  ${k}`),
  ];
  return lines;
}
