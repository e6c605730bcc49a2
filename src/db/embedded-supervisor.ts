import { readFileSync } from 'node:fs';

/**
 * Watches the embedded PostgreSQL that this process started and starts it again (same data
 * directory, same port) when it dies: killed, crashed, or stopped by someone else. Restarts are
 * limited: after `maxRestarts` within `windowMs` something is wrong beyond a restart's reach, so
 * it gives up and says so; the service keeps answering 503 (and /readyz 503) until an operator acts.
 */
export interface SupervisorOptions {
  /** PostgreSQL's postmaster.pid in the data directory (its first line is the server's pid). */
  pidFile: string;
  /** Starts the server and resolves once it accepts connections. */
  start: () => Promise<void>;
  /** Where the server listens, for the log lines. */
  address: string;
  log: (message: string) => void;
  checkEveryMs?: number;
  maxRestarts?: number;
  windowMs?: number;
}

export interface Supervisor {
  /** Stops watching (before a deliberate shutdown); waits for a restart in progress. */
  stop(): Promise<void>;
}

/** Attempts per restart: a killed server's connections may hold its shared memory for a moment. */
const ATTEMPTS_PER_RESTART = 15;

export function superviseEmbeddedPostgres(options: SupervisorOptions): Supervisor {
  const { checkEveryMs = 1_000, maxRestarts = 5, windowMs = 10 * 60_000, log } = options;
  let pid = readPid(options.pidFile);
  let stopped = false;
  let restarting: Promise<void> | null = null;
  const restarts: number[] = [];

  const restart = async (deadPid: number | null) => {
    const now = Date.now();
    while (restarts.length > 0 && restarts[0]! <= now - windowMs) restarts.shift();
    if (restarts.length >= maxRestarts) {
      log(
        `embedded PostgreSQL (pid ${deadPid ?? '?'}) is gone again after ${restarts.length} restarts within ${Math.round(windowMs / 60_000)} minutes: ` +
          'giving up; requests that need the database get 503 until Statehouse is restarted',
      );
      clearInterval(timer);
      return;
    }
    restarts.push(now);
    log(
      `embedded PostgreSQL (pid ${deadPid ?? '?'}) exited unexpectedly; restarting it (restart ${restarts.length} of at most ${maxRestarts} within ${Math.round(windowMs / 60_000)} minutes)`,
    );
    let lastError: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS_PER_RESTART && !stopped; attempt++) {
      try {
        await options.start();
        pid = readPid(options.pidFile);
        log(`embedded PostgreSQL restarted on ${options.address} (pid ${pid ?? '?'})`);
        return;
      } catch (error) {
        lastError = error;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    if (!stopped)
      log(`embedded PostgreSQL could not be restarted: ${(lastError as Error | undefined)?.message ?? 'unknown error'}; trying again`);
  };

  const timer = setInterval(() => {
    if (stopped || restarting) return;
    if (pid !== null && isAlive(pid)) return;
    const deadPid = pid;
    restarting = restart(deadPid).finally(() => {
      restarting = null;
    });
  }, checkEveryMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await restarting;
    },
  };
}

function readPid(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Signal 0 asks the kernel whether the process exists; a zombie (dead, not yet reaped) does not count. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || process.platform !== 'linux';
  }
}
