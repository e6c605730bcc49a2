/** The run's clean-up (children, orphaned embedded PostgreSQL, temp dir), signal handling and checkpoints. */
import type autocannon from 'autocannon';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { stopAllChildren, unexpectedExits } from './children.js';
import type { RssSampler } from './proc.js';
import { say } from './settings.js';

/** What clean-up must stop or remove, set by the steps of the run as they start things. */
export const state = {
  tempDir: null as string | null,
  statehouseDataDir: null as string | null,
  /** The task generation child's data directory (its embedded PostgreSQL is checked at clean-up like Statehouse's). */
  generationDataDir: null as string | null,
  /** The embedded PostgreSQL's postmaster, whose backends' CPU time is reported (null with BENCH_DATABASE_URL). */
  postmasterPid: null as number | null,
  currentLoad: null as autocannon.Instance | null,
  samplerToStop: null as RssSampler | null,
  interrupted: false,
};

let cleaning: Promise<string[]> | null = null;

/** Stops children, any orphaned embedded PostgreSQL, removes the temp dir. Returns problems found. */
export function cleanup(): Promise<string[]> {
  cleaning ??= (async () => {
    const problems: string[] = [];
    state.currentLoad?.stop();
    state.samplerToStop?.stop();
    for (const exit of await stopAllChildren().catch((error: Error) => {
      problems.push(`stopping children failed: ${error.message}`);
      return [];
    })) {
      if (exit.forced) problems.push(`${exit.name} did not shut down on SIGTERM and was killed`);
      else if (exit.code !== 0) problems.push(`${exit.name} shut down with code ${exit.code} (signal ${exit.signal})`);
    }
    for (const dataDir of [state.statehouseDataDir, state.generationDataDir]) {
      if (!dataDir) continue;
      const orphan = await stopOrphanPostgres(path.join(dataDir, 'postgres'));
      if (orphan) problems.push(orphan);
    }
    if (state.tempDir) {
      await fs
        .rm(state.tempDir, { recursive: true, force: true })
        .catch((error: Error) => problems.push(`could not remove ${state.tempDir}: ${error.message}`));
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
    if (state.interrupted) return;
    state.interrupted = true;
    say(`${signal}: stopping the load and the servers`);
    void cleanup().then((problems) => {
      for (const p of problems) say(p);
      process.exit(130);
    });
  });
}

export class Interrupted extends Error {}
export function checkpoint(): void {
  if (state.interrupted) throw new Interrupted('state.interrupted');
  if (unexpectedExits.length > 0) throw new Error(unexpectedExits.join('; '));
}
