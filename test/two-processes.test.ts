import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../src/db/database.js';
import { createPlatform, TEST_VAULT_KEY, VALID_SIGNUP_V2 } from './helpers/app.js';
import { createVault } from '../src/crypto/vault.js';
import { createAccessTokens, fixedSigningKeys } from '../src/modules/auth/access-tokens.js';
import { INSTANCE_KEY } from '../src/modules/system/contract.js';
import { createInstanceKeys } from '../src/modules/system/instance-keys.js';
import { runCli, startServe, type ServeProcess } from './helpers/cli.js';
import { BUSINESS_STEP, csrfOf } from './helpers/hosted.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';
import { waitUntil } from './helpers/wait.js';

const PUBLIC_BASE_URL = 'http://statehouse.test';
type Task = { id: string; status: string };

/**
 * Issue 15's CI test: two `statehouse serve` processes on one database behave as one service (docs/scaling.md).
 * A write through one is seen at once through the other, a revoked key is refused by both, a signing-key rotation
 * needs no restart, a hosted session opened on one continues on the other, and a scheduled job runs once per tick
 * across the two.
 */
describe('two `statehouse serve` processes on one database', { timeout: 300_000 }, () => {
  let url: string;
  let dataDir: string;
  let db: Db;
  let a: ServeProcess;
  let b: ServeProcess;
  let platform: Awaited<ReturnType<typeof createPlatform>>;
  const startedAt = new Date();

  const call = async (server: ServeProcess, method: string, pathName: string, authorization: string, body?: unknown) => {
    const res = await fetch(`${server.url}${pathName}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  const ok = async (...args: Parameters<typeof call>) => {
    const res = await call(...args);
    if (res.status >= 300) throw new Error(`${args[1]} ${args[2]}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-two-processes-'));
    db = createDb(url, 2);
    platform = await createPlatform(db, 'Twin Payroll');
    const env = {
      DATABASE_URL: url,
      STATEHOUSE_DATA_DIR: dataDir,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      PUBLIC_BASE_URL,
      LOG_LEVEL: 'warn',
    };
    [a, b] = await Promise.all([startServe(env), startServe(env)]);
  });
  afterAll(async () => {
    for (const server of [a, b])
      if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
    await Promise.all([a?.exited, b?.exited]);
    await db?.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a location added through A is in the task list B serves next, though B had the list cached', async () => {
    const { legal_entity_id: entityId } = await ok(a, 'POST', '/v2/signup', platform.apiKey, VALID_SIGNUP_V2);
    const { access_token: token } = await ok(b, 'POST', '/v2/auth', platform.apiKey, { legal_entity_id: entityId });
    const auth = `Bearer ${token}`;
    const before = (await ok(b, 'GET', '/v2/tasks', auth)) as Task[];
    expect(await ok(b, 'GET', '/v2/tasks', auth)).toEqual(before); // cached by B
    await ok(a, 'PUT', '/locations/CA', auth, { config: { has_employees: true, has_physical_location: true } });
    const after = (await ok(b, 'GET', '/v2/tasks', auth)) as Task[];
    expect(after.length).toBeGreaterThan(before.length);
    expect(JSON.stringify(before)).not.toContain('"name":"California"');
    expect(JSON.stringify(after)).toContain('"name":"California"');
  });

  it('a revoked API key, and a token it requested, are refused by both at once', async () => {
    const spare = await platform.service.rotateKey(platform.platformId);
    const { legal_entity_id: entityId } = await ok(b, 'POST', '/v2/signup', platform.apiKey, VALID_SIGNUP_V2);
    const { access_token: token } = await ok(a, 'POST', '/v2/auth', platform.apiKey, { legal_entity_id: entityId });
    for (const server of [a, b]) expect((await call(server, 'GET', '/v2/legal_entity', `Bearer ${token}`)).status).toBe(200);
    await platform.service.revokeKey(platform.apiKeyId);
    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/v2/legal_entity', `Bearer ${token}`);
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toMatch(/revoked/);
      expect((await call(server, 'POST', '/v2/auth', platform.apiKey, { legal_entity_id: entityId })).status).toBe(403);
      expect((await call(server, 'POST', '/v2/auth', spare.key, { legal_entity_id: entityId })).status).toBe(200);
    }
    platform = { ...platform, apiKey: spare.key, apiKeyId: spare.id };
  });

  it('`statehouse tokens rotate-key` while both run: both sign with the new key without a restart, and accept each other’s tokens', async () => {
    const { legal_entity_id: entityId } = await ok(a, 'POST', '/v2/signup', platform.apiKey, VALID_SIGNUP_V2);
    const mint = async (server: ServeProcess) =>
      (await ok(server, 'POST', '/v2/auth', platform.apiKey, { legal_entity_id: entityId })).access_token as string;
    const before = [await mint(a), await mint(b)];
    const rotated = await runCli(['tokens', 'rotate-key'], {
      DATABASE_URL: url,
      STATEHOUSE_DATA_DIR: dataDir,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    const newKey = await createInstanceKeys(db, createVault([TEST_VAULT_KEY])).get(INSTANCE_KEY.accessTokens);
    const signedWithNewKey = (token: string) =>
      createAccessTokens({ keys: fixedSigningKeys([newKey]), ttlSeconds: 600, apiKeyActive: async () => true })
        .verify(`Bearer ${token}`)
        .then(
          () => true,
          () => false,
        );
    const after = [];
    for (const server of [a, b]) {
      after.push(
        await waitUntil(async () => {
          const token = await mint(server);
          return (await signedWithNewKey(token)) && token;
        }, 'tokens signed with the new key'),
      );
    }
    for (const server of [a, b]) {
      for (const token of [...before, ...after])
        expect((await call(server, 'GET', '/v2/legal_entity', `Bearer ${token}`)).status).toBe(200);
    }
  });

  it('a hosted link opened on A continues on B: the session and its CSRF token are the installation’s', async () => {
    const { url: link } = await ok(a, 'POST', '/accounts/signup/sessions', platform.apiKey, {
      business_name: 'Relay Florists',
      user_email: 'relay@example.com',
      callback_url: 'https://platform.example/done',
    });
    const linkPage = await fetch(`${a.url}${new URL(link).pathname}`);
    const token = /name="token" value="([^"]+)"/.exec(await linkPage.text())?.[1];
    expect(token).toBeDefined();
    const opened = await fetch(`${a.url}/hosted/s`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ token: token! }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_BASE_URL },
    });
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const form = await fetch(`${a.url}/hosted/signup/business`, { headers: { cookie } });
    expect(form.status).toBe(200);
    const csrf = csrfOf(await form.text());
    expect(csrf).not.toBeNull();
    const posted = await fetch(`${b.url}/hosted/signup/business`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ...BUSINESS_STEP, business_name: 'Relay Florists', _csrf: csrf! }).toString(),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_BASE_URL },
    });
    expect(posted.status, await posted.text()).toBe(303);
    const entity = await db.selectFrom('legal_entities').selectAll().where('business_name', '=', 'Relay Florists').executeTakeFirst();
    expect(entity).toMatchObject({ entity_type: 'llc' });
  });

  it('a scheduled job runs once per tick across the two (the per-minute automation sweep, two ticks)', async () => {
    const sweeps = async () =>
      (
        await sql<{ id: string; state: string; created_on: Date }>`
      select id, state, created_on from pgboss.job where name = 'automations.sweep' and created_on >= ${startedAt} order by created_on`.execute(
          db,
        )
      ).rows;
    const ticks = async () =>
      (
        await sql<{ singleton_on: Date }>`
      select singleton_on from pgboss.job where name = '__pgboss__send-it' and singleton_key = 'automations.sweep' and created_on >= ${startedAt}`.execute(
          db,
        )
      ).rows;
    // Two minute marks while both run (pg-boss checks its schedules every 30 s in each process).
    const done = await waitUntil(
      async () => {
        const rows = await sweeps();
        return rows.filter((r) => r.state === 'completed').length >= 2 && rows;
      },
      'two completed sweeps',
      { timeoutMs: 240_000, intervalMs: 1000 },
    );
    const sent = await ticks();
    // One send per minute mark, and one sweep per send: neither process sent a tick the other had sent.
    expect(new Set(sent.map((t) => t.singleton_on.toISOString())).size).toBe(sent.length);
    expect((await sweeps()).length).toBe(sent.length);
    expect(done.length).toBeGreaterThanOrEqual(2);
    // Both report the same installation-wide queue figures, and say how to aggregate them.
    const scrape = async (server: ServeProcess) => (await fetch(`${server.url}/metrics`)).text();
    const [fromA, fromB] = await Promise.all([scrape(a), scrape(b)]);
    const failedSweeps = (text: string) => /^statehouse_job_queue_failed_jobs\{queue="automations.sweep"\} (\d+)$/m.exec(text)?.[1];
    expect(failedSweeps(fromA)).toBeDefined();
    expect(failedSweeps(fromA)).toBe(failedSweeps(fromB));
    expect(fromA).toMatch(/# HELP statehouse_job_queue_waiting_jobs .*aggregate with max, not sum/);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });
});
