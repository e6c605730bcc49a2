import pg from 'pg';

/** How long a request waits for a connection before it is answered 503 (the database is away or saturated). */
export const REQUEST_CONNECT_TIMEOUT_MS = 5_000;

/** Starting up (migrations, the schema lock) may wait longer: a busy machine is not an outage. */
export const STARTUP_CONNECT_TIMEOUT_MS = 60_000;

/**
 * A pool whose connections can die at any moment (a restart, a failover) without ending the process:
 * the failing query rejects (see db/unavailable.ts) and the pool replaces the connection.
 */
export function createPool(connectionString: string, max: number, connectTimeoutMs = REQUEST_CONNECT_TIMEOUT_MS): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
  });
  // Idle clients report through the pool; a checked-out client emits on itself, and an unheard 'error' event is fatal.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** A standalone client with the same protection, for work that needs one session at start (advisory locks, admin). */
export async function connectClient(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: STARTUP_CONNECT_TIMEOUT_MS, keepAlive: true });
  client.on('error', () => {});
  await client.connect();
  return client;
}
