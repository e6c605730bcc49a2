import { CompiledQuery, Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { countDatabaseError } from './database-errors.js';
import { openEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import { connectClient, createPool, STARTUP_CONNECT_TIMEOUT_MS } from './pool.js';
import { withSchemaLock } from './schema-lock.js';

export type Db = Kysely<Database>;

// Dates stay 'YYYY-MM-DD' strings: converting them to JS Dates would shift them by the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export const EMBEDDED_DATABASE_NAME = 'statehouse';

const pools = new WeakMap<object, pg.Pool>();

export function createDb(connectionString: string, poolSize = 10): Db {
  const pool = createPool(connectionString, poolSize);
  // Errors are counted per Db, for /metrics (db is assigned below, before any query can fail).
  const counted = (error: unknown) => (countDatabaseError(db, error), error);
  const db: Db = new Kysely<Database>({
    // Checkout failures (server unreachable, pool timeout) are counted for /metrics, then rethrown.
    dialect: new PostgresDialect({
      pool: {
        connect: () =>
          pool.connect().catch((error) => {
            throw counted(error);
          }),
        end: () => pool.end(),
      },
    }),
    log: (event) => {
      if (event.level === 'error') counted(event.error);
    },
  });
  // Idle-client errors are also counted (createPool already keeps them from ending the process).
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

/**
 * Applies pending migrations. Several processes may start at once: the schema lock makes the
 * others wait, then find nothing left to do.
 */
export async function migrateToLatest(connectionString: string, all: Record<string, Migration> = migrations): Promise<string[]> {
  return withSchemaLock(connectionString, (session) => migrateLocked(connectionString, session, all));
}

/**
 * Applies pending migrations; the caller holds the schema lock on `session`, where the usual case (nothing
 * to do) is found without opening another connection.
 */
export async function migrateLocked(
  connectionString: string,
  session: pg.Client,
  all: Record<string, Migration> = migrations,
): Promise<string[]> {
  if (await allApplied(session, Object.keys(all))) return [];
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: createPool(connectionString, 2, STARTUP_CONNECT_TIMEOUT_MS) }) });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    await db.destroy();
  }
}

/**
 * Every migration is already recorded (the usual start): two small queries instead of the Migrator's
 * own check, which introspects every table of the database first (a noticeable part of a warm start).
 */
async function allApplied(session: pg.Client, names: string[]): Promise<boolean> {
  // The Migrator's default table, public.kysely_migration; absent before the first migration.
  const table = await session.query<{ present: boolean }>("select to_regclass('public.kysely_migration') is not null as present");
  if (!table.rows[0]?.present) return false;
  const applied = await session.query<{ name: string }>('select name from public.kysely_migration');
  const recorded = new Set(applied.rows.map((row) => row.name));
  // Exactly these: a recorded migration this code does not know is the Migrator's error to report.
  return recorded.size === names.length && names.every((name) => recorded.has(name));
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
  options: {
    allowAttach: boolean;
    migrate: boolean;
    log: (message: string) => void;
    /** More schema work (the job queue's) done under the same lock as the migrations. */
    alsoUnderSchemaLock?: (connectionString: string) => Promise<void>;
    /** The embedded server when its start is already under way (`serve`, src/cli/early-start.ts). */
    embedded?: Promise<EmbeddedPostgres>;
  },
): Promise<DatabaseHandle> {
  let embedded: EmbeddedPostgres | null = null;
  let connectionString = config.databaseUrl;
  if (connectionString === null) {
    embedded = await (options.embedded ?? openEmbeddedPostgres(config.dataDir, { allowAttach: options.allowAttach, log: options.log }));
    connectionString = embedded.connectionString(EMBEDDED_DATABASE_NAME);
  }
  const server = embedded;
  // The embedded server's database is created on first use. With migrations, their first connection finds
  // out whether it exists (one connection fewer at each start); without, it is checked first.
  const createDatabase = () => ensureDatabaseExists(server!.connectionString('postgres'), EMBEDDED_DATABASE_NAME);
  try {
    if (server && !options.migrate) await createDatabase();
    if (options.migrate) {
      const url = connectionString;
      const migrate = () =>
        withSchemaLock(url, async (session) => {
          const done = await migrateLocked(url, session);
          await options.alsoUnderSchemaLock?.(url);
          return done;
        });
      const applied = await migrate().catch(async (error: { code?: string }) => {
        if (!server || error.code !== '3D000') throw error; // 3D000: no such database
        await createDatabase();
        return migrate();
      });
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
  const client = await connectClient(adminConnectionString);
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
