import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import {
  checkAccessibility,
  describeViolations,
  externalRequests,
  openHostedLink,
  recordRequests,
  screenshot,
  type CallbackServer,
  type LiveApp,
} from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';

/**
 * The hosted accounts management page (POST /v2/accounts/manage/session) in headless chromium: a person sees the agency accounts,
 * replaces a login's credentials, gets a validation error, and does it again with the keyboard only.
 */
describe('hosted accounts management page in a browser', { timeout: 180_000 }, () => {
  let t: LiveApp;
  let callback: CallbackServer;
  let token: string;
  let entityId: string;
  let caLoginId: string;
  let nyAccountId: string;
  let looseLoginId: string;
  const suite = useBrowserSuite({ callbackPath: '/back' });

  beforeAll(async () => {
    ({ t, callback } = suite);
    ({ entityId, token } = await signupWithToken(t.app, suite.apiKey, { business_name: 'Harbor Labs Inc' }));
    const accounts = t.app.services.accounts;
    const ca = await accounts.createAccount(entityId, {
      region_code: 'CA',
      agency_id: 'ca-edd',
      name: 'EDD employer payroll tax account',
      data: [
        { name: 'Employer account number', value: '123-4567-8' },
        { name: 'UI rate', value: null, status: 'in-progress' },
        { name: 'Deposit schedule', value: null },
      ],
    });
    caLoginId = (
      await accounts.createLogin(entityId, {
        agency_account_id: ca.id,
        region_code: 'CA',
        name: 'EDD e-Services for Business',
        login_url: 'https://eddservices.edd.ca.gov/',
        is_supported: true,
        secrets: { username: 'edd-user-7731', password: 'Old password 1!' },
      })
    ).id;
    nyAccountId = (
      await accounts.createAccount(entityId, {
        region_code: 'NY',
        agency_id: 'ny-dol',
        name: 'NY unemployment insurance account',
        data: [{ name: 'UI employer number', value: null }],
      })
    ).id;
    looseLoginId = (
      await accounts.createLogin(entityId, {
        region_code: 'CA',
        name: 'CA franchise tax web pay',
        login_url: 'https://webapp.ftb.ca.gov/',
        secrets: { username: 'ftb-user', password: 'ftb-password-3' },
      })
    ).id;
  });

  async function openPage(body: Record<string, unknown> = {}): Promise<{ page: Page; requests: string[] }> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/accounts/manage/session',
      headers: bearer(token),
      payload: { callback_url: callback.url, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { page } = await suite.openPage();
    const requests = recordRequests(page);
    await openHostedLink(page, json(res).url);
    expect(new URL(page.url()).pathname).toBe('/hosted/accounts');
    return { page, requests };
  }

  async function expectAccessible(page: Page) {
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  it('shows the accounts, replaces a login’s credentials and returns to the platform', async () => {
    const { page, requests } = await openPage();
    await expect(page.getByRole('heading', { level: 1, name: 'Agency accounts for Harbor Labs Inc' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 2, name: 'EDD employer payroll tax account' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'California Employment Development Department' }).getAttribute('href')).resolves.toBe(
      'https://edd.ca.gov',
    );
    await expect(page.getByRole('heading', { level: 2, name: 'Other logins' }).isVisible()).resolves.toBe(true);
    expect(await page.getByText('Not yet known').count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'accounts-manage');

    const login = page.locator(`#login-${caLoginId}`);
    await login.locator('summary').click();
    await login.getByLabel('Username').fill('edd-user-7731');
    await login.getByLabel(/^Password/).fill('A brand new password 9');
    await login.getByLabel('Authenticator setup key (optional)').fill('jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp');
    await Promise.all([
      page.waitForURL(/\/hosted\/accounts\?saved=/),
      login.getByRole('button', { name: 'Save credentials for EDD e-Services for Business' }).click(),
    ]);
    await expect(page.getByRole('status').innerText()).resolves.toContain('Credentials saved for EDD e-Services for Business.');
    expect(await page.content()).not.toContain('A brand new password 9');
    await expectAccessible(page);
    await screenshot(page, 'accounts-manage-saved');
    expect(await t.app.services.accounts.openLoginSecrets(entityId, caLoginId)).toEqual({
      username: 'edd-user-7731',
      password: 'A brand new password 9',
      totp_seed: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    });

    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callback.url)),
      page.getByRole('link', { name: 'Return to Acme Payroll' }).click(),
    ]);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('shows validation errors accessibly, without echoing the secrets', async () => {
    const { page, requests } = await openPage({ region_id: 'NY' });
    await expect(page.getByText('EDD employer payroll tax account').count()).resolves.toBe(0);
    const account = page.getByRole('region', { name: 'NY unemployment insurance account' });
    await account.locator('summary', { hasText: 'Add a login' }).click();
    await account.getByLabel('Username').fill('ny-owner');
    await account.getByLabel(/^Password/).fill('Never shown again 5');
    await account.getByLabel('Authenticator setup key (optional)').fill('1890 not a key');
    await Promise.all([
      page.waitForLoadState('load'),
      account.getByRole('button', { name: 'Add login to NY unemployment insurance account' }).click(),
    ]);
    const summary = page.getByRole('alert');
    await expect(summary.innerText()).resolves.toContain(
      'Authenticator setup key (NY unemployment insurance account): The setup key can only contain',
    );
    await expect(page.title()).resolves.toBe('Error: Agency accounts · Statehouse');
    const seed = page.locator(`#f-new-${nyAccountId}-totp_seed`);
    await expect(seed.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(seed.isVisible()).resolves.toBe(true);
    await expect(account.getByLabel('Username').inputValue()).resolves.toBe('ny-owner');
    await expect(account.getByLabel(/^Password/).inputValue()).resolves.toBe('');
    const html = await page.content();
    expect(html).not.toContain('Never shown again 5');
    expect(html).not.toContain('1890 not a key');
    await expectAccessible(page);
    await screenshot(page, 'accounts-manage-error');
    // The summary's link moves focus to the field.
    await summary.getByRole('link').click();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe(`f-new-${nyAccountId}-totp_seed`);
    expect(await t.app.services.accounts.listLogins({ legalEntityId: entityId }, 'NY')).toEqual([]);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('works with the keyboard only', async () => {
    const { page, requests } = await openPage({ region_id: 'CA' });
    const target = `Update credentials for CA franchise tax web pay`;
    const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '');
    for (let i = 0; i < 40 && (await focusedText()) !== target; i++) await page.keyboard.press('Tab');
    expect(await focusedText()).toBe(target);
    await page.keyboard.press('Enter'); // opens the details
    await page.keyboard.press('Tab');
    await page.keyboard.type('ftb-user-2');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed with keys 8');
    await Promise.all([page.waitForURL(/\/hosted\/accounts\?saved=/), page.keyboard.press('Enter')]);
    await expect(page.getByRole('status').innerText()).resolves.toContain('Credentials saved for CA franchise tax web pay.');
    expect(await t.app.services.accounts.openLoginSecrets(entityId, looseLoginId)).toEqual({
      username: 'ftb-user-2',
      password: 'Typed with keys 8',
    });
    expect(externalRequests(requests)).toEqual([]);
  });
});
