/**
 * The hosted accounts management page stores credentials: add and update logins (security answers, logins
 * outside an account), form errors that never echo a secret, tenant and region checks, CSRF and origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';
import { CALLBACK, CA_SECRETS, NEW_SEED, startHostedAccountsFixture, type HostedAccountsFixture } from './helpers/hosted-accounts.js';

describe('hosted accounts management page: storing credentials', () => {
  let fixture: HostedAccountsFixture;
  let t: HostedAccountsFixture['t'];
  let entityId: HostedAccountsFixture['entityId'];
  let token: HostedAccountsFixture['token'];
  let otherEntityId: HostedAccountsFixture['otherEntityId'];
  let otherToken: HostedAccountsFixture['otherToken'];
  let caLoginId: HostedAccountsFixture['caLoginId'];
  let nyAccountId: HostedAccountsFixture['nyAccountId'];
  let nyLoginId: HostedAccountsFixture['nyLoginId'];
  let looseLoginId: HostedAccountsFixture['looseLoginId'];
  let otherAccountId: HostedAccountsFixture['otherAccountId'];
  let otherLoginId: HostedAccountsFixture['otherLoginId'];
  let open: HostedAccountsFixture['open'];
  let secretsOf: HostedAccountsFixture['secretsOf'];
  let loginCount: HostedAccountsFixture['loginCount'];

  beforeAll(async () => {
    fixture = await startHostedAccountsFixture();
    ({
      t,
      entityId,
      token,
      otherEntityId,
      otherToken,
      caLoginId,
      nyAccountId,
      nyLoginId,
      looseLoginId,
      otherAccountId,
      otherLoginId,
      open,
      secretsOf,
      loginCount,
    } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  describe('storing credentials', () => {
    it('adds a login to an account, then updates it', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const before = await loginCount(entityId);
      const added = await browser.post('/hosted/accounts/logins', {
        agency_account_id: nyAccountId,
        username: 'new-ny-user',
        password: 'First secret 1',
        totp_seed: '',
        security_question: 'Mother’s maiden name?',
        security_answer: 'Smith',
      });
      expect(added.statusCode, added.body).toBe(303);
      const location = String(added.headers.location);
      expect(location).toMatch(/^\/hosted\/accounts\?saved=login_/);
      const newLoginId = new URL(location, 'http://x').searchParams.get('saved')!;
      expect(await loginCount(entityId)).toBe(before + 1);
      expect(await secretsOf(entityId, newLoginId)).toEqual({
        username: 'new-ny-user',
        password: 'First secret 1',
        security_answers: [{ question: 'Mother’s maiden name?', answer: 'Smith' }],
      });
      const login = (await t.app.services.accounts.listLogins({ legalEntityId: entityId })).find((l) => l.id === newLoginId)!;
      expect(login.agencyAccountId).toBe(nyAccountId);

      const saved = await browser.get(location);
      expect(saved.statusCode).toBe(200);
      expect(saved.body).toContain(`Credentials saved for ${login.name}.`);
      expect(saved.body).not.toContain('First secret 1');

      const updated = await browser.post(`/hosted/accounts/logins/${newLoginId}`, {
        username: 'new-ny-user',
        password: 'Second secret 2',
        totp_seed: NEW_SEED,
        security_question: '',
        security_answer: '',
      });
      expect(updated.statusCode, updated.body).toBe(303);
      expect(updated.headers.location).toBe(`/hosted/accounts?saved=${newLoginId}`);
      // The password changes, the seed is stored normalised, the stored answer is kept.
      expect(await secretsOf(entityId, newLoginId)).toEqual({
        username: 'new-ny-user',
        password: 'Second secret 2',
        totp_seed: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        security_answers: [{ question: 'Mother’s maiden name?', answer: 'Smith' }],
      });

      // Through the reveal page too.
      const reveal = json(
        await t.app.inject({
          method: 'POST',
          url: `/v2/logins/${newLoginId}/session`,
          headers: bearer(token),
          payload: { callback_url: CALLBACK },
        }),
      );
      const revealBrowser = (await openLink(t.app, reveal.url)).browser!;
      const revealed = (await revealBrowser.get(`/hosted/logins/${newLoginId}`)).body;
      expect(revealed).toContain('Second secret 2');
      expect(revealed).not.toContain('First secret 1');
      expect(revealed).toMatch(/One-time code<\/dt><dd><code>\d{6}<\/code>/);

      // The database row holds ciphertext only.
      const row = await t.db.selectFrom('account_logins').selectAll().where('id', '=', newLoginId).executeTakeFirstOrThrow();
      const dump = Object.values(row)
        .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
        .join('\n');
      for (const plain of ['Second secret 2', 'new-ny-user', 'JBSWY3DP', 'Smith']) expect(dump).not.toContain(plain);
    });

    it('updates a login with a security answer: the same question is replaced, others kept', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const res = await browser.post(`/hosted/accounts/logins/${caLoginId}`, {
        username: 'edd-user-7731',
        password: 'New EDD password 4',
        totp_seed: '',
        security_question: 'first pet?',
        security_answer: 'Rex',
      });
      expect(res.statusCode, res.body).toBe(303);
      expect(await secretsOf(entityId, caLoginId)).toEqual({
        username: 'edd-user-7731',
        password: 'New EDD password 4',
        totp_seed: CA_SECRETS.totp_seed,
        security_answers: [{ question: 'first pet?', answer: 'Rex' }],
      });
      const again = await browser.post(`/hosted/accounts/logins/${caLoginId}`, {
        username: 'edd-user-7731',
        password: 'New EDD password 4',
        security_question: 'City of birth?',
        security_answer: 'Fresno',
      });
      expect(again.statusCode).toBe(303);
      expect((await secretsOf(entityId, caLoginId)).security_answers).toEqual([
        { question: 'first pet?', answer: 'Rex' },
        { question: 'City of birth?', answer: 'Fresno' },
      ]);
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
        username: 'typed-username',
        password: 'Typed password 77',
        totp_seed: 'not base32!! 0189',
        security_question: 'Favourite colour?',
        security_answer: '',
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
      const tooLong = await browser.post('/hosted/accounts/logins', {
        agency_account_id: nyAccountId,
        username: 'someone',
        password: long,
      });
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
      const add = await browser.post('/hosted/accounts/logins', {
        agency_account_id: otherAccountId,
        username: 'intruder',
        password: 'intruder-pass',
      });
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
      expect(
        (await own.post(`/hosted/accounts/logins/${otherLoginId}`, { username: 'other-user', password: 'other-password-6' })).statusCode,
      ).toBe(303);
    });

    it('refuses an account or login outside the session’s region (404)', async () => {
      const browser = await open({ callback_url: CALLBACK, region_id: 'CA' });
      await browser.get('/hosted/accounts');
      const stored = await secretsOf(entityId, nyLoginId);
      const before = await loginCount(entityId);
      expect((await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p' })).statusCode).toBe(404);
      expect(
        (await browser.post('/hosted/accounts/logins', { agency_account_id: nyAccountId, username: 'u', password: 'p' })).statusCode,
      ).toBe(404);
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);
      expect(await loginCount(entityId)).toBe(before);
    });

    it('refuses a form without its CSRF token or from another origin (403)', async () => {
      const browser = await open();
      await browser.get('/hosted/accounts');
      const stored = await secretsOf(entityId, nyLoginId);
      const noCsrf = await browser.post(`/hosted/accounts/logins/${nyLoginId}`, { username: 'u', password: 'p' }, { csrf: null });
      expect(noCsrf.statusCode).toBe(403);
      const foreign = await browser.post(
        `/hosted/accounts/logins/${nyLoginId}`,
        { username: 'u', password: 'p' },
        { origin: 'https://evil.example' },
      );
      expect(foreign.statusCode).toBe(403);
      expect(await secretsOf(entityId, nyLoginId)).toEqual(stored);
    });
  });
});
