/**
 * `BENCH_SCENARIO=request-logs npm run bench`: GET /legal_entity (target c1) with request logs on and off
 * (docs/request-logs.md). Two Statehouse processes on one database: the bench's own (REQUEST_LOGS on, the default)
 * and a second started like it with REQUEST_LOGS=off; one token serves both. Measured in turns (off, on, off,
 * on) so that drift of the machine falls on both; the goal: with logs on at most 5 % fewer requests/s.
 * Writes bench/results/request-logs-latest.json.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT, startChild, type Child } from './children.js';
import { expectStatus, request } from './http-client.js';
import { measure, type Measurement, type Target } from './load.js';
import { cleanup, state } from './run-state.js';
import { CONNECTIONS, say, SECONDS, WARMUP_SECONDS } from './settings.js';
import { startServers, type StatehouseInfo } from './setup.js';

/** With request logs on, GET /legal_entity keeps at least this share of its requests/s without them. */
export const REQUEST_LOGS_GOAL = { minRatio: 0.95 };
const ROUNDS = 2;

export async function runRequestLogsScenario(): Promise<number> {
  const startedAt = new Date();
  try {
    const vaultKey = randomBytes(32).toString('base64');
    const servers = await startServers({ STATEHOUSE_VAULT_KEY: vaultKey });
    const { sh, entity } = servers;
    const off = await startChild<StatehouseInfo & Record<string, unknown>>(
      'statehouse-logs-off',
      'bench/statehouse-server.ts',
      {
        ...process.env,
        DATABASE_URL: sh.connectionString,
        STATEHOUSE_DATA_DIR: path.join(state.tempDir!, 'data'),
        STATEHOUSE_VAULT_KEY: vaultKey,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        ACCESS_TOKEN_TTL_SECONDS: '3600',
        RATE_LIMIT_PER_CREDENTIAL: '10000000',
        RATE_LIMIT_PER_ADDRESS: '10000000',
        REQUEST_LOGS: 'off',
      },
      180_000,
    );
    // The second process's demo seed issued a fresh key and revoked the first's: a token from the fresh one serves both.
    const auth = await request(`${sh.url}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: off.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: sh.legalEntityId }),
    });
    expectStatus(auth, 200, 'POST /accounts/auth');
    const bearer = { authorization: `Bearer ${(JSON.parse(auth.body.toString('utf8')) as { access_token: string }).access_token}` };
    const target = (server: Child<Record<string, unknown>>, url: string, on: boolean): Target => ({
      key: on ? 'r1' : 'r0',
      name: `GET /legal_entity, request logs ${on ? 'on' : 'off'}`,
      server,
      url: `${url}/legal_entity`,
      method: 'GET',
      headers: bearer,
      expectBody: entity.body.toString('utf8'),
      sampleRss: false,
      responseBytes: entity.body.length,
      description: `c1 on a Statehouse with REQUEST_LOGS=${on ? 'on' : 'off'}`,
    });
    const offTarget = target(off as Child<Record<string, unknown>>, off.info.url, false);
    const onTarget = target(servers.statehouse as Child<Record<string, unknown>>, sh.url, true);
    const runs: { off: Measurement[]; on: Measurement[] } = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.off.push(await measure(offTarget, null));
      runs.on.push(await measure(onTarget, null));
    }
    const rate = (ms: Measurement[]) => ms.reduce((s, m) => s + m.requests, 0) / ms.reduce((s, m) => s + m.durationSeconds, 0);
    const p99 = (ms: Measurement[]) => Math.max(...ms.map((m) => m.latencyMs.p99));
    const ratio = rate(runs.on) / rate(runs.off);
    const loggedRequests = runs.on.reduce((s, m) => s + m.requests, 0);
    // Every measured request of the `on` process is in the table within a flush interval or two.
    const client = new pg.Client({ connectionString: sh.connectionString });
    await client.connect();
    let logged = 0;
    for (let i = 0; i < 50 && logged < loggedRequests; i++) {
      logged = Number(
        (await client.query<{ n: string }>(`select count(*) as n from request_logs where path = '/legal_entity'`)).rows[0]!.n,
      );
      if (logged < loggedRequests) await new Promise((r) => setTimeout(r, 200));
    }
    await client.end();
    const failures: string[] = [];
    for (const m of [...runs.off, ...runs.on]) {
      if (m.requests === 0 || m.non2xx > 0 || m.errors > 0 || m.mismatches > 0)
        failures.push(`${m.name}: ${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors, ${m.mismatches} mismatches`);
    }
    if (ratio < REQUEST_LOGS_GOAL.minRatio)
      failures.push(
        `with request logs ${(ratio * 100).toFixed(1)} % of the requests/s without (goal ≥ ${REQUEST_LOGS_GOAL.minRatio * 100} %)`,
      );
    if (logged < loggedRequests) failures.push(`${logged} logs for ${loggedRequests} measured requests with logs on (at least)`);
    const out = [
      '',
      `Statehouse benchmark, request logs — ${startedAt.toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, node ${process.version}; ` +
        `${CONNECTIONS} connections, ${ROUNDS} rounds of ${WARMUP_SECONDS} s warmup + ${SECONDS} s per target`,
      ...(['off', 'on'] as const).map(
        (k) =>
          `GET /legal_entity, logs ${k.padEnd(3)}: ${rate(runs[k]).toFixed(0)} req/s (${runs[k].map((m) => m.requestsPerSecond.toFixed(0)).join(', ')}), p99 ${p99(runs[k]).toFixed(1)} ms, ` +
          `server ${runs[k].map((m) => m.cpuMicrosPerRequest.server?.toFixed(0) ?? 'n/a').join('/')} µs/req, db ${runs[k].map((m) => m.cpuMicrosPerRequest.database?.toFixed(0) ?? 'n/a').join('/')} µs/req`,
      ),
      `ratio on/off: ${(ratio * 100).toFixed(1)} % (goal ≥ ${REQUEST_LOGS_GOAL.minRatio * 100} %); ${logged} rows logged for ${loggedRequests} measured requests (plus warmups)`,
      ...(failures.length > 0 ? ['', 'FAILURES:', ...failures.map((f) => `  - ${f}`)] : []),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    say('stopping servers');
    failures.push(...(await cleanup()));
    const file = path.join(REPO_ROOT, 'bench', 'results', 'request-logs-latest.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const report = { date: startedAt.toISOString(), cpus: os.cpus().length, node: process.version, runs, ratio, logged, failures };
    await fs.writeFile(file, `${JSON.stringify({ ...report, ok: failures.length === 0 }, null, 2)}\n`);
    say(`results written to ${path.relative(REPO_ROOT, file)}`);
    process.stdout.write(
      failures.length === 0 ? '\nbench OK\n' : `\nbench FAILED (${failures.length} problem${failures.length === 1 ? '' : 's'})\n`,
    );
    return failures.length === 0 ? 0 : 1;
  } finally {
    await cleanup();
  }
}
