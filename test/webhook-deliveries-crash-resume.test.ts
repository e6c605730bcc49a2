import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb, type Db } from '../src/db/database.js';
import { createPlatform, TEST_VAULT_KEY } from './helpers/app.js';
import { startServe, type ServeProcess } from './helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';
import { waitUntil } from './helpers/wait.js';
import { recordEvent } from './helpers/webhook-deliveries.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

/**
 * A `statehouse serve` killed with SIGKILL while deliveries wait for their retries and events wait for the fan-out:
 * the next server delivers every event (the cursor, the deliveries and their jobs were committed together).
 */
describe('webhook deliveries: a server killed (SIGKILL) with deliveries pending', { timeout: 400_000 }, () => {
  let url: string;
  let db: Db;
  let dataDir: string;
  let receiver: WebhookReceiver;
  const processes: ServeProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    db = createDb(url, 2);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-webhooks-'));
    receiver = await startWebhookReceiver();
    env = {
      DATABASE_URL: url,
      STATEHOUSE_DATA_DIR: dataDir,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      PUBLIC_BASE_URL: 'http://statehouse.test',
      LOG_LEVEL: 'warn',
      STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: '1',
      WEBHOOKS_RETRY_BASE_MS: '1000',
      WEBHOOKS_ATTEMPT_TIMEOUT_MS: '2000',
    };
  });
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await receiver.close();
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
    await rm(dataDir, { recursive: true, force: true });
  });

  const serve = async () => {
    const server = await startServe(env);
    processes.push(server);
    return server;
  };

  it('delivers every event after a restart', async () => {
    const { platformId, apiKey } = await createPlatform(db, 'Durable Payroll');
    const first = await serve();
    const created = await fetch(`${first.url}/v2/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string; secret: string };
    receiver.setSecret(endpoint.secret);
    receiver.answer(() => ({ kind: 'error', status: 503, body: 'come back later' }));

    const before: string[] = [];
    for (let i = 0; i < 20; i++) before.push(await recordEvent(db, platformId, 'legal_entity.updated', { id: `le_before_${i}` }));
    // Every delivery has failed once and waits for its retry when the server dies.
    await waitUntil(
      async () => {
        // This test's events only: the installation's first start also announces its catalog release to every platform
        // (catalog.released), whenever its claim runs.
        const rows = await db
          .selectFrom('webhook_deliveries')
          .select('attempts')
          .where('endpoint_id', '=', endpoint.id)
          .where('event_id', 'in', before)
          .execute();
        return rows.length === before.length && rows.every((r) => r.attempts >= 1);
      },
      'a failed first attempt of every delivery',
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    first.child.kill('SIGKILL');
    await first.exited;

    // Events that no fan-out has read yet.
    const after: string[] = [];
    for (let i = 0; i < 10; i++) after.push(await recordEvent(db, platformId, 'legal_entity.updated', { id: `le_after_${i}` }));
    receiver.answer(() => ({ kind: 'ok' }));

    const second = await serve();
    const everyEvent = [...before, ...after];
    await waitUntil(
      () => {
        const accepted = new Set(
          receiver.received.filter((r) => r.answeredWith === 'ok' && r.verified.ok).map((r) => r.headers['webhook-id']),
        );
        return everyEvent.every((id) => accepted.has(id));
      },
      'every event to arrive, verified, and be accepted',
      { timeoutMs: 300_000, intervalMs: 200 },
    );
    const rows = await waitUntil(
      async () => {
        const found = await db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'status'])
          .where('endpoint_id', '=', endpoint.id)
          .where('event_id', 'in', everyEvent)
          .execute();
        return found.length === everyEvent.length && found.every((r) => r.status === 'succeeded') && found;
      },
      'every delivery recorded as succeeded',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    expect(rows.map((r) => r.event_id).sort()).toEqual([...everyEvent].sort());
    expect(receiver.received.every((r) => r.verified.ok)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
