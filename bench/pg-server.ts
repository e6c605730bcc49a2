/**
 * Benchmark child (b, d0, g0): a bare node:http server that runs ONE query per request against the
 * same database Statehouse uses, on a pg.Pool of 10 connections (Statehouse's default pool
 * size), and answers with its JSON. The floor for any database-backed endpoint: no framework,
 * no auth, no validation, no serialisation schema.
 *
 * BENCH_PG_QUERY picks the query:
 * - `legal-entity` (default, target b): `select * from legal_entities where id = $1 and platform_id = $2`,
 *   answering JSON.stringify(row) (404 when there is none);
 * - `tasks` (target d0): `select * from tasks where legal_entity_id = $1 order by id` (ordered: the body is compared), the one query GET /tasks
 *   needs, answering JSON.stringify(rows);
 * - `mail` (target g0): `select * from mail_items where legal_entity_id = $1 order by received_on desc, id`,
 *   the one query GET /v2/mail needs, answering JSON.stringify(rows).
 *
 * Env: BENCH_PG_URL, BENCH_LEGAL_ENTITY_ID, BENCH_PLATFORM_ID (legal-entity only), BENCH_PG_QUERY,
 *      BENCH_PG_POOL_SIZE (default 10).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { announceReady, log, onShutdown, requireEnv } from './child-lifecycle.js';

const QUERIES = {
  'legal-entity': { name: 'bare-pg', sql: 'select * from legal_entities where id = $1 and platform_id = $2', rows: false },
  tasks: { name: 'bare-pg-tasks', sql: 'select * from tasks where legal_entity_id = $1 order by id', rows: true },
  mail: { name: 'bare-pg-mail', sql: 'select * from mail_items where legal_entity_id = $1 order by received_on desc, id', rows: true },
} as const;
const MODE = process.env.BENCH_PG_QUERY || 'legal-entity';
if (!Object.hasOwn(QUERIES, MODE)) throw new Error(`BENCH_PG_QUERY must be ${Object.keys(QUERIES).join(', ')} (got '${MODE}')`);
const { name: NAME, sql: QUERY, rows: ALL_ROWS } = QUERIES[MODE as keyof typeof QUERIES];

// The same type parsing Statehouse installs (src/db/database.ts), so both read the row alike.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const params = ALL_ROWS ? [requireEnv('BENCH_LEGAL_ENTITY_ID')] : [requireEnv('BENCH_LEGAL_ENTITY_ID'), requireEnv('BENCH_PLATFORM_ID')];
const pool = new pg.Pool({
  connectionString: requireEnv('BENCH_PG_URL'),
  max: Number(process.env.BENCH_PG_POOL_SIZE || 10),
  idleTimeoutMillis: 30_000,
});
pool.on('error', () => {});

const server = http.createServer((request, response) => {
  request.resume();
  pool.query(QUERY, params).then(
    (result) => {
      const row: unknown = ALL_ROWS ? result.rows : result.rows[0];
      if (row === undefined) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"detail":"not found"}');
        return;
      }
      const body = JSON.stringify(row);
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
      response.end(body);
    },
    (error: Error) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error.message);
    },
  );
});

onShutdown(NAME, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await pool.end();
});

server.on('error', (error) => {
  log(NAME, `server error: ${error.message}`);
  process.exit(1);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ url: `http://127.0.0.1:${port}` });
});
