import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { vaultKeyId } from '../src/crypto/vault.js';
import { createAccessTokens, fixedSigningKeys } from '../src/modules/auth/access-tokens.js';
import { INSTANCE_KEY } from '../src/modules/system/contract.js';
import { TEST_VAULT_KEY, accessToken, bearer, createPlatform, createTestApp, signupEntity, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';

/** Instance keys (token signing, CSRF, file links) at rest: sealed with the vault key, rotated without logging anyone out. */
describe('instance keys', () => {
  let t: TestApp;
  let apiKey: string;
  let apiKeyId: string;
  let platformId: string;
  let entityId: string;
  const apps: FastifyInstance[] = [];

  /** Another process over the same database, with the given vault keys. */
  const anotherApp = async (vaultKeys: Buffer[]) => {
    const app = await buildApp({ config: t.config, db: t.db, logger: false, vaultKeys, catalog: t.app.services.catalog });
    apps.push(app);
    return app;
  };
  const forge = async (key: Buffer) =>
    (
      await createAccessTokens({ keys: fixedSigningKeys([key]), ttlSeconds: 600, apiKeyActive: async () => true }).issue({
        platformId,
        legalEntityId: entityId,
        apiKeyId,
      })
    ).token;
  const status = async (app: FastifyInstance, token: string) =>
    (await app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, apiKeyId, platformId } = await createPlatform(t.db));
    entityId = await signupEntity(t.app, apiKey);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t.close();
  });

  it('the database holds no key that signs a token: every row is sealed, and its bytes forge nothing', async () => {
    const rows = await t.db.selectFrom('instance_secrets').selectAll().execute();
    expect(rows.map((r) => r.name).sort()).toEqual(Object.values(INSTANCE_KEY).sort());
    for (const row of rows) {
      expect(row.key_id).toBe(vaultKeyId(TEST_VAULT_KEY));
      expect(row.iv).toHaveLength(12);
      expect(row.tag).toHaveLength(16);
      expect(await status(t.app, await forge(row.value))).toBe(401);
    }
    expect(await status(t.app, await accessToken(t.app, apiKey, entityId))).toBe(200);
  });

  it('a sealed key moved onto another key’s row does not open: the associated data names the row', async () => {
    const rows = await t.db.selectFrom('instance_secrets').selectAll().execute();
    const csrf = rows.find((r) => r.name === INSTANCE_KEY.csrf)!;
    const signing = rows.find((r) => r.name === INSTANCE_KEY.accessTokens)!;
    await t.db
      .updateTable('instance_secrets')
      .set({ value: csrf.value, iv: csrf.iv, tag: csrf.tag })
      .where('name', '=', signing.name)
      .execute();
    await expect(anotherApp([TEST_VAULT_KEY])).rejects.toThrow(/instance key 'access-token-signing-key' cannot be opened/);
    await t.db
      .updateTable('instance_secrets')
      .set({ value: signing.value, iv: signing.iv, tag: signing.tag })
      .where('name', '=', signing.name)
      .execute();
  });

  it('a plaintext key from before is sealed at start and keeps the tokens it signed valid', async () => {
    const legacyKey = randomBytes(32);
    await t.db
      .updateTable('instance_secrets')
      .set({ value: legacyKey, iv: null, tag: null, key_id: null })
      .where('name', '=', INSTANCE_KEY.accessTokens)
      .execute();
    const app = await anotherApp([TEST_VAULT_KEY]);
    const row = await t.db
      .selectFrom('instance_secrets')
      .selectAll()
      .where('name', '=', INSTANCE_KEY.accessTokens)
      .executeTakeFirstOrThrow();
    expect(row.key_id).toBe(vaultKeyId(TEST_VAULT_KEY));
    expect(row.value.equals(legacyKey)).toBe(false);
    // Same key, now sealed: what it signed before still works, and the stored bytes forge nothing.
    expect(await status(app, await forge(legacyKey))).toBe(200);
    expect(await status(app, await forge(row.value))).toBe(401);
    expect(await status(await anotherApp([TEST_VAULT_KEY]), await forge(legacyKey))).toBe(200);
  }, 120_000);

  it('rotating the vault key keeps live tokens valid; the old vault key can then be dropped', async () => {
    const token = await accessToken(await anotherApp([TEST_VAULT_KEY]), apiKey, entityId);
    const newKey = randomBytes(32);
    const result = await runCli(['vault', 'reencrypt', '--json'], {
      DATABASE_URL: t.url,
      STATEHOUSE_VAULT_KEY: `${newKey.toString('base64')},${TEST_VAULT_KEY.toString('base64')}`,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ instanceKeysResealed: 3 });
    const keyIds = (await t.db.selectFrom('instance_secrets').select('key_id').execute()).map((r) => r.key_id);
    expect(new Set(keyIds)).toEqual(new Set([vaultKeyId(newKey)]));
    const rotated = await anotherApp([newKey]);
    expect(await status(rotated, token)).toBe(200);
    // Without the vault key the sealed keys are useless: a process with another key refuses to start.
    await expect(anotherApp([randomBytes(32)])).rejects.toThrow(/cannot be opened: no configured vault key has id/);
    // Put the test key back for the other tests.
    const back = await runCli(['logins', 'reencrypt', '--json'], {
      DATABASE_URL: t.url,
      STATEHOUSE_VAULT_KEY: `${TEST_VAULT_KEY.toString('base64')},${newKey.toString('base64')}`,
    });
    expect(back.code, back.stderr).toBe(0);
  }, 180_000);

  it('rotating the signing key: new tokens use the new key, tokens of the previous key stay valid until the next rotation', async () => {
    const before = await accessToken(await anotherApp([TEST_VAULT_KEY]), apiKey, entityId);
    const env = { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') };
    const first = await runCli(['tokens', 'rotate-key'], env);
    expect(first.code, first.stderr).toBe(0);
    const restarted = await anotherApp([TEST_VAULT_KEY]);
    expect(await status(restarted, before)).toBe(200);
    const after = await accessToken(restarted, apiKey, entityId);
    expect(await status(restarted, after)).toBe(200);
    const names = await t.db.selectFrom('instance_secrets').select(['name', 'key_id']).execute();
    expect(names.find((r) => r.name === `${INSTANCE_KEY.accessTokens}.previous`)?.key_id).toBe(vaultKeyId(TEST_VAULT_KEY));

    const second = await runCli(['tokens', 'rotate-key'], env);
    expect(second.code, second.stderr).toBe(0);
    const again = await anotherApp([TEST_VAULT_KEY]);
    expect(await status(again, after)).toBe(200);
    expect(await status(again, before)).toBe(401);
  }, 180_000);
});
