import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/database.js';
import { buildApp } from '../src/app.js';
import { startJobQueue } from '../src/jobs/queue.js';
import { createPlatform, TEST_VAULT_KEY, VALID_SIGNUP_V2 } from './helpers/app.js';
import { runCli, startServe, type ServeProcess } from './helpers/cli.js';
import { waitUntil } from './helpers/wait.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

const postmasterPid = async (dataDir: string) =>
  Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);

describe('the embedded PostgreSQL is killed (SIGKILL) under a steady write load', () => {
  let root: string;
  let server: ServeProcess | null = null;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'statehouse-faults-'));
    await chmod(root, 0o755); // the server may run as the `postgres` user
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await rm(root, { recursive: true, force: true });
  });

  it('the process stays up, answers 503 + Retry-After meanwhile, restarts the database and loses no acknowledged write', async () => {
    const env = { STATEHOUSE_DATA_DIR: path.join(root, 'data'), DATABASE_URL: '', PUBLIC_BASE_URL: 'http://statehouse.test' };
    server = await startServe(env);
    const created = await runCli(['platforms', 'create', 'Faults Co', '--json'], env);
    expect(created.code).toBe(0);
    const apiKey = JSON.parse(created.stdout).api_key as string;
    const base = server.url;

    const acknowledged: string[] = [];
    let refused = 0;
    let ackedAfterRefusal = 0;
    let sent = 0;
    let killed = false;
    const write = async () => {
      const n = ++sent;
      const response = await fetch(`${base}/v2/signup`, {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ ...VALID_SIGNUP_V2, business_name: `Load ${n}` }),
        signal: AbortSignal.timeout(30_000), // no request may hang while the database is away
      });
      const body = (await response.json()) as { legal_entity_id?: string; detail?: unknown };
      if (response.status === 200) {
        acknowledged.push(body.legal_entity_id!);
        if (refused > 0) ackedAfterRefusal++;
      } else if (response.status === 503) {
        expect(killed).toBe(true);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(typeof body.detail).toBe('string');
        refused++;
      } else {
        throw new Error(`write ${n} answered ${response.status}: ${JSON.stringify(body)}`);
      }
    };
    // Three writers in parallel until the database has been killed, refused writes, and taken 20 writes again.
    const done = () => (refused > 0 && ackedAfterRefusal >= 20) || sent >= 20_000;
    const writers = Promise.all(
      [1, 2, 3].map(async () => {
        while (!done()) await write();
      }),
    );

    const readiness: number[] = [];
    await waitUntil(() => acknowledged.length >= 20, 'some acknowledged writes');
    const pid = await postmasterPid(env.STATEHOUSE_DATA_DIR);
    killed = true;
    process.kill(pid, 'SIGKILL');
    // Readiness goes 503 while the database is away, then 200 once the supervisor has restarted it.
    await waitUntil(
      async () => {
        const status = (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(30_000) })).status;
        if (readiness.at(-1) !== status) readiness.push(status);
        return readiness.includes(503) && status === 200;
      },
      '/readyz 503 then 200',
      { timeoutMs: 90_000, intervalMs: 20 },
    );
    await writers;
    expect(refused).toBeGreaterThan(0);
    expect(ackedAfterRefusal).toBeGreaterThanOrEqual(20);
    expect(readiness).toContain(503);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toMatch(/embedded PostgreSQL \(pid \d+\) exited unexpectedly; restarting it/);
    expect(server.output()).toMatch(/embedded PostgreSQL restarted on 127\.0\.0\.1:\d+/);
    expect(await postmasterPid(env.STATEHOUSE_DATA_DIR)).not.toBe(pid);

    // Every write that was answered 200 is there.
    for (const legalEntityId of acknowledged) {
      const response = await fetch(`${base}/accounts/auth`, {
        method: 'POST',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ legal_entity_id: legalEntityId }),
      });
      expect(response.status, legalEntityId).toBe(200);
    }

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    server = null;
  }, 180_000);
});

