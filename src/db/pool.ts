import pg from 'pg';

/** How long a request waits for a connection before it is answered 503 (the database is away or saturated). */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A pool whose connections can die at any moment (a restart, a failover) without ending the process:
 * the failing query rejects (see db/unavailable.ts) and the pool replaces the connection.
 */
export function createPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // Idle clients report through the pool; a checked-out client emits on itself, and an unheard 'error' event is fatal.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** A standalone client with the same protection, for work that needs one session (advisory locks, admin). */
export async function connectClient(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  client.on('error', () => {});
  await client.connect();
  return client;
}

