import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regionByCode } from '../src/catalog/regions.js';
import { createCallbackOrigins } from '../src/modules/platforms/callback-origins.js';
import { accessToken, bearer, createPlatform, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { openLink, type HostedBrowser } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';
const CA_SECRETS = { username: 'edd-user-7731', password: 'Old password 1!', security_answers: [{ question: 'First pet?', answer: 'Biscuit' }], totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' };
const NEW_SEED = 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP';

describe('hosted accounts management page (POST /v2/accounts/manage/session)', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  let entityId: string;
  let token: string;
  let otherEntityId: string;
  let otherToken: string;
  let emptyToken: string;
  let caAccountId: string;
  let caLoginId: string;
  let nyAccountId: string;
  let nyLoginId: string;
  let looseLoginId: string;
  let otherAccountId: string;
  let otherLoginId: string;

  const session = (body: Record<string, unknown>, auth = token, query = '') =>
    t.app.inject({ method: 'POST', url: `/v2/accounts/manage/session${query}`, headers: bearer(auth), payload: body });

  async function open(body: Record<string, unknown> = { callback_url: CALLBACK }, auth = token): Promise<HostedBrowser> {
    const res = await session(body, auth);
    expect(res.statusCode, res.body).toBe(200);
    const { response, browser } = await openLink(t.app, json(res).url);
    expect(response.headers.location).toBe('/hosted/accounts');
    expect(browser).not.toBeNull();
    return browser!;
  }

  const secretsOf = (entity: string, login: string) => t.app.services.accounts.openLoginSecrets(entity, login);
  const loginCount = async (entity: string) => (await t.db.selectFrom('account_logins').select('id').where('legal_entity_id', '=', entity).execute()).length;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, platformId } = await createPlatform(t.db));
    entityId = await signupEntity(t.app, apiKey);
    token = await accessToken(t.app, apiKey, entityId);
    otherEntityId = await signupEntity(t.app, apiKey);
    otherToken = await accessToken(t.app, apiKey, otherEntityId);
    emptyToken = await accessToken(t.app, apiKey, await signupEntity(t.app, apiKey));
    const accounts = t.app.services.accounts;
    caAccountId = (await accounts.createAccount(entityId, {
      region_code: 'CA', agency_id: 'ca-edd', name: 'EDD employer payroll tax account',
      data: [{ name: 'Employer account number', value: '123-4567-8' }, { name: 'UI rate', value: null, status: 'in-progress' }],
    })).id;
    caLoginId = (await accounts.createLogin(entityId, {
      agency_account_id: caAccountId, region_code: 'CA', name: 'EDD e-Services', login_url: 'https://eddservices.edd.ca.gov/', is_supported: true, secrets: CA_SECRETS,
    })).id;
    nyAccountId = (await accounts.createAccount(entityId, { region_code: 'NY', agency_id: 'ny-dol', name: 'NY unemployment insurance account' })).id;
    nyLoginId = (await accounts.createLogin(entityId, {
      agency_account_id: nyAccountId, region_code: 'NY', name: 'NY.gov business login', login_url: 'https://my.ny.gov/', secrets: { username: 'ny-user', password: 'ny-password-9' },
    })).id;
    looseLoginId = (await accounts.createLogin(entityId, {
      region_code: 'CA', name: 'CA franchise tax web pay', login_url: 'https://webapp.ftb.ca.gov/', secrets: { username: 'ftb-user', password: 'ftb-password-3' },
    })).id;
    otherAccountId = (await accounts.createAccount(otherEntityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'Other entity EDD account' })).id;
    otherLoginId = (await accounts.createLogin(otherEntityId, {
      agency_account_id: otherAccountId, region_code: 'CA', name: 'Other entity login', login_url: 'https://eddservices.edd.ca.gov/', secrets: { username: 'other-user', password: 'other-password-5' },
    })).id;
  });
  afterAll(async () => t.close());

  describe('POST /v2/accounts/manage/session', () => {
    it('needs a bearer token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v2/accounts/manage/session', payload: { callback_url: CALLBACK } });
      expect(res.statusCode).toBe(401);
    });

    it('returns a single-use link', async () => {
      const res = await session({ callback_url: CALLBACK });
      expect(res.statusCode).toBe(200);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'url']);
      expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(t.config.hostedSessionTtlSeconds * 1000);
      const row = await t.db.selectFrom('hosted_sessions').select(['purpose', 'scope', 'callback_url', 'legal_entity_id']).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ purpose: 'accounts', scope: {}, callback_url: CALLBACK, legal_entity_id: entityId });
    });

    it('validates callback_url and region_id (422)', async () => {
      const missing = await session({});
      expect(missing.statusCode).toBe(422);
      expect(json(missing).detail[0].loc).toEqual(['body', 'callback_url']);
      const bad = await session({ callback_url: 'not a url' });
      expect(bad.statusCode).toBe(422);
      expect(json(bad).detail[0].loc).toEqual(['body', 'callback_url']);
      const unknown = await session({ callback_url: CALLBACK, region_id: 'ZZ' });
      expect(unknown.statusCode).toBe(422);
      expect(json(unknown).detail[0]).toMatchObject({ loc: ['body', 'region_id'], input: 'ZZ' });
    });

    it('scopes to a region given as a code or a location id; null means all', async () => {
      for (const regionId of ['ca', regionByCode('CA')!.id]) {
        const res = await session({ callback_url: CALLBACK, region_id: regionId });
        expect(res.statusCode).toBe(200);
        const row = await t.db.selectFrom('hosted_sessions').select('scope').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
        expect(row.scope).toEqual({ region_id: 'CA' });
      }
      expect((await session({ callback_url: CALLBACK, region_id: null })).statusCode).toBe(200);
    });

    it('accepts the v2 scope query parameters only for the token’s own entity and platform', async () => {
      expect((await session({ callback_url: CALLBACK }, token, `?legal_entity_public_id=${entityId}&platform_public_id=${platformId}`)).statusCode).toBe(200);
      expect((await session({ callback_url: CALLBACK }, token, `?legal_entity_public_id=${otherEntityId}`)).statusCode).toBe(404);
      expect((await session({ callback_url: CALLBACK }, token, '?user_or_platform_public_id=plt_someone_else')).statusCode).toBe(404);
    });

    it('applies the platform’s allowed callback origins', async () => {
      const second = await createPlatform(t.db, 'Strict Payroll');
      const strictToken = await accessToken(t.app, second.apiKey, await signupEntity(t.app, second.apiKey));
      await createCallbackOrigins(t.db).add(second.platformId, 'https://app.strict.example');
      const refused = await session({ callback_url: 'https://evil.example/back' }, strictToken);
      expect(refused.statusCode).toBe(422);
      expect(json(refused).detail[0].loc).toEqual(['body', 'callback_url']);
      expect((await session({ callback_url: 'https://app.strict.example/back' }, strictToken)).statusCode).toBe(200);
    });
  });

  describe('GET /hosted/accounts', () => {
    it('lists this entity’s accounts, data and logins without any secret', async () => {
      const browser = await open();
      const page = await browser.get('/hosted/accounts');
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      const body = page.body;
      expect(body).toContain('<h1>Agency accounts for ');
      expect(body).toContain('States: <strong>All states</strong>');
      expect(body).toContain('EDD employer payroll tax account');
      expect(body).toContain('California Employment Development Department');
      expect(body).toContain('href="https://edd.ca.gov"');
      expect(body).toContain('Employer account number');
      expect(body).toContain('123-4567-8');
      expect(body).toMatch(/UI rate<\/dt><dd><span class="muted">Not yet known<\/span>\s*<span class="badge data-in-progress"><span class="visually-hidden">Status: <\/span>In progress<\/span>/);
      expect(body).toContain('EDD e-Services');
      expect(body).toContain('Automation supported');
      expect(body).toContain(`action="/hosted/accounts/logins/${caLoginId}"`);
      expect(body).toContain(`name="agency_account_id" value="${caAccountId}"`);
      expect(body).toContain('NY unemployment insurance account');
      expect(body).toContain('Other logins');
      expect(body).toContain(`action="/hosted/accounts/logins/${looseLoginId}"`);
      expect(body).toContain(`href="${CALLBACK}"`);
      // Another entity's account is not there, and no stored secret is rendered.
      expect(body).not.toContain('Other entity EDD account');
      expect(body).not.toContain(otherLoginId);
      for (const secret of [CA_SECRETS.username, CA_SECRETS.password, CA_SECRETS.totp_seed, 'Biscuit', 'First pet?', 'ny-user', 'ny-password-9', 'ftb-user', 'ftb-password-3']) {
        expect(body).not.toContain(secret);
      }
    });

    it('shows only the session’s region', async () => {
      const browser = await open({ callback_url: CALLBACK, region_id: 'NY' });
      const body = (await browser.get('/hosted/accounts')).body;
      expect(body).toContain('States: <strong>New York</strong>');
      expect(body).toContain('NY unemployment insurance account');
      expect(body).not.toContain('EDD employer payroll tax account');
      expect(body).not.toContain('Other logins');
    });

    it('has an empty state', async () => {
      const body = (await (await open({ callback_url: CALLBACK }, emptyToken)).get('/hosted/accounts')).body;
      expect(body).toContain('No agency accounts yet');
      const scoped = (await (await open({ callback_url: CALLBACK, region_id: 'TX' })).get('/hosted/accounts')).body;
      expect(scoped).toContain('No agency accounts yet');
      expect(scoped).toContain('in Texas');
    });

    it('needs a live accounts session; a used link is gone', async () => {
      const res = await session({ callback_url: CALLBACK });
      const { browser } = await openLink(t.app, json(res).url);
      expect(browser).not.toBeNull();
      expect((await t.app.inject({ url: new URL(json(res).url).pathname })).statusCode).toBe(410);
      expect((await t.app.inject({ url: '/hosted/accounts' })).statusCode).toBe(401);
      const tasks = await t.app.inject({ method: 'POST', url: '/tasks/sessions', headers: bearer(token), payload: { callback_url: CALLBACK } });
      const tasksBrowser = (await openLink(t.app, json(tasks).url)).browser!;
      expect((await tasksBrowser.get('/hosted/accounts')).statusCode).toBe(401);
    });
  });

  describe('storing credentials', () => {
    it('adds a login to an account, then updates it', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const before = await loginCount(entityId);
      const added = await browser.post('/hosted/accounts/logins', {
        agency_account_id: nyAccountId, username: 'new-ny-user', password: 'First secret 1', totp_seed: '', security_question: 'Mother’s maiden name?', security_answer: 'Smith',
      });
      expect(added.statusCode, added.body).toBe(303);
      const location = String(added.headers.location);
      expect(location).toMatch(/^\/hosted\/accounts\?saved=login_/);
      const newLoginId = new URL(location, 'http://x').searchParams.get('saved')!;
      expect(await loginCount(entityId)).toBe(before + 1);
      expect(await secretsOf(entityId, newLoginId)).toEqual({ username: 'new-ny-user', password: 'First secret 1', security_answers: [{ question: 'Mother’s maiden name?', answer: 'Smith' }] });
      const login = (await t.app.services.accounts.listLogins({ legalEntityId: entityId })).find((l) => l.id === newLoginId)!;
      expect(login.agencyAccountId).toBe(nyAccountId);

      const saved = await browser.get(location);
      expect(saved.statusCode).toBe(200);
      expect(saved.body).toContain(`Credentials saved for ${login.name}.`);
      expect(saved.body).not.toContain('First secret 1');

      const updated = await browser.post(`/hosted/accounts/logins/${newLoginId}`, { username: 'new-ny-user', password: 'Second secret 2', totp_seed: NEW_SEED, security_question: '', security_answer: '' });
      expect(updated.statusCode, updated.body).toBe(303);
      expect(updated.headers.location).toBe(`/hosted/accounts?saved=${newLoginId}`);
      // The password changes, the seed is stored normalised, the stored answer is kept.
      expect(await secretsOf(entityId, newLoginId)).toEqual({
        username: 'new-ny-user', password: 'Second secret 2', totp_seed: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', security_answers: [{ question: 'Mother’s maiden name?', answer: 'Smith' }],
      });

      // Through the reveal page too.
      const reveal = json(await t.app.inject({ method: 'POST', url: `/v2/logins/${newLoginId}/session`, headers: bearer(token), payload: { callback_url: CALLBACK } }));
      const revealBrowser = (await openLink(t.app, reveal.url)).browser!;
      const revealed = (await revealBrowser.get(`/hosted/logins/${newLoginId}`)).body;
      expect(revealed).toContain('Second secret 2');
      expect(revealed).not.toContain('First secret 1');
      expect(revealed).toMatch(/One-time code<\/dt><dd><code>\d{6}<\/code>/);

      // The database row holds ciphertext only.
      const row = await t.db.selectFrom('account_logins').selectAll().where('id', '=', newLoginId).executeTakeFirstOrThrow();
      const dump = Object.values(row).map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v))).join('\n');
      for (const plain of ['Second secret 2', 'new-ny-user', 'JBSWY3DP', 'Smith']) expect(dump).not.toContain(plain);
    });

    it('updates a login with a security answer: the same question is replaced, others kept', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const res = await browser.post(`/hosted/accounts/logins/${caLoginId}`, { username: 'edd-user-7731', password: 'New EDD password 4', totp_seed: '', security_question: 'first pet?', security_answer: 'Rex' });
      expect(res.statusCode, res.body).toBe(303);
      expect(await secretsOf(entityId, caLoginId)).toEqual({
        username: 'edd-user-7731', password: 'New EDD password 4', totp_seed: CA_SECRETS.totp_seed, security_answers: [{ question: 'first pet?', answer: 'Rex' }],
      });
      const again = await browser.post(`/hosted/accounts/logins/${caLoginId}`, { username: 'edd-user-7731', password: 'New EDD password 4', security_question: 'City of birth?', security_answer: 'Fresno' });
      expect(again.statusCode).toBe(303);
      expect((await secretsOf(entityId, caLoginId)).security_answers).toEqual([{ question: 'first pet?', answer: 'Rex' }, { question: 'City of birth?', answer: 'Fresno' }]);
    });

    it('updates a login that belongs to no agency account', async () => {
      const browser = await open({ callback_url: CALLBACK, region_id: 'CA' });
      const page = await browser.get('/hosted/accounts');
      expect(page.body).toContain('CA franchise tax web pay');
      const res = await browser.post(`/hosted/accounts/logins/${looseLoginId}`, { username: 'ftb-user-2', password: 'ftb-password-4' });
      expect(res.statusCode).toBe(303);
      expect(await secretsOf(entityId, looseLoginId)).toEqual({ username: 'ftb-user-2', password: 'ftb-password-4' });
      expect((await browser.get(String(res.headers.location))).body).toContain('Credentials saved for CA franchise tax web pay.');
    });

    it('re-renders the form with errors and never echoes a secret back', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const stored = await secretsOf(entityId, nyLoginId);
      const res = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, {
        username: 'typed-username', password: 'Typed password 77', totp_seed: 'not base32!! 0189', security_question: 'Favourite colour?', security_answer: '',
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('class="error-summary"');
      expect(res.body).toContain(`href="#f-login-${nyLoginId}-totp_seed"`);
      expect(res.body).toContain(`id="f-login-${nyLoginId}-totp_seed"`);
      expect(res.body).toContain('Authenticator setup key (NY.gov business login): The setup key can only contain');
      expect(res.body).toContain('Enter the answer to the security question');
      expect(res.body).toMatch(new RegExp(`id="f-login-${nyLoginId}-totp_seed"[^>]*aria-invalid="true"`));
      expect(res.body).toContain('value="typed-username"');
      expect(res.body).toContain('value="Favourite colour?"');
      expect(res.body).not.toContain('Typed password 77');
      expect(res.body).not.toContain('not base32');
      expect(res.body).toContain('<details class="credentials" open>');
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);

      const empty = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: '  ', password: '' });
      expect(empty.statusCode).toBe(422);
      expect(empty.body).toContain('Enter the username');
      expect(empty.body).toContain('Enter the password');

      const long = 'x'.repeat(1001);
      const tooLong = await browser.post('/hosted/accounts/logins', { agency_account_id: nyAccountId, username: 'someone', password: long });
      expect(tooLong.statusCode).toBe(422);
      expect(tooLong.body).toContain('The password must be at most 1000 characters');
      expect(tooLong.body).not.toContain(long);
      expect(tooLong.body).toContain(`href="#f-new-${nyAccountId}-password"`);

      const shortSeed = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p', totp_seed: 'JBSWY3DP' });
      expect(shortSeed.statusCode).toBe(422);
      expect(shortSeed.body).toContain('at least 16 characters');
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);
    });

    it('refuses another entity’s account or login (404) and changes nothing', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const before = await loginCount(otherEntityId);
      const add = await browser.post('/hosted/accounts/logins', { agency_account_id: otherAccountId, username: 'intruder', password: 'intruder-pass' });
      expect(add.statusCode).toBe(404);
      expect(add.body).toContain('Account not found');
      const update = await browser.post(`/hosted/accounts/logins/${otherLoginId}`, { username: 'intruder', password: 'intruder-pass' });
      expect(update.statusCode).toBe(404);
      expect(update.body).toContain('Login not found');
      expect(await loginCount(otherEntityId)).toBe(before);
      expect(await secretsOf(otherEntityId, otherLoginId)).toEqual({ username: 'other-user', password: 'other-password-5' });
      expect((await browser.post('/hosted/accounts/logins', { username: 'x', password: 'y' })).statusCode).toBe(404);
      // The other entity's own session works.
      const own = await open({ callback_url: CALLBACK }, otherToken);
      await own.get('/hosted/accounts');
      expect((await own.post(`/hosted/accounts/logins/${otherLoginId}`, { username: 'other-user', password: 'other-password-6' })).statusCode).toBe(303);
    });

    it('refuses an account or login outside the session’s region (404)', async () => {
      const browser = await open({ callback_url: CALLBACK, region_id: 'CA' });
      await browser.get('/hosted/accounts');
      const stored = await secretsOf(entityId, nyLoginId);
      const before = await loginCount(entityId);
      expect((await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p' })).statusCode).toBe(404);
      expect((await browser.post('/hosted/accounts/logins', { agency_account_id: nyAccountId, username: 'u', password: 'p' })).statusCode).toBe(404);
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);
      expect(await loginCount(entityId)).toBe(before);
    });

    it('refuses a form without its CSRF token or from another origin (403)', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const stored = await secretsOf(entityId, nyLoginId);
      const noCsrf = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p' }, { csrf: null });
      expect(noCsrf.statusCode).toBe(403);
      const foreign = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p' }, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);
    });
  });
});
