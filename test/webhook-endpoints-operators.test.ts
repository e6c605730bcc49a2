import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../src/crypto/vault.js';
import { createWebhooksModule } from '../src/modules/webhooks/index.js';
import { createPlatform, createTestApp, json, TEST_VAULT_KEY, type TestApp } from './helpers/app.js';
import { createOperatorKey } from './helpers/back-office.js';
import { runCli } from './helpers/cli.js';

const RECEIVER = 'https://93.184.216.34/hooks';

interface AuditEvent {
  action: string;
  operator: { key_id: string; name: string };
  subject: { type: string; id: string };
  details: Record<string, unknown>;
}

describe('webhook endpoints for operators: the operator API (audited) and the CLI', () => {
  let t: TestApp;
  let operatorKey: string;
  let operatorKeyId: string;
  let a: Awaited<ReturnType<typeof createPlatform>>;
  let b: Awaited<ReturnType<typeof createPlatform>>;
  let env: Record<string, string>;
  const op = () => ({ authorization: `Bearer ${operatorKey}` });
  const create = async (apiKey: string, url = RECEIVER) => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/webhook_endpoints', headers: { authorization: apiKey }, payload: { url } });
    expect(res.statusCode, res.body).toBe(201);
    return json(res);
  };
  const audit = async (): Promise<AuditEvent[]> => json(await t.app.inject({ url: '/operator/v1/audit-events', headers: op() })).events;
  const cli = async (args: string[], expectCode = 0) => {
    const result = await runCli(['webhooks', ...args], env);
    expect(result.code, result.stderr).toBe(expectCode);
    return result;
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'statehouse-webhooks-'));
    t = await createTestApp({ dataDir });
    ({ key: operatorKey, id: operatorKeyId } = await createOperatorKey(t.db, 'Grace'));
    a = await createPlatform(t.db, 'Platform A');
    b = await createPlatform(t.db, 'Platform B');
    env = { DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dataDir, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') };
  });
  afterAll(() => t.close());

  it("lists every platform's endpoints, or one platform's, with their platform and failure count", async () => {
    const first = await create(a.apiKey);
    const second = await create(b.apiKey);
    const all = json(await t.app.inject({ url: '/operator/v1/webhook_endpoints', headers: op() }));
    expect(all.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    const onlyB = json(await t.app.inject({ url: `/operator/v1/webhook_endpoints?platform_id=${b.platformId}`, headers: op() }));
    expect(onlyB).toEqual(
      [{ ...second, secret: undefined, platform_id: b.platformId, consecutive_failures: 0 }].map(({ secret: _, ...e }) => e),
    );
    // A platform key is not an operator key.
    expect(
      (await t.app.inject({ url: '/operator/v1/webhook_endpoints', headers: { authorization: `Bearer ${a.apiKey}` } })).statusCode,
    ).toBe(401);
  });

  it('disables with a reason and enables again, each recorded in the audit trail', async () => {
    const endpoint = await create(a.apiKey);
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/operator/v1/webhook_endpoints/${endpoint.id}`, headers: op(), payload });

    const disabled = await patch({ status: 'disabled', reason: 'Receiver answers 500 to everything; platform notified' });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(json(disabled)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'Receiver answers 500 to everything; platform notified',
      platform_id: a.platformId,
    });
    // The platform sees why.
    const seen = json(await t.app.inject({ url: `/v2/webhook_endpoints/${endpoint.id}`, headers: { authorization: a.apiKey } }));
    expect(seen.disabled_reason).toBe('Receiver answers 500 to everything; platform notified');

    const enabled = await patch({ status: 'enabled' });
    expect(json(enabled)).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null });
    const withoutReason = await patch({ status: 'disabled' });
    expect(json(withoutReason).disabled_reason).toBe('disabled by an operator (Grace)');

    // Newest first.
    const trail = (await audit()).filter((e) => e.subject.id === endpoint.id);
    expect(trail.map((e) => [e.action, e.subject.type])).toEqual([
      ['webhook_endpoint.disable', 'webhook_endpoint'],
      ['webhook_endpoint.enable', 'webhook_endpoint'],
      ['webhook_endpoint.disable', 'webhook_endpoint'],
    ]);
    for (const e of trail) expect(e.operator).toEqual({ key_id: operatorKeyId, name: 'Grace' });
    expect(trail[2]!.details).toEqual({
      platform_id: a.platformId,
      previous_status: 'enabled',
      reason: 'Receiver answers 500 to everything; platform notified',
    });
    expect(trail[1]!.details).toEqual({ platform_id: a.platformId, previous_status: 'disabled' });
    expect(trail[0]!.details).toEqual({ platform_id: a.platformId, previous_status: 'enabled' });
  });

  it('refuses bad operator input and unknown endpoints, auditing nothing', async () => {
    const before = (await audit()).length;
    const endpoint = await create(a.apiKey);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/operator/v1/webhook_endpoints/${endpoint.id}`,
      headers: op(),
      payload: { status: 'paused' },
    });
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0]).toMatchObject({ type: 'enum', loc: ['body', 'status'] });
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/operator/v1/webhook_endpoints/we_nope',
      headers: op(),
      payload: { status: 'disabled' },
    });
    expect(missing.statusCode).toBe(404);
    expect(json(missing)).toEqual({ detail: "Webhook endpoint 'we_nope' not found" });
    expect((await audit()).length).toBe(before);
  });

  it('CLI: add prints the secret once (it signs deliveries), list shows it, disable/enable/delete change it', async () => {
    const added = await cli([
      'add',
      a.platformId,
      'https://93.184.216.34/cli',
      '--event-type',
      'task.created',
      '--event-type',
      'mail.received',
      '--description',
      'From the CLI',
    ]);
    const lines = added.stdout.trim().split('\n');
    const secret = lines.at(-1)!;
    expect(secret).toMatch(/^whsec_/);
    const id = /Added webhook endpoint (we_\w+)/.exec(added.stdout)![1]!;

    const delivery = createWebhooksModule({
      db: t.db,
      vault: createVault([TEST_VAULT_KEY]),
      settings: t.config.webhooks,
      production: false,
    }).endpointsForDelivery;
    const [signing] = await delivery.signingSecrets(t.db, id);
    expect(signing).toBe(secret);
    const signature = new Webhook(secret).sign('msg_1', new Date(), '{}');
    expect(
      new Webhook(signing!).verify('{}', {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signature,
      }),
    ).toEqual({});

    const listed = JSON.parse((await cli(['list', '--platform', a.platformId, '--json'])).stdout);
    const entry = listed.find((e: { id: string }) => e.id === id);
    expect(entry).toMatchObject({
      url: 'https://93.184.216.34/cli',
      event_types: ['task.created', 'mail.received'],
      description: 'From the CLI',
      status: 'enabled',
    });
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    expect((await cli(['list'])).stdout).toContain(id);
    expect(JSON.parse((await cli(['list', '--platform', b.platformId, '--json'])).stdout).map((e: { id: string }) => e.id)).not.toContain(
      id,
    );

    expect(JSON.parse((await cli(['disable', id, '--reason', 'maintenance window', '--json'])).stdout)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'maintenance window',
    });
    expect((await cli(['enable', id])).stdout).toContain(`Enabled ${id}`);
    expect(await delivery.target(t.db, id)).toMatchObject({ id });
    await cli(['delete', id]);
    expect(await delivery.target(t.db, id)).toBeNull();
    const gone = await cli(['disable', id], 1);
    expect(gone.stderr).toContain(`Webhook endpoint '${id}' not found`);
  });

  it("CLI: the API's rules hold (destination guard, event types, unknown platform), in the CLI's words", async () => {
    const before = await t.db.selectFrom('webhook_endpoints').select('id').execute();
    const local = await cli(['add', a.platformId, 'http://localhost:8080/hook'], 1);
    expect(local.stderr).toMatch(/<url>: the destination is not allowed: localhost resolves to/);
    const unknownType = await cli(['add', a.platformId, RECEIVER, '--event-type', 'task.exploded'], 1);
    expect(unknownType.stderr).toContain("--event-type: unknown event type 'task.exploded'");
    const noPlatform = await cli(['add', 'plt_nope', RECEIVER], 1);
    expect(noPlatform.stderr).toContain("Platform 'plt_nope' not found");
    expect((await cli(['add', a.platformId], 2)).stderr).toContain('webhooks add needs <platform_id> <url>');
    expect((await cli(['frobnicate', 'x'], 2)).stderr).toContain('Unknown webhooks command');
    expect(await t.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual(before);
  });
});
