/**
 * SIGTERM/SIGINT while `serve` is still starting would kill node at once and leave the embedded
 * PostgreSQL (already started, detached) running. Until the server is up, a signal is only noted;
 * `release` hands over to the real handlers (closeOnSignals) and replays the signal, so the start
 * that was under way is shut down in order. `release` answers whether it did (then the caller does
 * nothing more, e.g. no demo seeding racing the shutdown).
 */
export function holdSignalsWhileStarting(log: (message: string) => void): { release(): boolean } {
  let received: NodeJS.Signals | null = null;
  const note = (signal: NodeJS.Signals) => {
    if (!received) log(`${signal} received while starting: shutting down once the start is complete`);
    received ??= signal;
  };
  process.on('SIGTERM', note);
  process.on('SIGINT', note);
  return {
    release() {
      process.off('SIGTERM', note);
      process.off('SIGINT', note);
      if (received) process.kill(process.pid, received);
      return received !== null;
    },
  };
}
