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

/**
 * Resolves once PostgreSQL's start is under way (pg_ctl, or a first start's initdb, launched), or at once
 * when there is no early start. The entry loads the rest of the code only then: loading it is one long
 * synchronous stretch, which would otherwise hold back the few steps before the launch.
 */
export function startEmbeddedEarly(argv: string[], log: (message: string) => void): Promise<void> {
  const [command, ...options] = argv;
  if (command !== 'serve' || options.some((option) => option !== '--demo')) return Promise.resolve();
  let config;
  try {
    config = loadConfig();
    checkStartMode(config, { demo: options.length > 0 }, () => {});
  } catch {
    return Promise.resolve(); // `serve` reports it
  }
  if (config.databaseUrl !== null) return Promise.resolve();
  const signals = holdSignalsWhileStarting(log);
  let launched!: () => void;
  const waiting = new Promise<void>((resolve) => (launched = resolve));
  const embedded = openEmbeddedPostgres(config.dataDir, { allowAttach: false, log, onWaiting: launched });
  // Awaited by `serve`; until then a failure (e.g. the data directory is busy) must not count as unhandled.
  embedded.then(launched, launched);
  early = { embedded, signals };
  return waiting;
}

/** The early start, once: `serve` takes it over. */
export function takeEarlyStart(): EarlyStart | null {
  const taken = early;
  early = null;
  return taken;
}
