import { afterAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { TEST_VAULT_KEY } from './helpers/app.js';
import { startServe, type ServeProcess } from './helpers/cli.js';
import { admin, withDatabase } from './helpers/test-database.js';

/**
 * A rolling deploy starts several replicas at once on a database nobody has set up yet: each must
 * wait for the one that migrates and installs the job queue's tables and queues, then come up healthy.
 */
describe('three servers started together on a fresh database', () => {
  const { adminUrl } = inject('testCluster');
  const databases: string[] = [];
  const processes: ServeProcess[] = [];
  const inProcess: RunningServer[] = [];

  const freshDatabase = async (round: number) => {
    const name = `statehouse_test_concurrent_${process.pid}_${round}`;
    databases.push(name);
    await admin(adminUrl, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
    return withDatabase(adminUrl, name);
  };

  afterAll(async () => {
    for (const server of processes) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    for (const server of inProcess) await server.close().catch(() => {});
    await admin(adminUrl, async (client) => {
      for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
    });
  });

  it('as `statehouse serve` processes: all become ready, none exits, all stop cleanly', async () => {
    const env = {
      DATABASE_URL: await freshDatabase(0),
      PORT: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: 'http://statehouse.test',
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
    };
    // startServe rejects with the process's output if it exits before listening.
    const servers = await Promise.all([1, 2, 3].map(() => startServe(env)));
    processes.push(...servers);
    for (const server of servers) {
      expect((await fetch(`${server.url}/readyz`)).status, server.output()).toBe(200);
      expect(server.child.exitCode).toBeNull();
    }
    for (const server of servers) server.child.kill('SIGTERM');
    const codes = await Promise.all(servers.map((s) => s.exited));
    expect(codes, servers.map((s) => s.output()).join('\n---\n')).toEqual([0, 0, 0]);
  }, 120_000);

  // The races are in the database (each server has its own connections), so further rounds run the
  // servers in this process: cheaper than three more process starts each.
  for (const round of [1, 2, 3]) {
    it(`round ${round} in one process: all start and become ready`, async () => {
      const config = loadConfig(
        {},
        {
          databaseUrl: await freshDatabase(round),
          port: 0,
          host: '127.0.0.1',
          logLevel: 'silent',
          publicBaseUrl: 'http://statehouse.test',
          vaultKeys: [TEST_VAULT_KEY],
        },
      );
      const started = await Promise.allSettled([1, 2, 3].map(() => startServer(config, () => {})));
      for (const result of started) if (result.status === 'fulfilled') inProcess.push(result.value);
      expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      for (const server of inProcess.splice(0)) {
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        await server.close();
      }
    }, 120_000);
  }
});
