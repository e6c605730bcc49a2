import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault, loginSecretAad, vaultKeyId } from '../src/crypto/vault.js';
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
    expect(JSON.parse(first.stdout)).toEqual({
      reencrypted: 3,
      alreadyCurrent: 0,
      instanceKeysResealed: 3,
      automationInputsReencrypted: 0,
      calendarTokensReencrypted: 0,
    });
    const rows = await t.db.selectFrom('account_logins').selectAll().execute();
    expect(new Set(rows.map((r) => r.key_id))).toEqual(new Set([vaultKeyId(newKey)]));
    const onlyNew = createVault([newKey]);
    for (const row of rows) {
      expect(
        onlyNew.open(
          { ciphertext: row.secret_ciphertext, iv: row.secret_iv, tag: row.secret_tag, keyId: row.key_id, aadVersion: 2 },
          row.id,
        ),
      ).toEqual(secrets);
    }
    const again = await runCli(['logins', 'reencrypt', '--json'], env);
    expect(JSON.parse(again.stdout)).toEqual({
      reencrypted: 0,
      alreadyCurrent: 3,
      instanceKeysResealed: 0,
      automationInputsReencrypted: 0,
      calendarTokensReencrypted: 0,
    });
    expect(new Set((await t.db.selectFrom('instance_secrets').select('key_id').execute()).map((r) => r.key_id))).toEqual(
      new Set([vaultKeyId(newKey)]),
    );
  });

  it('fails clearly, changing nothing, when a secret’s key is not configured', async () => {
    const before = await t.db.selectFrom('account_logins').select(['id', 'key_id']).orderBy('id').execute();
    const result = await runCli(['logins', 'reencrypt'], { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: randomBytes(32).toString('base64') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`no configured vault key has id ${vaultKeyId(newKey)}`);
    expect(result.stderr).not.toContain(secrets.password);
    expect(await t.db.selectFrom('account_logins').select(['id', 'key_id']).orderBy('id').execute()).toEqual(before);
  });

  it('a secret sealed with the legacy associated data still opens, and reencrypt binds it to its login', async () => {
    const env = { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: `${newKey.toString('base64')},${TEST_VAULT_KEY.toString('base64')}` };
    const login = await t.db.selectFrom('account_logins').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
    // What a login sealed before the binding existed looks like: associated data naming only the purpose.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', newKey, iv);
    cipher.setAAD(loginSecretAad(1, ''));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
    await t.db
      .updateTable('account_logins')
      .set({
        secret_ciphertext: ciphertext,
        secret_iv: iv,
        secret_tag: cipher.getAuthTag(),
        key_id: vaultKeyId(newKey),
        secret_aad_version: 1,
      })
      .where('id', '=', login.id)
      .execute();
    const vault = createVault([newKey]);
    const read = () => t.db.selectFrom('account_logins').selectAll().where('id', '=', login.id).executeTakeFirstOrThrow();
    const legacy = await read();
    expect(
      vault.open(
        { ciphertext: legacy.secret_ciphertext, iv: legacy.secret_iv, tag: legacy.secret_tag, keyId: legacy.key_id, aadVersion: 1 },
        login.id,
      ),
    ).toEqual(secrets);

    const result = await runCli(['logins', 'reencrypt', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      reencrypted: 1,
      alreadyCurrent: 2,
      instanceKeysResealed: 0,
      automationInputsReencrypted: 0,
      calendarTokensReencrypted: 0,
    });
    const upgraded = await read();
    expect(upgraded.secret_aad_version).toBe(2);
    const sealed = {
      ciphertext: upgraded.secret_ciphertext,
      iv: upgraded.secret_iv,
      tag: upgraded.secret_tag,
      keyId: upgraded.key_id,
      aadVersion: 2 as const,
    };
    expect(vault.open(sealed, login.id)).toEqual(secrets);
    expect(() => vault.open(sealed, 'login_someone_else')).toThrow(/failed authentication/);
  }, 120_000);
});
