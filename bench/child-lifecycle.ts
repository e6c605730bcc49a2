/**
 * The child side of the benchmark's process protocol (see children.ts for the parent side):
 *
 * - when ready, the child prints ONE line `{"benchReady":true,...}` on stdout;
 * - SIGTERM or SIGINT shuts it down cleanly, once (later signals are ignored while it does);
 * - its stdin is a pipe from the parent: when that closes (the parent died, even by SIGKILL),
 *   it shuts down too, so no server or embedded PostgreSQL outlives the bench.
 *
 * Once the parent is gone, writing to stdout/stderr fails with EPIPE. Those errors must be
 * swallowed: reported as uncaught exceptions they would be logged (to stderr: EPIPE again)
 * in an endless loop that starves the event loop, and the child would never shut down.
 */

export const READY_KEY = 'benchReady';

export function log(name: string, message: string): void {
  if (process.stderr.destroyed || !process.stderr.writable) return;
  process.stderr.write(`${message.split('\n').map((line) => `[${name}] ${line}`).join('\n')}\n`);
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

export function announceReady(info: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ [READY_KEY]: true, pid: process.pid, ...info })}\n`);
}

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}
