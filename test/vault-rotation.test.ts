import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault, vaultKeyId } from '../src/modules/accounts/vault.js';
import { TEST_VAULT_KEY, createPlatform, createTestApp, signupEntity, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';

describe('vault key rotation: statehouse logins reencrypt', () => {
  let t: TestApp;
  let entityId: string;
  const newKey = randomBytes(32);
  const secrets = { username: 'rotating-user', password: 'rotate-me-please', totp_seed: 'JBSWY3DPEHPK3PXP' };

  beforeAll(async () => {
    t = await createTestApp();
    const { apiKey } = await createPlatform(t.db);
    entityId = await signupEntity(t.app, apiKey);
    for (const name of ['EDD', 'FTB', 'SOS']) {
      await t.app.services.accounts.createLogin(entityId, { region_code: 'CA', name, login_url: 'https://example.gov/', secrets });
    }
  });
  afterAll(async () => t.close());

  it('re-seals every secret under the new key, so the old key can be dropped', async () => {
    const env = { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: `${newKey.toString('base64')},${TEST_VAULT_KEY.toString('base64')}` };
    const first = await runCli(['logins', 'reencrypt', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ reencrypted: 3, alreadyCurrent: 0, instanceKeysResealed: 3 });
    const rows = await t.db.selectFrom('account_logins').selectAll().execute();
    expect(new Set(rows.map((r) => r.key_id))).toEqual(new Set([vaultKeyId(newKey)]));
    const onlyNew = createVault([newKey]);
    for (const row of rows) {
      expect(onlyNew.open({ ciphertext: row.secret_ciphertext, iv: row.secret_iv, tag: row.secret_tag, keyId: row.key_id, aadVersion: 2 }, row.id)).toEqual(secrets);
    }
    const again = await runCli(['logins', 'reencrypt', '--json'], env);
    expect(JSON.parse(again.stdout)).toEqual({ reencrypted: 0, alreadyCurrent: 3, instanceKeysResealed: 0 });
    expect(new Set((await t.db.selectFrom('instance_secrets').select('key_id').execute()).map((r) => r.key_id))).toEqual(new Set([vaultKeyId(newKey)]));
  });

  it('fails clearly, changing nothing, when a secret’s key is not configured', async () => {
    const before = await t.db.selectFrom('account_logins').select(['id', 'key_id']).orderBy('id').execute();
    const result = await runCli(['logins', 'reencrypt'], { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: randomBytes(32).toString('base64') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`no configured vault key has id ${vaultKeyId(newKey)}`);
    expect(result.stderr).not.toContain(secrets.password);
    expect(await t.db.selectFrom('account_logins').select(['id', 'key_id']).orderBy('id').execute()).toEqual(before);
  });
});
