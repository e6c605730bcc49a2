import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault } from '../src/crypto/vault.js';
import { createAccessTokens, fixedSigningKeys } from '../src/modules/auth/access-tokens.js';
import { INSTANCE_KEY } from '../src/modules/system/contract.js';
import { createInstanceKeys } from '../src/modules/system/instance-keys.js';
import { TEST_VAULT_KEY, accessToken, bearer, createPlatform, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { createSecondApp, type SecondApp } from './helpers/second-app.js';
import { waitUntil } from './helpers/wait.js';

/** Verifies with exactly these keys: tells which key signed a token. */
const signedWith = async (key: Buffer, token: string) =>
  createAccessTokens({ keys: fixedSigningKeys([key]), ttlSeconds: 600, apiKeyActive: async () => true })
    .verify(`Bearer ${token}`)
    .then(
      () => true,
      () => false,
    );

/** Access tokens, API key revocation and instance keys with two processes on one database (docs/scaling.md, 2, 3, 6). */
describe('keys and tokens across two processes', () => {
  let a: TestApp;
  let b: SecondApp;
  let platform: Awaited<ReturnType<typeof createPlatform>>;
  let entityId: string;
  /** What the CLI does (`statehouse tokens rotate-key`): a third party on the same database. */
  const cli = () => createInstanceKeys(a.db, createVault([TEST_VAULT_KEY]));
  const entityStatus = async (app: TestApp['app'], token: string) =>
    (await app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createSecondApp(a);
    platform = await createPlatform(a.db);
    entityId = await signupEntity(a.app, platform.apiKey);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a token minted from a revoked API key is refused at once by every process, though both had verified it', async () => {
    const other = await platform.service.rotateKey(platform.platformId); // a second, active key of the same platform
    const doomed = await accessToken(a.app, platform.apiKey, entityId);
    const kept = await accessToken(b.app, other.key, entityId);
    for (const app of [a.app, b.app]) {
      expect(await entityStatus(app, doomed)).toBe(200); // verified and cached by both
      expect(await entityStatus(app, kept)).toBe(200);
    }
    await platform.service.revokeKey(platform.apiKeyId); // through neither process (the CLI)
    for (const app of [a.app, b.app]) {
      const refused = await app.inject({ url: '/v2/tasks', headers: bearer(doomed) });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(json(refused).detail).toMatch(/revoked/);
      expect(await entityStatus(app, kept)).toBe(200); // the other key's tokens are untouched
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/accounts/auth',
            headers: { authorization: platform.apiKey },
            payload: { legal_entity_id: entityId },
          })
        ).statusCode,
      ).toBe(403);
    }
    platform = { ...platform, apiKey: other.key, apiKeyId: other.id };
  });

  it('after a rotation elsewhere, both processes accept the new key at once and sign with it without a restart', async () => {
    const fromA = await accessToken(a.app, platform.apiKey, entityId);
    const fromB = await accessToken(b.app, platform.apiKey, entityId);
    const oldKey = await cli().get(INSTANCE_KEY.accessTokens);
    expect(await signedWith(oldKey, fromA)).toBe(true);
    const rotator = cli();
    await rotator.rotate(INSTANCE_KEY.accessTokens);
    const newKey = await rotator.get(INSTANCE_KEY.accessTokens);
    expect(newKey.equals(oldKey)).toBe(false);

    // A token signed with the new key by a process that already switched: accepted at once by both, before they switch.
    const forged = (
      await createAccessTokens({ keys: fixedSigningKeys([newKey]), ttlSeconds: 600, apiKeyActive: async () => true }).issue({
        platformId: platform.platformId,
        legalEntityId: entityId,
        apiKeyId: platform.apiKeyId,
      })
    ).token;
    for (const app of [a.app, b.app]) expect(await entityStatus(app, forged)).toBe(200);
    // Both sign with the new key soon after (a second at most), without a restart…
    for (const app of [a.app, b.app]) {
      await waitUntil(async () => signedWith(newKey, await accessToken(app, platform.apiKey, entityId)), 'tokens signed with the new key');
    }
    // …and the tokens they signed before are still good everywhere (the previous key verifies).
    for (const app of [a.app, b.app]) for (const token of [fromA, fromB]) expect(await entityStatus(app, token)).toBe(200);
    // A token signed with a key the database never had is still refused (the reload changed nothing).
    const bogus = (
      await createAccessTokens({ keys: fixedSigningKeys([randomBytes(32)]), ttlSeconds: 600, apiKeyActive: async () => true }).issue({
        platformId: platform.platformId,
        legalEntityId: entityId,
        apiKeyId: platform.apiKeyId,
      })
    ).token;
    for (const app of [a.app, b.app]) expect(await entityStatus(app, bogus)).toBe(401);
  });

  it('a token both processes had verified is refused once two rotations have dropped the key that signed it', async () => {
    const token = await accessToken(a.app, platform.apiKey, entityId);
    for (const app of [a.app, b.app]) expect(await entityStatus(app, token)).toBe(200); // verified, and cached, by both
    const signer = await cli().get(INSTANCE_KEY.accessTokens);
    expect(await signedWith(signer, token)).toBe(true);
    const rotator = cli();
    await rotator.rotate(INSTANCE_KEY.accessTokens);
    await rotator.rotate(INSTANCE_KEY.accessTokens); // the signer is no longer even the previous key
    for (const app of [a.app, b.app]) await waitUntil(async () => (await entityStatus(app, token)) === 401, 'the cached token refused');
    // A token signed now is accepted by both.
    for (const app of [a.app, b.app]) expect(await entityStatus(app, await accessToken(app, platform.apiKey, entityId))).toBe(200);
  });

  it('CSRF and file-link keys: another process reads a rotated key at its next check (at most a second later)', async () => {
    let clock = 0;
    const reader = createInstanceKeys(a.db, createVault([TEST_VAULT_KEY]), () => clock);
    for (const name of [INSTANCE_KEY.csrf, INSTANCE_KEY.fileLinks]) {
      const before = await reader.get(name);
      const rotator = cli();
      await rotator.rotate(name);
      const after = await rotator.get(name);
      expect(await reader.get(name)).toEqual(before); // trusted for up to a second
      expect(await reader.previous(name)).toBeNull();
      clock += 1000;
      expect(await reader.get(name)).toEqual(after);
      expect(await reader.previous(name)).toEqual(before); // what the old key signed still verifies
    }
  });

  it('a process whose vault key differs from the installation’s refuses to start, saying which setting to fix', async () => {
    await expect(createSecondApp(a, {}, { vaultKeys: [randomBytes(32)] })).rejects.toThrow(
      /cannot be opened: .*every process and host of an installation needs the same STATEHOUSE_VAULT_KEY/,
    );
  });
});
