import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REJECTED_REASON, sandboxIdNumber } from '../../src/modules/agencies/sandbox/sandbox-accounts.js';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import {
  checkAccessibility,
  describeViolations,
  externalRequests,
  newContext,
  recordRequests,
  screenshot,
  type LiveApp,
  openHostedLink,
} from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';

describe('the hosted connect page in a browser', () => {
  let browser: Browser;
  let t: LiveApp;
  let entityId: string;
  let token: string;

  // A real job queue drives the sandbox connector, one step every 300 ms.
  const suite = useBrowserSuite({ config: { sandboxConnectorStepMs: 300 }, app: { jobs: true } });
  beforeAll(async () => {
    ({ browser, t } = suite);
    ({ entityId, token } = await signupWithToken(t.app, suite.apiKey));
  }, 120_000);

  async function openConnectPage(accountName: string) {
    const accountId = (await t.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: accountName }))
      .id;
    const res = await t.app.inject({
      method: 'POST',
      url: '/accounts/connect',
      headers: bearer(token),
      payload: { legal_entity_id: entityId, agency_account_id: accountId },
    });
    expect(res.statusCode).toBe(200);
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openHostedLink(page, json(res).connect_url);
    await page.getByRole('heading', { name: 'Connect your California Employment Development Department account' }).waitFor();
    return { accountId, connectionId: json(res).connection.id as string, context, page, requests };
  }

  const expectAccessible = async (page: Page) => {
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  };

  /** Follows "Check status" (as a person would) until a heading appears; bounded. */
  async function checkUntil(page: Page, heading: string) {
    const deadline = Date.now() + 60_000; // generous: the machine may be busy
    for (;;) {
      if (await page.getByRole('heading', { name: heading, exact: true }).isVisible()) return;
      if (Date.now() > deadline) throw new Error(`'${heading}' did not appear; page shows: ${await page.locator('h1').textContent()}`);
      const check = page.getByRole('link', { name: 'Check status' });
      if (await check.isVisible()) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await check.click();
        await page.waitForLoadState();
      } else {
        await page.waitForTimeout(200);
      }
    }
  }

  it('credentials in, progress while the connector works, then connected', async () => {
    const { accountId, connectionId, context, page, requests } = await openConnectPage('EDD employer account');
    await expectAccessible(page);
    await screenshot(page, 'connect-form');

    // A missing password comes back with the error summary; the username is kept.
    await page.getByLabel('Username').fill('edd-admin-5521');
    await page.getByRole('button', { name: 'Connect account' }).click();
    await page.getByRole('heading', { name: 'Please fix this problem' }).waitFor();
    await expect(page.getByLabel('Username').inputValue()).resolves.toBe('edd-admin-5521');
    await expectAccessible(page);

    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Connect account' }).click();
    await page.getByRole('heading', { name: 'Connecting your California Employment Development Department account' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'connect-progress');
    // No timed refresh: the person checks the status when they choose, until the connector is done.
    await checkUntil(page, 'Connected');
    await expect(page.getByText(sandboxIdNumber(accountId)).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'connect-connected');

    const api = json(await t.app.inject({ url: `/accounts/connections/${connectionId}`, headers: bearer(token) }));
    expect(api).toMatchObject({ status: 'connected', account: { id_number: sandboxIdNumber(accountId) } });
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });

  it('a rejected password shows why, with the form again', async () => {
    const { connectionId, context, page, requests } = await openConnectPage('EDD second account');
    await page.getByLabel('Username').fill('edd-admin-5521');
    await page.getByLabel('Password').fill('wrong-fail-auth');
    await page.getByRole('button', { name: 'Connect account' }).click();
    await checkUntil(page, 'We could not connect the account');
    await expect(page.getByText(AUTH_REJECTED_REASON).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    await expectAccessible(page);
    await screenshot(page, 'connect-failed');
    expect(json(await t.app.inject({ url: `/accounts/connections/${connectionId}`, headers: bearer(token) })).status).toBe('disconnected');
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });
});
