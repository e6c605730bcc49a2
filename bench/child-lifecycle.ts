/**
 * The child side of the benchmark's process protocol (see children.ts for the parent side):
 *
 * - when ready, the child prints ONE line `{"benchReady":true,...}` on stdout;
 * - SIGTERM or SIGINT shuts it down cleanly, once (later signals are ignored while it does);
 * - its stdin is a pipe from the parent: when that closes (the parent died, even by SIGKILL),
 *   it shuts down too, so no server or embedded PostgreSQL outlives the bench;
 * - the parent may also send commands on stdin, one JSON line each, `{"benchCommand":name,"id":n,...}`;
 *   the child answers with one line `{"benchReply":n,"ok":true|false,...}` on stdout. The commands:
 *   `cpu-profile-start` and `cpu-profile-stop` (with `file`): a CPU profile of the child (BENCH_CPU_PROFILE);
 *   `memory`: the child's process.memoryUsage() (where its RSS goes: V8 heap, external, array buffers).
 *
 * Once the parent is gone, writing to stdout/stderr fails with EPIPE. Those errors must be
 * swallowed: reported as uncaught exceptions they would be logged (to stderr: EPIPE again)
 * in an endless loop that starves the event loop, and the child would never shut down.
 */
import { createInterface } from 'node:readline';
import { startCpuProfile, type CpuProfiler } from './profiler.js';

export const READY_KEY = 'benchReady';
export const COMMAND_KEY = 'benchCommand';
export const REPLY_KEY = 'benchReply';

export function log(name: string, message: string): void {
  if (process.stderr.destroyed || !process.stderr.writable) return;
  process.stderr.write(
    `${message
      .split('\n')
      .map((line) => `[${name}] ${line}`)
      .join('\n')}\n`,
  );
}

/** Installs the shutdown triggers; `close` runs at most once, then the process exits. */
export function onShutdown(name: string, close: () => Promise<void>): (reason: string, code?: number) => void {
  let stopping = false;
  const shutdown = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    if (reason !== 'SIGTERM') log(name, `${reason}: shutting down`);
    // A close that hangs must not keep the process alive for ever.
    const force = setTimeout(() => {
      log(name, 'shutdown took over 60 s: exiting anyway');
      process.exit(1);
    }, 60_000);
    force.unref();
    close().then(
      () => process.exit(code),
      (error: unknown) => {
        log(name, `shutdown failed: ${(error as Error).stack ?? String(error)}`);
        process.exit(1);
      },
    );
  };
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.stdin.on('end', () => shutdown('parent went away'));
  process.stdin.on('error', () => shutdown('parent went away'));
  createInterface({ input: process.stdin }).on('line', (line) => void runCommand(line));
  process.stdin.resume();
  process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return; // a write to the dead parent (see above)
    log(name, `uncaught: ${error.stack ?? error.message}`);
    shutdown('uncaught exception', 1);
  });
  process.on('unhandledRejection', (error) => {
    log(name, `unhandled rejection: ${(error as Error)?.stack ?? String(error)}`);
    shutdown('unhandled rejection', 1);
  });
  return shutdown;
}

let profiler: CpuProfiler | null = null;

type CommandHandler = (command: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
const extraCommands = new Map<string, CommandHandler>();
/** A command of one child's own (e.g. the SQL capture of bench/statehouse-server.ts); its result is merged into the reply. */
export function registerCommand(name: string, handler: CommandHandler): void {
  extraCommands.set(name, handler);
}

async function runCommand(line: string): Promise<void> {
  let command: { [COMMAND_KEY]?: unknown; id?: unknown; file?: unknown };
  try {
    command = JSON.parse(line) as typeof command;
  } catch {
    return;
  }
  const reply = (ok: boolean, extra: Record<string, unknown> = {}) => {
    if (!process.stdout.destroyed) process.stdout.write(`${JSON.stringify({ [REPLY_KEY]: command.id, ok, ...extra })}\n`);
  };
  try {
    switch (command[COMMAND_KEY]) {
      case 'cpu-profile-start':
        if (profiler) throw new Error('a CPU profile is already running');
        profiler = await startCpuProfile();
        return reply(true);
      case 'cpu-profile-stop': {
        if (!profiler) throw new Error('no CPU profile is running');
        if (typeof command.file !== 'string') throw new Error('cpu-profile-stop needs a file');
        const running = profiler;
        profiler = null;
        await running.stop(command.file);
        return reply(true, { file: command.file });
      }
      case 'memory':
        return reply(true, { usage: process.memoryUsage() });
      default: {
        const handler = extraCommands.get(String(command[COMMAND_KEY]));
        if (!handler) throw new Error(`unknown command ${JSON.stringify(command[COMMAND_KEY])}`);
        return reply(true, await handler(command as Record<string, unknown>));
      }
    }
  } catch (error) {
    reply(false, { error: (error as Error).message });
  }
}

export function announceReady(info: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ [READY_KEY]: true, pid: process.pid, ...info })}\n`);
}

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}
