import { describe, expect, it } from 'vitest';
import { createAuditModule } from '../../src/modules/audit/index.js';
import { createOperatorsModule } from '../../src/modules/operators/index.js';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import { createOperatorKey } from '../helpers/back-office.js';
import { checkAccessibility, describeViolations, externalRequests, screenshot } from '../helpers/browser.js';
import { heading, pathOf, useBrowserSuite } from '../helpers/browser-suite.js';

// This file tests the opening of a link itself, so it opens links with page.goto; every other browser test
// goes through openHostedLink, which presses the button tested here.
describe('a single-use link in a browser: its page, then its button', () => {
  const suite = useBrowserSuite();

  it('shows what the link opens, survives reloads (a scanner) and is used up only by the button', async () => {
    const { token } = await signupWithToken(suite.t.app, suite.apiKey, { business_name: 'Rose & Thorn Florists' });
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    const url = json<{ url: string }>(res).url;
    const { page, requests } = await suite.openPage();

    // A scanner's visit, then the person's: the same page, the link still unused.
    for (let i = 0; i < 2; i++) {
      const opened = await page.goto(url, { waitUntil: 'load' });
      expect(opened?.status()).toBe(200);
      expect(opened?.headers()['x-robots-tag']).toBe('noindex');
      expect(await heading(page)).toBe('Your compliance tasks');
    }
    expect(await page.getByText('Acme Payroll sent you this link for Rose & Thorn Florists').isVisible()).toBe(true);
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'link-confirm');

    await suite.navigate(page, () => page.getByRole('button', { name: 'Continue to your compliance tasks' }).click(), '/hosted/tasks');
    // The address bar no longer holds the secret, and the link is spent.
    expect(page.url()).not.toContain('/hosted/s/');
    const again = await page.goto(url, { waitUntil: 'load' });
    expect(again?.status()).toBe(410);
    expect(await heading(page)).toBe('This link has expired');
    expect(externalRequests(requests)).toEqual([]);
  });

  it("the back office's sign-in link: its page names the operator; the button signs in", async () => {
    await createOperatorKey(suite.t.db, 'Ada Lovelace');
    const link = await createOperatorsModule({
      db: suite.t.db,
      audit: createAuditModule({ db: suite.t.db }).audit,
      publicBaseUrl: suite.t.baseUrl,
    }).sessions.issueLink('Ada Lovelace');
    const { page } = await suite.openPage();
    await page.goto(link.url, { waitUntil: 'load' });
    expect(await heading(page)).toBe('Sign in with this link');
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'operator-link-confirm');
    await suite.navigate(page, () => page.getByRole('button', { name: 'Sign in as Ada Lovelace' }).click(), '/operator');
    expect(pathOf(page)).toBe('/operator');
    expect(await heading(page)).toBe('Work queue');
  });
});
