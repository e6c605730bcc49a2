import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import {
  checkAccessibility,
  describeViolations,
  externalRequests,
  newContext,
  recordRequests,
  screenshot,
  type CallbackServer,
  type LiveApp,
  openHostedLink,
} from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';

describe('payroll connection and login credentials pages in a browser', () => {
  let browser: Browser;
  let t: LiveApp;
  let callback: CallbackServer;
  let apiKey: string;
  let entityId: string;
  let token: string;

  const suite = useBrowserSuite({ callbackPath: '/back' });
  beforeAll(async () => {
    ({ browser, t, callback, apiKey } = suite);
    ({ entityId, token } = await signupWithToken(t.app, apiKey));
  }, 120_000);

  it('a person connects payroll and returns to the platform', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/payroll',
      headers: { authorization: apiKey },
      payload: { legal_entity_id: entityId, authorization_callback_url: callback.url },
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openHostedLink(page, json(res).url);
    await expect(page.getByRole('heading', { name: 'Connect payroll' }).isVisible()).resolves.toBe(true);
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'payroll-connect');
    await page.getByRole('button', { name: 'Connect payroll' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.url));
    expect(new URL(page.url()).searchParams.get('status')).toBe('connected');
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });

  it("shows a login's credentials with a one-time code", async () => {
    const login = await t.app.services.accounts.createLogin(entityId, {
      region_code: 'CA',
      name: 'EDD e-Services for Business',
      login_url: 'https://eddservices.edd.ca.gov/',
      secrets: {
        username: 'edd-user-7731',
        password: 'Correct horse battery staple!',
        security_answers: [{ question: 'First pet?', answer: 'Biscuit' }],
        totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/logins/${login.id}/sessions`,
      headers: bearer(token),
      payload: { callback_url: callback.url },
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openHostedLink(page, json(res).url);
    await expect(page.getByText('edd-user-7731').isVisible()).resolves.toBe(true);
    await expect(page.getByText(/^\d{6}$/).isVisible()).resolves.toBe(true);
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'login-reveal');
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });
});
