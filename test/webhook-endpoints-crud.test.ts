import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../src/crypto/vault.js';
import { createWebhooksModule } from '../src/modules/webhooks/index.js';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, TEST_VAULT_KEY, type TestApp } from './helpers/app.js';

/** A public address literal: accepted without DNS (the destination guard's own cases are in webhook-endpoints-refusals). */
const RECEIVER = 'https://93.184.216.34/hooks/statehouse';

describe('webhook endpoints: create, read, change, rotate the secret, delete', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  const key = () => ({ authorization: apiKey });
  const endpoints = () =>
    createWebhooksModule({ db: t.db, vault: createVault([TEST_VAULT_KEY]), settings: t.config.webhooks, production: false })
      .endpointsForDelivery;
  const create = async (body: Record<string, unknown>, headers = key()) => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/webhook_endpoints', headers, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return json(res);
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, platformId } = await createPlatform(t.db));
  });
  afterAll(() => t.close());

  it('creates an endpoint and shows its secret once, in the Standard Webhooks format', async () => {
    const created = await create({
      url: RECEIVER,
      event_types: ['task.created', 'task.updated', 'task.created'],
      description: '  Compliance sync  ',
    });
    expect(created).toMatchObject({
      url: RECEIVER,
      description: 'Compliance sync',
      event_types: ['task.created', 'task.updated'],
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      last_success_at: null,
    });
    expect(created.id).toMatch(/^we_[0-9a-z]{24}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const one = await t.app.inject({ url: `/v2/webhook_endpoints/${created.id}`, headers: key() });
    expect(one.statusCode).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(json(one)).toEqual(withoutSecret);
    const list = await t.app.inject({ url: '/v2/webhook_endpoints', headers: key() });
    expect(json(list)).toEqual([withoutSecret]);
    expect(list.body).not.toContain(created.secret);

    // Stored sealed: the secret's text is nowhere in the database row, yet deliveries can sign with it.
    const rows = await t.db.selectFrom('webhook_endpoint_secrets').selectAll().where('endpoint_id', '=', created.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed.toString('latin1')).not.toContain(created.secret.slice(6));
    expect(await endpoints().signingSecrets(t.db, created.id)).toEqual([created.secret]);
  });

  it('event_types left out or null: every type', async () => {
    expect((await create({ url: RECEIVER })).event_types).toBeNull();
    expect((await create({ url: RECEIVER, event_types: null, description: null })).event_types).toBeNull();
  });

  it('changes only the fields sent; null event_types subscribes to every type', async () => {
    const created = await create({ url: RECEIVER, event_types: ['mail.received'], description: 'first' });
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/v2/webhook_endpoints/${created.id}`, headers: key(), payload });

    const moved = await patch({ url: 'https://93.184.216.35/other' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(json(moved)).toMatchObject({ url: 'https://93.184.216.35/other', event_types: ['mail.received'], description: 'first' });
    expect(new Date(json(moved).updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.updated_at).getTime());

    expect(json(await patch({ event_types: null, description: null }))).toMatchObject({
      event_types: null,
      description: null,
      url: 'https://93.184.216.35/other',
    });
    expect(json(await patch({}))).toMatchObject({ event_types: null });

    const subscribed = await endpoints().subscribedTo(t.db, platformId, 'location.updated');
    expect(subscribed.map((e) => e.id)).toContain(created.id);
  });

  it('disables and enables: enabling forgets the failures and the reason', async () => {
    const created = await create({ url: RECEIVER });
    const delivery = endpoints();
    const at = new Date();
    await delivery.recordOutcome(t.db, created.id, { ok: false, at, error: 'HTTP 500' });
    await delivery.recordOutcome(t.db, created.id, { ok: false, at, error: 'HTTP 502' });

    const disabled = await t.app.inject({
      method: 'PATCH',
      url: `/v2/webhook_endpoints/${created.id}`,
      headers: key(),
      payload: { status: 'disabled' },
    });
    expect(json(disabled)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'disabled through the API',
      failing_since: at.toISOString(),
    });
    expect(json(disabled).disabled_at).not.toBeNull();
    expect(await delivery.target(t.db, created.id)).toBeNull();
    expect((await delivery.subscribedTo(t.db, platformId, 'task.created')).map((e) => e.id)).not.toContain(created.id);

    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/v2/webhook_endpoints/${created.id}`,
      headers: key(),
      payload: { status: 'enabled' },
    });
    expect(json(enabled)).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null, failing_since: null });
    const row = await t.db
      .selectFrom('webhook_endpoints')
      .select('consecutive_failures')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.consecutive_failures).toBe(0);
    expect(await delivery.target(t.db, created.id)).toEqual({ id: created.id, platformId, url: RECEIVER });
  });

  it('rotates the secret: during the overlap both secrets sign, and each verifies with standardwebhooks', async () => {
    const created = await create({ url: RECEIVER });
    const res = await t.app.inject({ method: 'POST', url: `/v2/webhook_endpoints/${created.id}/secret/rotate`, headers: key() });
    expect(res.statusCode, res.body).toBe(200);
    const rotated = json(res);
    expect(rotated.id).toBe(created.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const overlapMs = new Date(rotated.previous_secret_expires_at).getTime() - Date.now();
    expect(overlapMs).toBeGreaterThan(86_400_000 - 600_000);
    expect(overlapMs).toBeLessThanOrEqual(86_400_000 + 600_000);

    const secrets = await endpoints().signingSecrets(t.db, created.id);
    expect(secrets).toEqual([rotated.secret, created.secret]);
    // What a delivery sends: one signature per secret; a receiver that knows either secret accepts it.
    const payload = JSON.stringify({ id: 'evt_sample', type: 'task.created', data: { object: {} } });
    const timestamp = new Date();
    const signature = secrets.map((s) => new Webhook(s).sign('evt_sample', timestamp, payload)).join(' ');
    const headers = {
      'webhook-id': 'evt_sample',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    for (const secret of [created.secret, rotated.secret])
      expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(payload, headers)).toThrow();

    // GET still never shows either secret.
    const read = await t.app.inject({ url: `/v2/webhook_endpoints/${created.id}`, headers: key() });
    expect(read.body).not.toContain(rotated.secret.slice(6));
    expect(read.body).not.toContain(created.secret.slice(6));
  });

  it('rotating with expire_previous_after_seconds 0 ends the previous secret now; a second rotation keeps the one it rotates out', async () => {
    const created = await create({ url: RECEIVER });
    const rotate = async (payload?: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v2/webhook_endpoints/${created.id}/secret/rotate`,
        headers: key(),
        ...(payload && { payload }),
      });
      expect(res.statusCode, res.body).toBe(200);
      return json(res);
    };
    const first = await rotate({ expire_previous_after_seconds: 0 });
    expect(await endpoints().signingSecrets(t.db, created.id)).toEqual([first.secret]);
    const second = await rotate({ expire_previous_after_seconds: 3600 });
    expect(await endpoints().signingSecrets(t.db, created.id)).toEqual([second.secret, first.secret]);
    // Expired secrets are dropped at the next rotation: only the current and the overlapping ones are kept.
    const count = await t.db
      .selectFrom('webhook_endpoint_secrets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('endpoint_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it('deletes: 204, then 404, gone from the list, and no longer a delivery target nor signing', async () => {
    const created = await create({ url: RECEIVER });
    const res = await t.app.inject({ method: 'DELETE', url: `/v2/webhook_endpoints/${created.id}`, headers: key() });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    for (const [method, url] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/secret/rotate'],
    ] as const) {
      const again = await t.app.inject({
        method,
        url: `/v2/webhook_endpoints/${created.id}${url}`,
        headers: key(),
        ...(method === 'PATCH' && { payload: {} }),
      });
      expect(again.statusCode, `${method} ${url}`).toBe(404);
      expect(json(again)).toEqual({ detail: `Webhook endpoint '${created.id}' not found` });
    }
    expect(json(await t.app.inject({ url: '/v2/webhook_endpoints', headers: key() })).map((e: { id: string }) => e.id)).not.toContain(
      created.id,
    );
    expect(await endpoints().target(t.db, created.id)).toBeNull();
    expect(await endpoints().signingSecrets(t.db, created.id)).toEqual([]);
  });

  it("keeps platforms apart: another platform's endpoint is a 404 on every operation, and lists hold only its own", async () => {
    const mine = await create({ url: RECEIVER });
    const other = await createPlatform(t.db, 'Other Payroll');
    const theirs = await create({ url: RECEIVER }, { authorization: other.apiKey });
    const theirKey = { authorization: other.apiKey };
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PATCH', '', { status: 'disabled' }],
      ['DELETE', '', undefined],
      ['POST', '/secret/rotate', {}],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/v2/webhook_endpoints/${mine.id}${suffix}`,
        headers: theirKey,
        ...(payload && { payload }),
      });
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
    const theirList = json(await t.app.inject({ url: '/v2/webhook_endpoints', headers: theirKey }));
    expect(theirList.map((e: { id: string }) => e.id)).toEqual([theirs.id]);
    expect(json(await t.app.inject({ url: `/v2/webhook_endpoints/${mine.id}`, headers: key() })).status).toBe('enabled');
    expect((await endpoints().subscribedTo(t.db, other.platformId, 'task.created')).map((e) => e.id)).toEqual([theirs.id]);
  });

  it('needs the platform API key: none is a 401, an entity access token is refused as it is on other API-key routes', async () => {
    const { token } = await createPlatformWithEntity(t, 'Token Platform');
    for (const headers of [{}, bearer(token), { authorization: 'not-a-key' }]) {
      for (const [method, url] of [
        ['GET', '/v2/webhook_endpoints'],
        ['POST', '/v2/webhook_endpoints'],
        ['GET', '/v2/webhook_endpoints/we_x'],
        ['DELETE', '/v2/webhook_endpoints/we_x'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers, ...(method === 'POST' && { payload: { url: RECEIVER } }) });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    // The same answer as another /v2 API-key-only operation gives a token (a 401's body is the same across a path family).
    const ours = await t.app.inject({ url: '/v2/webhook_endpoints', headers: bearer(token) });
    const theirs = await t.app.inject({ method: 'POST', url: '/v2/auth', headers: bearer(token), payload: { legal_entity_id: 'le_x' } });
    expect([ours.statusCode, json(ours), ours.headers['www-authenticate']]).toEqual([
      theirs.statusCode,
      json(theirs),
      theirs.headers['www-authenticate'],
    ]);
  });
});
