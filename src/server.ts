import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import type { EmbeddedPostgres } from './db/embedded.js';
import { keepRunningOnDatabaseErrors } from './db/process-guard.js';
import { startJobQueue, type JobQueue } from './jobs/queue.js';
import { loadVaultKeys } from './crypto/vault.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  close(): Promise<void>;
  /** true once close() has begun (e.g. on a signal): work still running on the database is being cut off. */
  isClosing(): boolean;
}

/**
 * Opens the database (embedded or external, migrated), builds the app and listens.
 * `embedded`: the embedded server, already being started (src/cli/early-start.ts).
 */
export async function startServer(
  config: Config,
  log: (message: string) => void,
  embedded?: Promise<EmbeddedPostgres>,
): Promise<RunningServer> {
  keepRunningOnDatabaseErrors(log);
  let jobs: JobQueue | undefined;
  // The job queue's tables are installed under the migrations' lock: processes starting together take turns.
  const startQueue = (connectionString: string) =>
    startJobQueue(connectionString, log, { maintenanceIntervalSeconds: config.jobMaintenanceIntervalSeconds });
  const database = await openDatabase(config, {
    allowAttach: false,
    migrate: true,
    log,
    embedded,
    alsoUnderSchemaLock: async (connectionString) => {
      jobs = await startQueue(connectionString);
    },
  });
  let app: FastifyInstance | undefined;
  let stopFanOut = async () => {};
  try {
    jobs ??= await startQueue(database.connectionString);
    // The vault keys are loaded at start, so a missing or bad key file stops the start, not a later request.
    app = await buildApp({ config, db: database.db, vaultKeys: loadVaultKeys(config), jobs });
    await jobs.work(app.services.jobDefinitions);
    // Outbox → webhook deliveries, beside the queue that performs them.
    stopFanOut = app.services.webhookDeliveries.startFanOut(log);
    // The catalog's revision is numbered with a connection of its own: asked for now, before any request's
    // transaction waits on it (under load right after a start, a pool full of such transactions would starve it).
    void app.services.planning.planning.catalogRevision().catch(() => {});
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await stopFanOut();
    await app?.close();
    await jobs?.stop();
    await database.close();
    throw error;
  }
  const started = app;
  const address = started.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | null = null;
  return {
    app: started,
    database,
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    // In-flight requests finish (new ones get 503), running jobs finish, the pool closes, the embedded server stops.
    close: () =>
      (closing ??= started
        .close()
        .then(stopFanOut)
        .then(() => jobs!.stop())
        .then(() => database.close())),
    isClosing: () => closing !== null,
  };
}

/**
 * SIGTERM/SIGINT close in order; a second signal exits at once. One Ctrl-C often arrives twice
 * (to the whole process group, and forwarded by `npm start`): a repeat within a second is that echo,
 * not a second request, and must not cut the shutdown short (it would leave PostgreSQL running).
 */
export function closeOnSignals(server: RunningServer, log: (message: string) => void): void {
  let signalledAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalledAt) {
      if (Date.now() - signalledAt < 1000) return;
      process.exit(130);
    }
    signalledAt = Date.now();
    log(`${signal} received: finishing in-flight requests and shutting down`);
    server.close().then(
      () => {
        log('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        log(`shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
