/** Linux /proc readers: memory and CPU time of one process, CPU time of the whole machine. */
import { readFileSync } from 'node:fs';

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
  samples = 0;

  constructor(readonly pid: number, readonly intervalMs = 200) {}

  start(): void {
    if (this.timer) return;
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
  }
}