/**
 * A TCP relay between the app and PostgreSQL that the test can cut: closing it refuses new
 * connections and drops open ones, as a database restart or a failover does.
 */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  await open();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cut, open };
}

describe('requests that need an unreachable database', () => {
  let databaseUrl: string;
  let relay: Awaited<ReturnType<typeof relayTo>>;
  const logLines: string[] = [];
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(inject('testCluster'));
    relay = await relayTo(new URL(databaseUrl));
  });
  afterEach(async () => {
    await close();
  });
  afterAll(async () => {
    await dropTestDatabase(inject('testCluster').adminUrl, databaseUrl);
  });

  it('get 503 {detail} with Retry-After, /healthz stays 200, and all recovers when the database is back', async () => {
    const db = createDb(relay.url, 3);
    const config = loadConfig({}, { databaseUrl: relay.url, publicBaseUrl: 'http://statehouse.test', logLevel: 'warn' });
    const app = await buildApp({ config, db, vaultKeys: [TEST_VAULT_KEY], logger: { stream: { write: (line) => logLines.push(line) } } });
    close = async () => {
      await app.close();
      await db.destroy();
    };
    const { apiKey } = await createPlatform(db, 'Outage Co');
    const signup = () => app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: apiKey }, payload: VALID_SIGNUP_V2 });
    const first = await signup();
    expect(first.statusCode).toBe(200);
    const legalEntityId = first.json().legal_entity_id as string;
    const token = () =>
      app.inject({
        method: 'POST',
        url: '/accounts/auth',
        headers: { authorization: apiKey },
        payload: { legal_entity_id: legalEntityId },
      });
    expect((await token()).statusCode).toBe(200);

    await relay.cut();
    for (const request of [signup, token, signup]) {
      const response = await request();
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof response.json().detail).toBe('string');
      expect(response.body).not.toMatch(/ECONNREFUSED|Connection terminated|at /);
    }
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // One line per outage, no stack traces.
    const warnings = logLines.filter((line) => line.includes('database unavailable'));
    expect(warnings).toHaveLength(1);
    expect(logLines.join('')).not.toMatch(/"stack"/);

    await relay.open();
    await waitUntil(async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200, 'the database back');
    expect((await signup()).statusCode).toBe(200);
    expect((await token()).statusCode).toBe(200);
  });

  it('the job queue survives the outage, records a job that finished during it, and works again afterwards', async () => {
    const lines: string[] = [];
    const runs: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const queue = await startJobQueue(relay.url, (line) => lines.push(line));
    const observer = createDb(databaseUrl, 1);
    close = async () => {
      await queue.stop();
      await observer.destroy();
    };
    await queue.work([
      {
        name: 'faults.echo',
        pollingIntervalSeconds: 0.5,
        handler: async (data) => {
          runs.push(data.n as number);
          if (data.n === 1) await gate; // still running when the database goes away
        },
      },
    ]);
    await queue.send('faults.echo', { n: 1 });
    await waitUntil(() => runs.includes(1), 'job 1 to start');

    await relay.cut();
    release(); // job 1 finishes while the database is away: recording that must not crash anything
    await waitUntil(() => lines.some((l) => l.startsWith('database unavailable (job queue)')), 'the queue to notice');
    await expect(queue.send('faults.echo', { n: 2 })).rejects.toThrow();

    await relay.open();
    await waitUntil(
      () =>
        queue.send('faults.echo', { n: 3 }).then(
          () => true,
          () => false,
        ),
      'a send to succeed again',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    await waitUntil(() => runs.includes(3), 'the job after the outage');
    const stateOf = async (n: number) =>
      (await sql<{ state: string }>`select state from pgboss.job where data->>'n' = ${String(n)}`.execute(observer)).rows[0]?.state;
    await waitUntil(async () => (await stateOf(1)) === 'completed', 'job 1 recorded as completed');
    expect(runs.filter((n) => n === 1)).toHaveLength(1);
    expect(lines.filter((l) => !l.startsWith('database unavailable'))).toEqual([]);
  });
});
