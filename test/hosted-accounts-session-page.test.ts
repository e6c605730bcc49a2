/**
 * The hosted accounts management page: POST /v2/accounts/manage/session (token, single-use link, validation,
 * scope, callback origins) and GET /hosted/accounts (what it lists, region scope, empty state, live session).
 * Storing credentials: hosted-accounts-credentials.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regionByCode } from '../src/catalog/regions.js';
import { createCallbackOrigins } from '../src/modules/platforms/callback-origins.js';
import { bearer, createPlatformWithEntity, json } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';
import { CALLBACK, CA_SECRETS, startHostedAccountsFixture, type HostedAccountsFixture } from './helpers/hosted-accounts.js';

describe('hosted accounts management page (POST /v2/accounts/manage/session)', () => {
  let fixture: HostedAccountsFixture;
  let t: HostedAccountsFixture['t'];
  let platformId: HostedAccountsFixture['platformId'];
  let entityId: HostedAccountsFixture['entityId'];
  let token: HostedAccountsFixture['token'];
  let otherEntityId: HostedAccountsFixture['otherEntityId'];
  let emptyToken: HostedAccountsFixture['emptyToken'];
  let caAccountId: HostedAccountsFixture['caAccountId'];
  let caLoginId: HostedAccountsFixture['caLoginId'];
  let looseLoginId: HostedAccountsFixture['looseLoginId'];
  let otherLoginId: HostedAccountsFixture['otherLoginId'];
  let session: HostedAccountsFixture['session'];
  let open: HostedAccountsFixture['open'];

  beforeAll(async () => {
    fixture = await startHostedAccountsFixture();
    ({ t, platformId, entityId, token, otherEntityId, emptyToken, caAccountId, caLoginId, looseLoginId, otherLoginId, session, open } =
      fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

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
      const row = await t.db
        .selectFrom('hosted_sessions')
        .select(['purpose', 'scope', 'callback_url', 'legal_entity_id'])
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
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
      expect(
        (await session({ callback_url: CALLBACK }, token, `?legal_entity_public_id=${entityId}&platform_public_id=${platformId}`))
          .statusCode,
      ).toBe(200);
      expect((await session({ callback_url: CALLBACK }, token, `?legal_entity_public_id=${otherEntityId}`)).statusCode).toBe(404);
      expect((await session({ callback_url: CALLBACK }, token, '?user_or_platform_public_id=plt_someone_else')).statusCode).toBe(404);
    });

    it('applies the platform’s allowed callback origins', async () => {
      const { platformId: strictPlatformId, token: strictToken } = await createPlatformWithEntity(t, 'Strict Payroll');
      await createCallbackOrigins(t.db).add(strictPlatformId, 'https://app.strict.example');
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
      expect(body).toMatch(
        /UI rate<\/dt><dd><span class="muted">Not yet known<\/span>\s*<span class="badge data-in-progress"><span class="visually-hidden">Status: <\/span>In progress<\/span>/,
      );
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
      for (const secret of [
        CA_SECRETS.username,
        CA_SECRETS.password,
        CA_SECRETS.totp_seed,
        'Biscuit',
        'First pet?',
        'ny-user',
        'ny-password-9',
        'ftb-user',
        'ftb-password-3',
      ]) {
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
      const tasks = await t.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(token),
        payload: { callback_url: CALLBACK },
      });
      const tasksBrowser = (await openLink(t.app, json(tasks).url)).browser!;
      expect((await tasksBrowser.get('/hosted/accounts')).statusCode).toBe(401);
    });
  });
});
