import { describe, expect, it } from 'vitest';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import { checkAccessibility, describeViolations, externalRequests, openHostedLink, screenshot } from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';

/**
 * The accounts page of a business with no agency account yet, in headless chromium: the empty state says why
 * accounts matter, the owner adds the account they already have (a mistake first), then sees its login form.
 */
describe('accounts page empty state in a browser', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });

  const expectAccessible = async (page: Parameters<typeof checkAccessibility>[0]) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const violations = await checkAccessibility(page);
      expect(violations, `${width}px\n${describeViolations(violations)}`).toEqual([]);
    }
  };

  it('explains accounts, refuses an empty choice with the name kept, and adds the account', async () => {
    const { token } = await signupWithToken(suite.t.app, suite.apiKey, { business_name: 'Fresh Start LLC' });
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/v2/accounts/manage/session',
      headers: bearer(token),
      payload: { callback_url: suite.callback.url },
    });
    const { page, requests } = await suite.openPage({ bypassCSP: true });
    await openHostedLink(page, json(res).url);
    expect(new URL(page.url()).pathname).toBe('/hosted/accounts');
    await expect(page.getByRole('heading', { level: 2, name: 'No agency accounts yet' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText(/are where filings and payments go/).isVisible()).resolves.toBe(true);
    // The form is open in the empty state: no click is needed to find it.
    await expect(page.getByLabel('Agency').isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'accounts-empty');

    await page.getByLabel('Account name (optional)').fill('Payroll tax account');
    // The browser's own check (required) would stop an empty choice; the server's answer is what is tested here.
    await page.getByLabel('Agency').evaluate((select) => select.removeAttribute('required'));
    const refused = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/hosted/accounts/accounts')),
      page.getByRole('button', { name: 'Add the account' }).click(),
    ]);
    expect(refused[0].status()).toBe(422);
    await page.waitForLoadState('load');
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Agency: Choose the agency of the account');
    expect(await page.getByLabel('Account name (optional)').inputValue()).toBe('Payroll tax account');
    expect(await page.getByLabel('Agency').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'accounts-add-error');

    await page.getByLabel('Agency').selectOption({ label: 'California Employment Development Department' });
    await Promise.all([page.waitForURL(/\/hosted\/accounts\?added=/), page.getByRole('button', { name: 'Add the account' }).click()]);
    await expect(page.getByRole('status').innerText()).resolves.toContain('Account added: Payroll tax account. Add its login below');
    await expect(page.getByRole('heading', { level: 2, name: 'Payroll tax account' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Add a login', { exact: false }).first().isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'accounts-added');
    expect(externalRequests(requests)).toEqual([]);
  });
});
