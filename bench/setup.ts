/** The run's first steps: Statehouse in a fresh data directory, a token, and the two bare servers of a and b. */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './children.js';
import { expectStatus, request } from './http-client.js';
import { checkpoint, state } from './run-state.js';
import { DATABASE_URL, POOL_SIZE, say } from './settings.js';

/** What bench/statehouse-server.ts reports when it is ready. */
export interface StatehouseInfo {
  url: string;
  apiKey: string;
  platformId: string;
  legalEntityId: string;
  operatorKey: string;
  connectionString: string;
}

/** `extraEnv`: settings of a scenario's own, applied last (BENCH_SCENARIO=failover's job timings). */
export async function startServers(extraEnv: Record<string, string> = {}) {
  // 1. Statehouse, in a fresh data directory.
  state.tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'statehouse-bench-'));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as `postgres`, which must traverse it.
  await fs.chmod(state.tempDir, 0o755);
  const statehouseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    STATEHOUSE_DATA_DIR: path.join(state.tempDir, 'data'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    // The f1 link is signed once before the load and must stay valid for the whole run.
    FILE_URL_TTL_SECONDS: '86400',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    // One load generator on one address with one key is a throughput test, not abuse: limits far above any
    // target keep the rate limiter's counting in the measurement without its 429s. BENCH_SCENARIO=abuse
    // (bench/abuse.ts) measures the limits themselves, at their defaults.
    RATE_LIMIT_PER_CREDENTIAL: '10000000',
    RATE_LIMIT_PER_ADDRESS: '10000000',
    RATE_LIMIT_AUTH_OPERATIONS: '10000000',
    // The automations step (h) measures the workflow's own cost: the sandbox agency with no pause between steps.
    AUTOMATION_SANDBOX: 'on',
    AUTOMATION_SANDBOX_STEP_MS: '0',
    // The webhooks step (i) delivers to a receiver in the bench process, on 127.0.0.1.
    STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: '1',
    ...extraEnv,
  };
  delete statehouseEnv.DATABASE_URL;
  delete statehouseEnv.PUBLIC_BASE_URL;
  if (DATABASE_URL) statehouseEnv.DATABASE_URL = DATABASE_URL;
  else state.statehouseDataDir = statehouseEnv.STATEHOUSE_DATA_DIR!;
  say(`starting Statehouse (${DATABASE_URL ? 'BENCH_DATABASE_URL' : `embedded PostgreSQL in ${statehouseEnv.STATEHOUSE_DATA_DIR}`})`);
  const t0 = Date.now();
  const statehouse = await startChild<StatehouseInfo & Record<string, unknown>>(
    'statehouse',
    'bench/statehouse-server.ts',
    statehouseEnv,
    180_000,
  );
  const sh = statehouse.info;
  say(`Statehouse pid ${statehouse.pid} ready at ${sh.url} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (state.statehouseDataDir) {
    const pid = Number.parseInt(
      readFileSync(path.join(state.statehouseDataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n', 1)[0] ?? '',
      10,
    );
    state.postmasterPid = Number.isInteger(pid) && pid > 0 ? pid : null;
  }
  checkpoint();

  // 2. A token, and the exact bytes of GET /legal_entity.
  const authBody = JSON.stringify({ legal_entity_id: sh.legalEntityId });
  const authHeaders = { authorization: sh.apiKey, 'content-type': 'application/json' };
  const auth = await request(`${sh.url}/accounts/auth`, { method: 'POST', headers: authHeaders, body: authBody });
  expectStatus(auth, 200, 'POST /accounts/auth');
  const token = (JSON.parse(auth.body.toString('utf8')) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error('POST /accounts/auth returned no access_token');
  const bearer = { authorization: `Bearer ${token}` };
  const entity = await request(`${sh.url}/legal_entity`, { headers: bearer });
  expectStatus(entity, 200, 'GET /legal_entity');
  if (entity.headers['content-encoding'])
    throw new Error(`GET /legal_entity came back encoded (${entity.headers['content-encoding']}); the bare server needs the plain bytes`);
  const contentType = entity.headers['content-type'] ?? 'application/json; charset=utf-8';
  say(`GET /legal_entity: ${entity.body.length} bytes, ${contentType}`);

  // 3. The two bare servers.
  const bareStatic = await startChild('bare-static', 'bench/static-server.ts', {
    ...process.env,
    BENCH_BODY_B64: entity.body.toString('base64'),
    BENCH_CONTENT_TYPE: contentType,
  });
  const barePg = await startChild('bare-pg', 'bench/pg-server.ts', {
    ...process.env,
    BENCH_PG_URL: sh.connectionString,
    BENCH_LEGAL_ENTITY_ID: sh.legalEntityId,
    BENCH_PLATFORM_ID: sh.platformId,
    BENCH_PG_POOL_SIZE: String(POOL_SIZE),
  });
  const staticCheck = await request(bareStatic.info.url as string);
  expectStatus(staticCheck, 200, 'bare-static');
  if (!staticCheck.body.equals(entity.body)) throw new Error('bare-static does not return the captured bytes');
  const pgCheck = await request(barePg.info.url as string);
  expectStatus(pgCheck, 200, 'bare-pg');
  const pgRow = JSON.parse(pgCheck.body.toString('utf8')) as { id?: unknown };
  if (pgRow.id !== sh.legalEntityId) throw new Error(`bare-pg returned the wrong row: ${pgCheck.body.toString('utf8').slice(0, 200)}`);
  checkpoint();
  return { statehouse, sh, authBody, authHeaders, auth, bearer, entity, contentType, bareStatic, barePg, staticCheck, pgCheck };
}
