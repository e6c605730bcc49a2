/** Linux /proc readers: memory and CPU time of one process, CPU time of the whole machine. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat and /proc/stat (USER_HZ, 100 on every Linux build we run on). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface MemoryStatus {
  /** Resident set size now, KiB. */
  rssKiB: number;
  /** Peak resident set size over the process's life ("high water mark"), KiB. */
  hwmKiB: number;
}

export function readMemory(pid: number): MemoryStatus | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return match ? Number(match[1]) : NaN;
  };
  return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
}

/** User + system CPU seconds the process has used so far. */
export function readProcessCpuSeconds(pid: number): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU seconds of a process and its direct children, by pid: for the embedded PostgreSQL,
 * the postmaster and its backends. A process that exits between two readings is lost.
 */
export function readProcessTreeCpuSeconds(rootPid: number): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone
    }
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    if (pid !== rootPid && Number(fields[1]) !== rootPid) continue;
    out.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND);
  }
  return out;
}

/** CPU seconds used between two readings of readProcessTreeCpuSeconds (processes new at the second count whole). */
export function treeCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += Math.max(0, seconds - (before.get(pid) ?? 0));
  return sum;
}

export interface MachineCpu {
  /** Seconds of CPU time spent busy, summed over all cores. */
  busySeconds: number;
  totalSeconds: number;
}

export function readMachineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  return { busySeconds: (total - idle) / CLOCK_TICKS_PER_SECOND, totalSeconds: total / CLOCK_TICKS_PER_SECOND };
}

/** Samples a process's RSS at a fixed interval and keeps the peak. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  peakKiB = 0;
  /** The peak since the last start(): one load target's. */
  windowPeakKiB = 0;
  samples = 0;

  constructor(
    readonly pid: number,
    readonly intervalMs = 200,
  ) {}

  start(): void {
    if (this.timer) return;
    this.windowPeakKiB = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.sample();
  }

  private sample(): void {
    const memory = readMemory(this.pid);
    if (!memory || Number.isNaN(memory.rssKiB)) return;
    this.samples += 1;
    if (memory.rssKiB > this.peakKiB) this.peakKiB = memory.rssKiB;
    if (memory.rssKiB > this.windowPeakKiB) this.windowPeakKiB = memory.rssKiB;
  }
}
