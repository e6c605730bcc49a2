import { describe, expect, it } from 'vitest';
import { bearer, createPlatform, json, signupWithToken } from '../helpers/app.js';
import { createOperatorKey } from '../helpers/back-office.js';
import { checkAccessibility, contrastRatio, describeViolations, externalRequests, openHostedLink, screenshot } from '../helpers/browser.js';
import { heading, pathOf, useBrowserSuite } from '../helpers/browser-suite.js';
import { solidPng } from '../helpers/images.js';

// A platform's brand on the hosted pages in a real browser: its logo and name in the header, its accent on
// buttons and links, all from our own origin, and still accessible.
describe('platform branding in a browser', () => {
  const suite = useBrowserSuite();
  const ACCENT = '#6b2fb3';

  it('the link page and the task list wear the logo, name and accent, axe-clean, loading nothing from elsewhere', async () => {
    const { apiKey, platformId } = await createPlatform(suite.t.db, 'Violet Payroll Holdings');
    const operatorKey = (await createOperatorKey(suite.t.db, 'brand desk')).key;
    const branded = await suite.t.app.inject({
      method: 'PUT',
      url: `/operator/v1/platforms/${platformId}/branding`,
      headers: bearer(operatorKey),
      payload: { display_name: 'Violet', accent_color: ACCENT, logo_base64: solidPng(96, 32, [107, 47, 179]).toString('base64') },
    });
    expect(branded.statusCode, branded.body).toBe(200);
    const { token } = await signupWithToken(suite.t.app, apiKey, { business_name: 'Rose & Thorn Florists' });
    const session = await suite.t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    const url = json<{ url: string }>(session).url;
    const { page, requests } = await suite.openPage();

    const checkBrand = async () => {
      expect(await page.locator('header .brand').textContent()).toBe('Violet');
      const logo = page.locator('header img.logo');
      expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
      const button = page.locator('main button[type="submit"]:not(.secondary)').first();
      const [background, color] = await button.evaluate((b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]);
      expect(background).toBe('rgb(107, 47, 179)');
      expect(contrastRatio(background!, color!)).toBeGreaterThanOrEqual(4.5);
      const violations = await checkAccessibility(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    };

    // This test looks at the link's own page before pressing its button (openHostedLink presses it).
    await page.goto(url, { waitUntil: 'load' });
    expect(await heading(page)).toBe('Your compliance tasks');
    expect(await page.getByText('Violet sent you this link for Rose & Thorn Florists').isVisible()).toBe(true);
    await checkBrand();
    await screenshot(page, 'link-confirm-branded');

    await openHostedLink(page, url);
    expect(pathOf(page)).toBe('/hosted/tasks');
    await checkBrand();
    const link = page.locator('main a[href^="/hosted/tasks/"]').first(); // a task's title
    expect(await link.evaluate((a) => getComputedStyle(a).color)).toBe('rgb(107, 47, 179)');
    await screenshot(page, 'tasks-list-branded');
    expect(externalRequests(requests)).toEqual([]);
  });
});
