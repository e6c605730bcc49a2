import { loadConfig } from '../config.js';
import { openEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded.js';
import { checkStartMode } from '../production.js';
import { holdSignalsWhileStarting } from './start-signals.js';

/**
 * `statehouse serve` on the embedded database starts PostgreSQL (`pg_ctl start`, a third of a warm
 * start) before the HTTP stack's modules are loaded, so the two overlap. Only for an invocation that
 * cannot fail before reaching the database (exactly `serve` or `serve --demo`, a valid configuration
 * that passes the start checks): anything else starts the usual way, in `serve` (src/cli/main.ts).
 */
export interface EarlyStart {
  embedded: Promise<EmbeddedPostgres>;
  /** Signals received meanwhile are held until the server is up, as `serve` does (start-signals.ts). */
  signals: { release(): boolean };
}

let early: EarlyStart | null = null;

export function startEmbeddedEarly(argv: string[], log: (message: string) => void): void {
  const [command, ...options] = argv;
  if (command !== 'serve' || options.some((option) => option !== '--demo')) return;
  let config;
  try {
    config = loadConfig();
    checkStartMode(config, { demo: options.length > 0 }, () => {});
  } catch {
    return; // `serve` reports it
  }
  if (config.databaseUrl !== null) return;
  const signals = holdSignalsWhileStarting(log);
  const embedded = openEmbeddedPostgres(config.dataDir, { allowAttach: false, log });
  // Awaited by `serve`; until then a failure (e.g. the data directory is busy) must not count as unhandled.
  embedded.catch(() => {});
  early = { embedded, signals };
}

/** The early start, once: `serve` takes it over. */
export function takeEarlyStart(): EarlyStart | null {
  const taken = early;
  early = null;
  return taken;
}
