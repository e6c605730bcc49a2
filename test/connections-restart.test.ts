import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import type { ConnectionStatus } from '../src/db/schema.js';
import { ADVANCE_JOB } from '../src/modules/connections/connections.service.js';
import { startServer, type RunningServer } from '../src/server.js';
import { bearer, createPlatformWithEntity, json, TEST_VAULT_KEY } from './helpers/app.js';
import { startServe } from './helpers/cli.js';
import { openLink } from './helpers/hosted.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

/**
 * The connector's steps live in the durable job queue: a server stopped while a connection is
 * authenticating or registering loses nothing, and the next server on the same database finishes it.
 *
 * The step delay is far longer than any test, so no step runs by itself: the test releases each queued
 * step (makes it due now) when it wants it to run. Nothing then depends on how fast the machine is.
 */
const NEVER_BY_ITSELF_MS = 600_000;

/** Makes the queued connector steps due now (pg-boss's start_after, and the handler's sub-second wait). */
const releaseSteps = (db: Db) =>
  sql`update pgboss.job set start_after = now(), data = data - 'not_before' where name = ${ADVANCE_JOB} and state in ('created', 'retry')`.execute(
    db,
  );

describe('a connection survives restarts in the middle', () => {
  let url: string;
  let config: Config;
  const running: RunningServer[] = [];
  const start = async () => {
    const server = await startServer(config, () => {});
    running.push(server);
    return server;
  };
  const stop = async (server: RunningServer) => {
    await server.close();
    running.splice(running.indexOf(server), 1);
  };

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    config = loadConfig(
      {},
      {
        databaseUrl: url,
        port: 0,
        host: '127.0.0.1',
        logLevel: 'silent',
        publicBaseUrl: 'http://statehouse.test',
        sandboxConnectorStepMs: NEVER_BY_ITSELF_MS,
        vaultKeys: [TEST_VAULT_KEY],
      },
    );
  });
  afterAll(async () => {
    for (const server of running) await server.close();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
  });

  /** A platform, an entity with an EDD account, and a connection whose credentials were just submitted. */
  async function connectionWithCredentials(server: RunningServer, platformName: string, password: string) {
    const { entityId, token } = await createPlatformWithEntity({ app: server.app, db: server.database.db }, platformName);
    const accountId = (
      await server.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'EDD account' })
    ).id;
    const { connect_url, connection } = json(
      await server.app.inject({
        method: 'POST',
        url: '/accounts/connect',
        headers: bearer(token),
        payload: { legal_entity_id: entityId, agency_account_id: accountId },
      }),
    );
    const id = connection.id as string;
    const browser = (await openLink(server.app, connect_url)).browser!;
    await browser.get(`/hosted/connections/${id}`);
    expect((await browser.post(`/hosted/connections/${id}`, { username: 'edd-admin', password })).statusCode).toBe(303);
    return { id, token, accountId };
  }

  const statusIn = async (db: Db, id: string) =>
    (await db.selectFrom('account_connections').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  /** Polls until the connection has `wanted`, or fails after `timeoutMs`. */
  async function waitForStatus(db: Db, id: string, wanted: ConnectionStatus, timeoutMs: number, pollMs = 25) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await statusIn(db, id);
      if (status === wanted) return;
      if (Date.now() > deadline) throw new Error(`still ${status} after ${timeoutMs} ms (waiting for ${wanted})`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  const eventsOf = (db: Db, id: string) =>
    db.selectFrom('account_connection_events').selectAll().where('connection_id', '=', id).orderBy('id').execute();

  it('stopping during authenticating and again during registering still ends connected, each step once', async () => {
    const first = await start();
    const { id, token, accountId } = await connectionWithCredentials(first, 'Acme Payroll', 'restart-proof-password');

    // 1. Stopped right after the credentials: the first step is queued, not done.
    expect(await statusIn(first.database.db, id)).toBe('authenticating');
    await stop(first);

    // 2. A new server picks the step up; stopped again as soon as the connection is registering.
    const second = await start();
    expect(await statusIn(second.database.db, id)).toBe('authenticating');
    await releaseSteps(second.database.db);
    await waitForStatus(second.database.db, id, 'registering', 60_000);
    await stop(second);

    // 3. A third server finishes it.
    const third = await start();
    expect(await statusIn(third.database.db, id)).toBe('registering'); // nothing happened while no server ran
    await releaseSteps(third.database.db);
    await waitForStatus(third.database.db, id, 'connected', 60_000);

    const events = await eventsOf(third.database.db, id);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      [null, 'pending'],
      ['pending', 'authenticating'],
      ['authenticating', 'registering'],
      ['registering', 'connected'],
    ]);
    const api = json(await third.app.inject({ url: `/accounts/connections/${id}`, headers: bearer(token) }));
    expect(api).toMatchObject({ id, status: 'connected', account: { id: accountId, status: 'active' } });
    expect(api.account.history).toHaveLength(4);
    await stop(third);
  });

  it('a server killed (SIGKILL) while registering loses nothing: the next one finishes', async () => {
    const first = await start();
    const { id } = await connectionWithCredentials(first, 'Kill Test Payroll', 'kill-proof-password');
    await stop(first);

    // A separate `statehouse serve` process takes the steps up and is killed without warning mid-way;
    // only a plain database connection watches meanwhile, so no other process works the queue.
    const observer = createDb(url, 1);
    const statusOf = () => statusIn(observer, id);
    const child = await startServe({
      DATABASE_URL: url,
      SANDBOX_CONNECTOR_STEP_MS: String(NEVER_BY_ITSELF_MS),
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      LOG_LEVEL: 'silent',
    });
    try {
      await releaseSteps(observer);
      const deadline = Date.now() + 60_000;
      for (let status = await statusOf(); status !== 'registering'; status = await statusOf()) {
        expect(status).toBe('authenticating');
        if (Date.now() > deadline) throw new Error('never reached registering');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.child.kill('SIGKILL');
      await child.exited;
    }
    // The next step is due, but its only worker is dead: nothing moves until another server runs.
    await releaseSteps(observer);
    expect(await statusOf()).toBe('registering');
    await observer.destroy();

    const probe = await start();
    await waitForStatus(probe.database.db, id, 'connected', 60_000, 50);
    const events = await eventsOf(probe.database.db, id);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      [null, 'pending'],
      ['pending', 'authenticating'],
      ['authenticating', 'registering'],
      ['registering', 'connected'],
    ]);
    await stop(probe);
  });
});
