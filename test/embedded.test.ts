import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import pg from 'pg';
import { migrations } from '../src/db/migrations/index.js';
import { VALID_SIGNUP_V2 } from './helpers/app.js';
import { runCli, startServe, type ServeProcess } from './helpers/cli.js';
import { waitUntil } from './helpers/wait.js';
import { alive, postmasterPid } from './helpers/postgres-process.js';
import { admin, withDatabase } from './helpers/test-database.js';

/** The postmaster removes its pid file just before it exits: allow it a moment. */
const gone = async (pid: number) => {
  await waitUntil(() => !alive(pid), `process ${pid} to exit`).catch(() => {});
  return !alive(pid);
};

// Each test starts a server with its own PostgreSQL: on a busy 2-core machine that alone can take over 20 s.
describe('statehouse serve on the embedded PostgreSQL', { timeout: 120_000 }, () => {
  let root: string;
  let dataDir: string;
  let server: ServeProcess | null = null;
  const env = () => ({ STATEHOUSE_DATA_DIR: dataDir, DATABASE_URL: '', PUBLIC_BASE_URL: 'http://statehouse.test' });

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'statehouse-embedded-'));
    await chmod(root, 0o755);
    dataDir = path.join(root, 'data');
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await rm(root, { recursive: true, force: true });
  });

  it('starts its own database, serves, and lets the CLI attach while it runs', async () => {
    server = await startServe(env());
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const created = await runCli(['platforms', 'create', 'Embedded Co', '--json'], env());
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout).api_key;
    const signup = await fetch(`${server.url}/v2/signup`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(VALID_SIGNUP_V2),
    });
    expect(signup.status).toBe(200);
  });

  it('refuses a second server on the same data directory', async () => {
    const second = await runCli(['serve'], { ...env(), PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is in use by another Statehouse process \(pid \d+\)/);
  });

  it('recovers from a killed server: the orphaned database is restarted cleanly and no data is lost', async () => {
    const orphan = await postmasterPid(dataDir);
    expect(orphan && alive(orphan)).toBe(true);
    server!.child.kill('SIGKILL');
    await server!.exited;
    expect(alive(orphan!)).toBe(true); // PostgreSQL outlives the killed process

    server = await startServe(env());
    expect(server.output()).toContain('restarting it cleanly');
    const list = await runCli(['platforms', 'list', '--json'], env());
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toContain('Embedded Co');
  });

  it('shuts down cleanly on SIGTERM and stops its database', async () => {
    const pid = await postmasterPid(dataDir);
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    expect(server!.output()).toContain('shutdown complete');
    expect(await gone(pid!)).toBe(true);
    server = null;
  });

  it('the start command creates demo data ready to call', async () => {
    server = await startServe(env(), ['--demo']);
    await waitUntil(() => /Demo legal entity waiting/.test(server!.output()), 'the demo instructions');
    const out = server.output();
    const key = /^sh_key_\S+$/m.exec(out)?.[0];
    const entity = /Demo legal entity \(active[^:]*: (le_\w+)/.exec(out)?.[1];
    expect(key && entity).toBeTruthy();
    const auth = await fetch(`${server.url}/accounts/auth`, {
      method: 'POST',
      headers: { authorization: key!, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_entity_id: entity }),
    });
    const { access_token } = (await auth.json()) as { access_token: string };
    const locations = await fetch(`${server.url}/locations`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(((await locations.json()) as unknown[]).length).toBe(2);
  });

  it('prints the same demo key after a restart, kept in a file only its owner can read', async () => {
    const printedKey = (out: string) => /^sh_key_\S+$/m.exec(out)?.[0];
    const waitForKey = async (serve: ServeProcess) => {
      await waitUntil(() => printedKey(serve.output()), 'the demo key');
      return printedKey(serve.output());
    };
    const before = await waitForKey(server!);
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = await startServe(env(), ['--demo']);
    const after = await waitForKey(server);
    expect(after).toBe(before);
    expect((await stat(path.join(dataDir, 'demo-api-key'))).mode & 0o777).toBe(0o600);
    const signup = await fetch(`${server.url}/v2/signup`, {
      method: 'POST',
      headers: { authorization: after!, 'content-type': 'application/json' },
      body: JSON.stringify(VALID_SIGNUP_V2),
    });
    expect(signup.status).toBe(200);
  });
});

describe('migrations', () => {
  it('are safe when several processes apply them at once', async () => {
    const { adminUrl } = inject('testCluster');
    const name = `statehouse_test_migrate_${process.pid}`;
    await admin(adminUrl, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
    const url = withDatabase(adminUrl, name);
    const results = await Promise.all([1, 2, 3].map(() => runCli(['migrate', '--json'], { DATABASE_URL: url })));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    const applied = results.map((r) => JSON.parse(r.stdout).applied.length).sort();
    const all = Object.keys(migrations).length;
    expect(applied).toEqual([0, 0, all]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('select count(*)::int as n from kysely_migration');
    await client.end();
    expect(rows[0].n).toBe(all);
    await admin(adminUrl, (c) => c.query(`drop database ${name} with (force)`));
  });
});
