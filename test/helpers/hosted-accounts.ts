import { expect } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken } from './app.js';
import { openLink, type HostedBrowser } from './hosted.js';

/** What the hosted-accounts-*.test.ts files share (POST /v2/accounts/manage/session and /hosted/accounts). */
export const CALLBACK = 'https://platform.example/back';
export const CA_SECRETS = {
  username: 'edd-user-7731',
  password: 'Old password 1!',
  security_answers: [{ question: 'First pet?', answer: 'Biscuit' }],
  totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
};
export const NEW_SEED = 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP';

/**
 * One platform with three entities: the main one (a CA account with a login holding CA_SECRETS, a NY account
 * with a login, and a CA login outside any account), another with a CA account and login, and an empty one;
 * with `session` (asks for a link) and `open` (follows it into a hosted browser).
 */
export async function startHostedAccountsFixture() {
  const t = await createTestApp();
  const { apiKey, platformId, entityId, token } = await createPlatformWithEntity(t);
  const { entityId: otherEntityId, token: otherToken } = await signupWithToken(t.app, apiKey);
  const { token: emptyToken } = await signupWithToken(t.app, apiKey);
  const accounts = t.app.services.accounts;
  const caAccountId = (
    await accounts.createAccount(entityId, {
      region_code: 'CA',
      agency_id: 'ca-edd',
      name: 'EDD employer payroll tax account',
      data: [
        { name: 'Employer account number', value: '123-4567-8' },
        { name: 'UI rate', value: null, status: 'in-progress' },
      ],
    })
  ).id;
  const caLoginId = (
    await accounts.createLogin(entityId, {
      agency_account_id: caAccountId,
      region_code: 'CA',
      name: 'EDD e-Services',
      login_url: 'https://eddservices.edd.ca.gov/',
      is_supported: true,
      secrets: CA_SECRETS,
    })
  ).id;
  const nyAccountId = (
    await accounts.createAccount(entityId, { region_code: 'NY', agency_id: 'ny-dol', name: 'NY unemployment insurance account' })
  ).id;
  const nyLoginId = (
    await accounts.createLogin(entityId, {
      agency_account_id: nyAccountId,
      region_code: 'NY',
      name: 'NY.gov business login',
      login_url: 'https://my.ny.gov/',
      secrets: { username: 'ny-user', password: 'ny-password-9' },
    })
  ).id;
  const looseLoginId = (
    await accounts.createLogin(entityId, {
      region_code: 'CA',
      name: 'CA franchise tax web pay',
      login_url: 'https://webapp.ftb.ca.gov/',
      secrets: { username: 'ftb-user', password: 'ftb-password-3' },
    })
  ).id;
  const otherAccountId = (
    await accounts.createAccount(otherEntityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'Other entity EDD account' })
  ).id;
  const otherLoginId = (
    await accounts.createLogin(otherEntityId, {
      agency_account_id: otherAccountId,
      region_code: 'CA',
      name: 'Other entity login',
      login_url: 'https://eddservices.edd.ca.gov/',
      secrets: { username: 'other-user', password: 'other-password-5' },
    })
  ).id;

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
  const loginCount = async (entity: string) =>
    (await t.db.selectFrom('account_logins').select('id').where('legal_entity_id', '=', entity).execute()).length;

  return {
    t,
    apiKey,
    platformId,
    entityId,
    token,
    otherEntityId,
    otherToken,
    emptyToken,
    caAccountId,
    caLoginId,
    nyAccountId,
    nyLoginId,
    looseLoginId,
    otherAccountId,
    otherLoginId,
    session,
    open,
    secretsOf,
    loginCount,
    close: () => t.close(),
  };
}

export type HostedAccountsFixture = Awaited<ReturnType<typeof startHostedAccountsFixture>>;
