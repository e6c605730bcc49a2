import { CompiledQuery, Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { countDatabaseError } from './database-errors.js';
import { openEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

// Dates stay 'YYYY-MM-DD' strings: converting them to JS Dates would shift them by the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export const EMBEDDED_DATABASE_NAME = 'statehouse';

const pools = new WeakMap<object, pg.Pool>();

export function createDb(connectionString: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // Errors are counted per Db, for /metrics (db is assigned below, before any query can fail).
  const counted = (error: unknown) => (countDatabaseError(db, error), error);
  const db: Db = new Kysely<Database>({
    // Checkout failures (server unreachable, pool timeout) are counted for /metrics, then rethrown.
    dialect: new PostgresDialect({ pool: { connect: () => pool.connect().catch((error) => { throw counted(error); }), end: () => pool.end() } }),
    log: (event) => {
      if (event.level === 'error') counted(event.error);
    },
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', counted);
  pools.set(db, pool);
  return db;
}

/** The connection pool behind a Db made by createDb (for its gauges on /metrics). */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/**
 * Runs a hot, fixed query as a named prepared statement: PostgreSQL parses and plans it once
 * per connection instead of on every request. Inside a transaction (no pool known) it runs as
 * an ordinary query through Kysely, on the transaction's connection.
 */
export async function preparedQuery<R>(db: Db, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = pools.get(db);
  if (pool) {
    try {
      return (await pool.query<R & pg.QueryResultRow>({ name, text, values })).rows;
    } catch (error) {
      countDatabaseError(db, error);
      throw error;
    }
  }
  return (await db.executeQuery<R>(CompiledQuery.raw(text, values))).rows;
}

/** Any fixed 64-bit number; all Statehouse processes serialise their migrations on it. */
const MIGRATION_LOCK_ID = 4_711_202_611n;

/**
 * Applies pending migrations. Several processes may start at once: a session-level
 * advisory lock makes the others wait, then find nothing left to do.
 */
export async function migrateToLatest(connectionString: string, all: Record<string, Migration> = migrations): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 2 }) }) });
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID.toString()]);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID.toString()]).catch(() => {});
    await client.end();
    await db.destroy();
  }
}

export interface DatabaseHandle {
  db: Db;
  connectionString: string;
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts (or, for CLI commands, attaches to) the embedded server.
 * Applies migrations unless told not to.
 */
export async function openDatabase(
  config: Config,
  options: { allowAttach: boolean; migrate: boolean; log: (message: string) => void },
): Promise<DatabaseHandle> {
  let embedded: EmbeddedPostgres | null = null;
  let connectionString = config.databaseUrl;
  if (connectionString === null) {
    embedded = await openEmbeddedPostgres(config.dataDir, { allowAttach: options.allowAttach, log: options.log });
    try {
      await ensureDatabaseExists(embedded.connectionString('postgres'), EMBEDDED_DATABASE_NAME);
    } catch (error) {
      await embedded.stop();
      throw error;
    }
    connectionString = embedded.connectionString(EMBEDDED_DATABASE_NAME);
  }
  try {
    if (options.migrate) {
      const applied = await migrateToLatest(connectionString);
      if (applied.length > 0) options.log(`applied migrations: ${applied.join(', ')}`);
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const db = createDb(connectionString, config.databasePoolSize);
  return {
    db,
    connectionString,
    embedded,
    close: async () => {
      await db.destroy();
      await embedded?.stop();
    },
  };
}

export async function ensureDatabaseExists(adminConnectionString: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminConnectionString });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}
