import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { openLink } from './helpers/hosted.js';

const SECRETS = {
  username: 'edd-user-7731',
  password: 'Correct horse battery staple!',
  security_answers: [{ question: 'First pet?', answer: 'Biscuit' }],
  totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
};

describe('revealing a login (POST /logins/{id}/sessions, POST /v2/logins/{id}/session)', () => {
  let t: TestApp;
  let token: string;
  let loginId: string;
  let otherToken: string;
  let entityId: string;
  let platformId: string;

  beforeAll(async () => {
    t = await createTestApp();
    let apiKey: string;
    ({ apiKey, platformId, entityId, token } = await createPlatformWithEntity(t));
    ({ token: otherToken } = await signupWithToken(t.app, apiKey));
    loginId = (
      await t.app.services.accounts.createLogin(entityId, {
        region_code: 'CA',
        name: 'EDD e-Services',
        login_url: 'https://eddservices.edd.ca.gov/',
        secrets: SECRETS,
      })
    ).id;
  });
  afterAll(async () => t.close());

  it('returns a session for the entity’s own login only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/logins/${loginId}/sessions`,
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(json(res)).sort()).toEqual(['created_at', 'expires_at', 'url']);
    expect(json(res).url).not.toContain(SECRETS.password);
    const other = await t.app.inject({
      method: 'POST',
      url: `/logins/${loginId}/sessions`,
      headers: bearer(otherToken),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(other.statusCode).toBe(404);
    const v2 = await t.app.inject({ method: 'POST', url: `/v2/logins/${loginId}/session`, headers: bearer(token), payload: {} });
    expect(v2.statusCode).toBe(200);
  });

  it('shows the credentials with a current one-time code, and records every view', async () => {
    const res = json(
      await t.app.inject({
        method: 'POST',
        url: `/v2/logins/${loginId}/session`,
        headers: bearer(token),
        payload: { callback_url: 'https://platform.example/back' },
      }),
    );
    const { response, browser } = await openLink(t.app, res.url);
    expect(response.headers.location).toBe(`/hosted/logins/${loginId}`);
    const page = await browser!.get(`/hosted/logins/${loginId}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('edd-user-7731');
    expect(page.body).toContain('Correct horse battery staple!');
    expect(page.body).toContain('Biscuit');
    expect(page.body).toMatch(/One-time code<\/dt><dd><code>\d{6}<\/code>/);
    await browser!.get(`/hosted/logins/${loginId}`);
    const reveals = await t.db.selectFrom('login_reveals').selectAll().where('login_id', '=', loginId).execute();
    expect(reveals).toHaveLength(2);
    expect(reveals[0]).toMatchObject({ legal_entity_id: entityId, platform_id: platformId });
    expect((await browser!.get('/hosted/logins/login_other')).statusCode).toBe(404);
    expect((await t.app.inject({ url: new URL(res.url).pathname })).statusCode).toBe(410);
  });

  it('a sealed secret copied onto another login’s row does not open there: a clear page, nothing shown', async () => {
    const otherLogin = (
      await t.app.services.accounts.createLogin(entityId, {
        region_code: 'CA',
        name: 'FTB MyFTB',
        login_url: 'https://www.ftb.ca.gov/',
        secrets: { username: 'ftb-user-2', password: 'other password 2' },
      })
    ).id;
    const stolen = await t.db
      .selectFrom('account_logins')
      .select(['secret_ciphertext', 'secret_iv', 'secret_tag', 'key_id', 'secret_aad_version'])
      .where('id', '=', loginId)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('account_logins').set(stolen).where('id', '=', otherLogin).execute();

    const link = json(await t.app.inject({ method: 'POST', url: `/v2/logins/${otherLogin}/session`, headers: bearer(token), payload: {} }));
    const { browser } = await openLink(t.app, link.url);
    const page = await browser!.get(`/hosted/logins/${otherLogin}`);
    expect(page.statusCode).toBe(409);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('These credentials cannot be shown');
    for (const leaked of [SECRETS.username, SECRETS.password, 'Biscuit', 'other password 2']) expect(page.body).not.toContain(leaked);
    expect(await t.db.selectFrom('login_reveals').selectAll().where('login_id', '=', otherLogin).execute()).toEqual([]);

    // The login the secret belongs to still reveals normally.
    const own = json(await t.app.inject({ method: 'POST', url: `/v2/logins/${loginId}/session`, headers: bearer(token), payload: {} }));
    const opened = await openLink(t.app, own.url);
    const ownPage = await opened.browser!.get(`/hosted/logins/${loginId}`);
    expect(ownPage.statusCode).toBe(200);
    expect(ownPage.body).toContain(SECRETS.password);
  });

  it('operators can query the audit trail', async () => {
    const result = await runCli(['logins', 'reveals', '--entity', entityId, '--json'], { DATABASE_URL: t.url });
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({ login_id: loginId, login_name: 'EDD e-Services', legal_entity_id: entityId, platform_id: platformId });
    expect(result.stdout).not.toContain(SECRETS.password);
  });
});
