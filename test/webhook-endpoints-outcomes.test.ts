import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../src/crypto/vault.js';
import { createWebhooksModule } from '../src/modules/webhooks/index.js';
import { createPlatform, createTestApp, json, TEST_VAULT_KEY, type TestApp } from './helpers/app.js';

describe('webhook endpoints: delivery outcomes counted under the row lock, and the disabling they lead to', () => {
  let t: TestApp;
  let apiKey: string;
  const module = (settings: { disableAfterHours: number; disableAfterFailures: number }) =>
    createWebhooksModule({
      db: t.db,
      vault: createVault([TEST_VAULT_KEY]),
      settings: { ...t.config.webhooks, ...settings },
      production: false,
    }).endpointsForDelivery;
  const create = async () =>
    json(
      await t.app.inject({
        method: 'POST',
        url: '/v2/webhook_endpoints',
        headers: { authorization: apiKey },
        payload: { url: 'https://93.184.216.34/h' },
      }),
    );
  const read = async (id: string) => json(await t.app.inject({ url: `/v2/webhook_endpoints/${id}`, headers: { authorization: apiKey } }));

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(() => t.close());

  it('concurrent failures each count once (every outcome in its own transaction)', async () => {
    const { id } = await create();
    const endpoints = module({ disableAfterHours: 1000, disableAfterFailures: 1000 });
    const at = new Date();
    await Promise.all(
      Array.from({ length: 12 }, () =>
        t.db.transaction().execute((trx) => endpoints.recordOutcome(trx, id, { ok: false, at, error: 'HTTP 500' })),
      ),
    );
    const row = await t.db
      .selectFrom('webhook_endpoints')
      .select(['consecutive_failures', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ consecutive_failures: 12, status: 'enabled' });
    expect((await read(id)).failing_since).toBe(at.toISOString());
  });

  it('sustained failure disables the endpoint with its reason; it is then no delivery target until enabled', async () => {
    const { id } = await create();
    const endpoints = module({ disableAfterHours: 0, disableAfterFailures: 3 });
    const start = Date.now() - 3_600_000;
    for (const [minutes, error] of [
      [0, 'HTTP 500'],
      [10, 'timeout after 10000 ms'],
      [20, 'HTTP 503'],
    ] as const) {
      await t.db
        .transaction()
        .execute((trx) => endpoints.recordOutcome(trx, id, { ok: false, at: new Date(start + minutes * 60_000), error }));
    }
    const disabled = await read(id);
    expect(disabled).toMatchObject({
      status: 'disabled',
      failing_since: new Date(start).toISOString(),
      disabled_at: new Date(start + 20 * 60_000).toISOString(),
      disabled_reason: `no successful delivery since ${new Date(start).toISOString()} (3 attempts failed; last: HTTP 503)`,
    });
    expect(await endpoints.target(t.db, id)).toBeNull();

    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/v2/webhook_endpoints/${id}`,
      headers: { authorization: apiKey },
      payload: { status: 'enabled' },
    });
    expect(json(enabled)).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
    // A success afterwards is recorded as the last success.
    const success = new Date();
    await endpoints.recordOutcome(t.db, id, { ok: true, at: success });
    expect(await read(id)).toMatchObject({ last_success_at: success.toISOString(), failing_since: null, status: 'enabled' });
  });

  it('a rolled-back transaction counts nothing', async () => {
    const { id } = await create();
    const endpoints = module({ disableAfterHours: 0, disableAfterFailures: 1 });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await endpoints.recordOutcome(trx, id, { ok: false, at: new Date(Date.now() - 60_000), error: 'HTTP 500' });
        throw new Error('the attempt record failed');
      }),
    ).rejects.toThrow('the attempt record failed');
    expect(await read(id)).toMatchObject({ status: 'enabled', failing_since: null });
  });
});
