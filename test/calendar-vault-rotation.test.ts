/**
 * `statehouse vault reencrypt` re-seals the live calendar tokens under the new vault key, so that once the old key
 * is removed the same URL is still handed back; a token under a key that is not configured stops it, unchanged.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { vaultKeyId } from '../src/crypto/vault.js';
import { TEST_VAULT_KEY, bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';

describe('calendar tokens in a vault key rotation', () => {
  let t: TestApp;
  let headers: { authorization: string };
  let url: string;
  let revokedId: string;
  const newKey = randomBytes(32);

  beforeAll(async () => {
    t = await createTestApp();
    const { apiKey } = await createPlatform(t.db);
    headers = bearer((await signupWithToken(t.app, apiKey)).token);
    // One revoked feed (never opened again: left as it is) and the live one.
    await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers });
    revokedId = (await t.db.selectFrom('calendar_feeds').select('id').executeTakeFirstOrThrow()).id;
    await t.app.inject({ method: 'DELETE', url: '/v2/tasks/calendar', headers });
    url = json(await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers })).url;
  });
  afterAll(async () => t.close());

  it('a token under a key that is not configured stops the command before anything is written', async () => {
    const result = await runCli(['vault', 'reencrypt'], { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: newKey.toString('base64') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`no configured vault key has id ${vaultKeyId(TEST_VAULT_KEY)}`);
    expect(result.stderr + result.stdout).not.toContain(new URL(url).pathname.slice(10, 40));
    const keys = await t.db.selectFrom('calendar_feeds').select('key_id').execute();
    expect(new Set(keys.map((k) => k.key_id))).toEqual(new Set([vaultKeyId(TEST_VAULT_KEY)]));
  });

  it('re-seals the live token; with the old key removed, the same URL is handed back and still serves the feed', async () => {
    const env = { DATABASE_URL: t.url, STATEHOUSE_VAULT_KEY: `${newKey.toString('base64')},${TEST_VAULT_KEY.toString('base64')}` };
    const first = await runCli(['vault', 'reencrypt', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ calendarTokensReencrypted: 1 });
    expect(JSON.parse((await runCli(['vault', 'reencrypt', '--json'], env)).stdout)).toMatchObject({ calendarTokensReencrypted: 0 });
    const rows = await t.db.selectFrom('calendar_feeds').select(['id', 'key_id', 'revoked_at']).execute();
    for (const row of rows) expect(row.key_id, row.id).toBe(vaultKeyId(row.id === revokedId ? TEST_VAULT_KEY : newKey));

    const onlyNew = await buildApp({ config: t.config, db: t.db, logger: false, vaultKeys: [newKey] });
    try {
      const again = await onlyNew.inject({ method: 'POST', url: '/v2/tasks/calendar', headers });
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again).url).toBe(url);
      expect((await onlyNew.inject({ url: new URL(url).pathname })).statusCode).toBe(200);
    } finally {
      await onlyNew.close();
    }
  });
});
