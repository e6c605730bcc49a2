/**
 * The parent side of the benchmark's child processes (see child-lifecycle.ts for the protocol).
 *
 * Children run as `node <script>` directly (no `npx`, no wrapper), so the process we spawn is the
 * one serving HTTP: the compiled script from dist/bench/ when the bench runs compiled (`npm run bench`),
 * or the TypeScript source through `--import tsx` when it runs as `tsx bench/run.ts`; each also reports its own pid, which is what gets
 * measured. They are detached into their own process group so that a Ctrl-C in the terminal
 * reaches only this process, which then stops them in order (a second signal would make
 * Statehouse skip its orderly shutdown).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../src/lib/package-root.js';
import { COMMAND_KEY, READY_KEY, REPLY_KEY } from './child-lifecycle.js';

export const REPO_ROOT = PACKAGE_ROOT;

/** The node flags `npm start` and bin/statehouse.js run Statehouse with (a smaller young generation, a heap limit); every child gets them. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=256'];

/** Children built into the binary's bundle (scripts/bundle.mjs), so that the bench measures the code `npm start` runs. */
const BUNDLED_CHILDREN = new Set(['statehouse-server.ts']);

/** The child script `bench/x.ts` beside this module: itself under tsx, its compiled `.js` (or bundle) under plain node. */
function childCommand(script: string): string[] {
  const compiled = import.meta.url.endsWith('.js');
  const name = path.basename(script);
  const file =
    compiled && BUNDLED_CHILDREN.has(name)
      ? path.join(PACKAGE_ROOT, 'dist', 'bundle', name.replace(/\.ts$/, '.js'))
      : fileURLToPath(new URL(name.replace(/\.ts$/, compiled ? '.js' : '.ts'), import.meta.url));
  // The CPU profiler maps positions back to TypeScript lines through the source maps node then loads.
  if (compiled) return [...SERVER_NODE_FLAGS, ...(process.env.BENCH_CPU_PROFILE ? ['--enable-source-maps'] : []), file];
  return [...SERVER_NODE_FLAGS, '--import', 'tsx', file];
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when it had to be killed with SIGKILL after not stopping on SIGTERM in time. */
  forced: boolean;
}

export interface Child<T> {
  name: string;
  /** The pid the child reported itself: the process serving HTTP. */
  pid: number;
  info: T & { pid: number };
  /** Sends a command on the child's stdin (see child-lifecycle.ts) and waits for its reply. */
  command(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends SIGTERM, waits (then SIGKILLs after timeoutMs); safe to call more than once. */
  stop(timeoutMs?: number): Promise<ExitInfo>;
  readonly alive: boolean;
}

const live = new Set<Child<unknown>>();
/** Children that died without being asked to: the bench must fail. */
export const unexpectedExits: string[] = [];

export async function startChild<T extends Record<string, unknown>>(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  startTimeoutMs = 60_000,
): Promise<Child<T>> {
  const proc: ChildProcess = spawn(process.execPath, childCommand(script), {
    cwd: REPO_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stopping = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  // A failed spawn emits 'error' and never 'exit'.
  const spawnError = new Promise<never>((_, reject) => proc.once('error', reject));
  spawnError.catch(() => {});

  createInterface({ input: proc.stderr! }).on('line', (line) => process.stderr.write(`${line}\n`));
  const stdout = createInterface({ input: proc.stdout! });
  const replies = new Map<number, (reply: Record<string, unknown>) => void>();
  let nextCommandId = 1;

  const ready = new Promise<T & { pid: number }>((resolve, reject) => {
    stdout.on('line', (line) => {
      if (line.includes(`"${REPLY_KEY}"`)) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          const waiter = replies.get(parsed[REPLY_KEY] as number);
          if (waiter) {
            replies.delete(parsed[REPLY_KEY] as number);
            waiter(parsed);
            return;
          }
        } catch {
          // not our line: forward it below
        }
      }
      if (line.includes(`"${READY_KEY}"`)) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          if (parsed[READY_KEY] === true && typeof parsed.pid === 'number') {
            resolve(parsed as T & { pid: number });
            return;
          }
        } catch {
          // not our line: forward it below
        }
      }
      process.stderr.write(`[${name}:stdout] ${line}\n`);
    });
    exited.then(({ code, signal }) => reject(new Error(`${name} exited (code ${code}, signal ${signal}) before it was ready`)));
  });

  const child: Child<T> = {
    name,
    pid: proc.pid ?? -1,
    info: undefined as unknown as T & { pid: number },
    get alive() {
      return exit === null;
    },
    command(name, args = {}, timeoutMs = 60_000) {
      const id = nextCommandId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          replies.delete(id);
          reject(new Error(`${child.name} did not answer ${name} within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        replies.set(id, (reply) => {
          clearTimeout(timer);
          if (reply.ok === true) resolve(reply);
          else reject(new Error(`${child.name}: ${name} failed: ${String(reply.error)}`));
        });
        proc.stdin!.write(`${JSON.stringify({ [COMMAND_KEY]: name, id, ...args })}\n`);
      });
    },
    async stop(timeoutMs = 30_000) {
      stopping = true;
      let forced = false;
      if (exit === null) {
        proc.kill('SIGTERM');
        const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
        if ((await Promise.race([exited, timer])) === 'timeout') {
          process.stderr.write(`[bench] ${name} did not stop within ${timeoutMs / 1000} s of SIGTERM: killing it\n`);
          forced = true;
          proc.kill('SIGKILL');
        }
      }
      const { code, signal } = await exited;
      live.delete(child as Child<unknown>);
      // Closing stdin also tells a child that somehow ignored SIGTERM to go.
      proc.stdin?.destroy();
      return { code, signal, forced };
    },
  };
  live.add(child as Child<unknown>);
  exited.then(({ code, signal }) => {
    if (!stopping) unexpectedExits.push(`${name} (pid ${proc.pid}) exited unexpectedly: code ${code}, signal ${signal}`);
  });

  let startTimer: NodeJS.Timeout | undefined;
  try {
    const info = await Promise.race([
      ready,
      spawnError,
      new Promise<never>((_, reject) => {
        startTimer = setTimeout(() => reject(new Error(`${name} was not ready within ${startTimeoutMs / 1000} s`)), startTimeoutMs);
      }),
    ]);
    child.info = info;
    child.pid = info.pid;
    if (info.pid !== proc.pid)
      process.stderr.write(`[bench] note: ${name} reports pid ${info.pid}, spawned pid ${proc.pid}; measuring ${info.pid}\n`);
    return child;
  } catch (error) {
    await child.stop(10_000);
    throw error;
  } finally {
    clearTimeout(startTimer);
  }
}

/** Stops every child still running, the most recently started first. */
export async function stopAllChildren(): Promise<Array<{ name: string } & ExitInfo>> {
  const results: Array<{ name: string } & ExitInfo> = [];
  for (const child of [...live].reverse()) results.push({ name: child.name, ...(await child.stop()) });
  return results;
}
