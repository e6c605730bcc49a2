/**
 * Every signup page accessible and captured on a phone and a desktop, keyboard use, and no JavaScript.
 *
 * The hosted signup in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context
 * per test. Screenshots go to test-output/screenshots/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, externalRequests, openHostedLink, screenshot, type LiveApp } from '../helpers/browser.js';
import { heading, pathOf as path, useBrowserSuite } from '../helpers/browser-suite.js';
import { createSignupPages } from '../helpers/hosted-signup-browser.js';

describe('hosted signup in a browser: accessibility and keyboard', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({ config: { signupSessionTtlSeconds: 3600 }, callbackPath: '/welcome' });
  const { openPage, whereIs, navigate } = suite;
  const { createSession, startSignup, activeId, tabTo, expectAccessible } = createSignupPages(suite);
  let t: LiveApp;
  beforeAll(() => {
    ({ t } = suite);
  });

  it('every page is accessible and is captured on a phone and a desktop', async () => {
    // A platform that sent everything the required steps need: every step and the review can be opened.
    const { url } = await createSession({
      business_information: {
        entity_type: 'llc',
        tax_classification: 'disregarded',
        llc_managed_type: 'member_managed',
        incorporation_region: 'OR',
        incorporation_date: '2021-04-09',
        ein: '12-3456789',
        naics_code: '453110',
        accounting_method: 'cash',
        accounting_year_end: 6,
      },
    });
    const { page, requests } = await openPage();
    await openHostedLink(page, url);
    for (const [step, title] of [
      ['welcome', 'Set up Rose & Thorn Florists with Acme Payroll'],
      ['business', 'About your business'],
      ['contact', 'How to reach you'],
      ['accounting', 'Accounting (optional)'],
      ['review', 'Review and confirm'],
    ] as const) {
      const response = await page.goto(`${t.baseUrl}/hosted/signup/${step}`, { waitUntil: 'load' });
      expect(response?.status(), await whereIs(page)).toBe(200);
      expect(path(page)).toBe(`/hosted/signup/${step}`);
      expect(await heading(page)).toBe(title);
      // The stylesheet applies (CSP allows it): the card is laid out, the button is the accent colour.
      expect(await page.locator('main.card').evaluate((el) => getComputedStyle(el).borderRadius)).toBe('8px');
      expect(await page.locator('button[type="submit"]').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 92, 173)');
      // Nothing overflows sideways on a phone.
      await page.setViewportSize({ width: 375, height: 812 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await expectAccessible(page);
      await screenshot(page, `signup-${step}`);
    }

    // Opening the used link again.
    await openHostedLink(page, url);
    expect(await page.title()).toBe('This link has expired · Statehouse');
    expect(await heading(page)).toBe('This link has expired');
    expect(await page.locator('main').textContent()).toContain('Ask your platform for a new one');
    await expectAccessible(page);
    await screenshot(page, 'link-expired');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('keyboard: Tab reaches every field of every step in order, and focus is visible', async () => {
    const { url } = await createSession();
    const { page, requests } = await openPage();
    await openHostedLink(page, url);

    /** Reloads the page (focus starts at the top), then Tabs until focus leaves the page or reaches the submit button. */
    async function tabThrough(): Promise<string[]> {
      await page.reload({ waitUntil: 'load' });
      const reached: string[] = [];
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`;
        });
        if (name === null) break;
        if (reached.at(-1) !== name) reached.push(name); // a date input takes several Tabs
        if (name.startsWith('button:')) break;
      }
      return reached;
    }
    /** The page's focusable controls in document order, named as `tabThrough` names them. */
    const documentOrder = () =>
      page.evaluate(() =>
        [...document.body.querySelectorAll('a[href], input:not([type="hidden"]), select, textarea, button')].map((el) =>
          el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`,
        ),
      );

    /**
     * Focus as a keyboard user gives it (Tab), then the focus ring: a solid 3px outline, outside the control,
     * with at least 3:1 contrast against the background around it (WCAG 2.1 SC 1.4.11, non-text contrast).
     */
    async function expectFocusVisible(selector: string) {
      await page.locator(selector).focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const s = getComputedStyle(el);
        let background = 'rgb(255, 255, 255)';
        for (let p = el.parentElement; p; p = p.parentElement) {
          const bg = getComputedStyle(p).backgroundColor;
          if (bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) {
            background = bg;
            break;
          }
        }
        return {
          focusVisible: el.matches(':focus-visible'),
          style: s.outlineStyle,
          width: s.outlineWidth,
          offset: parseFloat(s.outlineOffset),
          color: s.outlineColor,
          background,
        };
      });
      expect(ring, selector).toMatchObject({ focusVisible: true, style: 'solid', width: '3px' });
      expect(ring.offset, selector).toBeGreaterThanOrEqual(0);
      const contrast = contrastRatio(ring.color, ring.background);
      if (contrast < 3)
        faintRings.push(`${path(page)} ${selector}: outline ${ring.color} on ${ring.background} is ${contrast.toFixed(2)}:1`);
    }
    /** Focus rings under 3:1, checked at the end so that the other keyboard checks run first. */
    const faintRings: string[] = [];

    // The introduction has one control, Start; Enter on it opens the first step.
    expect(path(page)).toBe('/hosted/signup/welcome');
    expect(await tabThrough()).toEqual(['button:Start']);
    await expectFocusVisible('button[type="submit"]');
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/business');

    const business = await tabThrough();
    expect(business).toEqual([
      '#f-business_name',
      '#f-entity_type',
      '#f-tax_classification',
      '#f-llc_managed_type',
      '#f-incorporation_location',
      '#f-incorporation_date',
      '#f-ein',
      'a:Back',
      'button:Save and continue',
    ]);
    expect(business).toEqual(await documentOrder());
    for (const selector of ['#f-business_name', '#f-entity_type', '#f-incorporation_date', '#f-ein', 'button[type="submit"]'])
      await expectFocusVisible(selector);

    // Fill the step with the keyboard only: type, pick options by their first letter, submit with Enter.
    /** Presses a letter on the focused select until it shows `value` (each press moves to the next option starting with it). */
    async function pickByLetter(letter: string, value: string) {
      for (let i = 0; i < 8 && (await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)) !== value; i++)
        await page.keyboard.press(letter);
      expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).toBe(value);
    }
    await page.reload({ waitUntil: 'load' });
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('f-business_name');
    await page.keyboard.press('Tab');
    await pickByLetter('L', 'llc');
    await page.keyboard.press('Tab');
    await pickByLetter('D', 'disregarded');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('f-incorporation_location');
    await pickByLetter('O', 'OR');
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('f-incorporation_date');
    await page.keyboard.type('04092021'); // month, day, year
    await tabTo(page, 'f-ein');
    expect(await page.getByLabel('Entity type').inputValue()).toBe('llc');
    expect(await page.getByLabel('Tax classification').inputValue()).toBe('disregarded');
    expect(await page.getByLabel('State of incorporation or formation').inputValue()).toBe('OR');
    expect(await page.getByLabel('Date of incorporation or formation').inputValue()).toBe('2021-04-09');
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/contact');

    const contact = await tabThrough();
    expect(contact).toEqual([
      '#f-user_email',
      '#f-business_email',
      '#f-business_phone',
      '#f-business_address-address_line_1',
      '#f-business_address-address_line_2',
      '#f-business_address-city',
      '#f-business_address-state',
      '#f-business_address-postal_code',
      '#f-business_address-country',
      'a:Back',
      'button:Save and continue',
    ]);
    expect(contact).toEqual(await documentOrder());
    for (const selector of ['#f-user_email', '#f-business_address-city', 'a.secondary']) await expectFocusVisible(selector);
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Oregon' });
    await page.getByLabel('ZIP code').fill('97201');
    await navigate(page, () => page.getByLabel('ZIP code').press('Enter'), '/hosted/signup/accounting');

    const accounting = await tabThrough();
    expect(accounting).toEqual([
      '#f-naics_code',
      '#f-accounting_method',
      '#f-accounting_period',
      '#f-accounting_year_end',
      '#f-futa_liability_year',
      'a:Back',
      'button:Save and continue',
    ]);
    expect(accounting).toEqual(await documentOrder());
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/review'); // Enter on the focused submit button

    // The review: the Change link of each step, Back, then Confirm.
    const review = await tabThrough();
    expect(review).toEqual(await documentOrder());
    expect(review.filter((x) => x.startsWith('a:Change'))).toEqual([
      'a:Change about your business',
      'a:Change how to reach you',
      'a:Change accounting (optional)',
    ]);
    expect(review.slice(-2)).toEqual(['a:Back', 'button:Confirm and complete signup']);
    for (const selector of ['a[href="/hosted/signup/business"] >> nth=0', 'button[type="submit"]']) await expectFocusVisible(selector);
    expect(externalRequests(requests)).toEqual([]);
    expect(faintRings, 'focus rings need 3:1 contrast with the background around them (WCAG 2.1 SC 1.4.11)').toEqual([]);
  });

  it('works with JavaScript disabled', async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage({ javaScriptEnabled: false });
    await startSignup(page, url, 'business');
    await page.getByLabel('Entity type').selectOption({ label: 'C corporation' });
    await page.getByLabel('Tax classification').selectOption({ label: 'Corporation (C corporation)' });
    await page.getByLabel('State of incorporation or formation').selectOption({ label: 'Delaware' });
    await page.getByLabel('Date of incorporation or formation').fill('2022-01-15');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/contact');
    expect(await page.getByLabel('Your email').inputValue()).toBe('rose@example.com');
    const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', entityId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_region: 'DE',
      incorporation_date: '2022-01-15',
      signup_step: 'contact',
      status: 'inactive',
    });
    expect(externalRequests(requests)).toEqual([]);
  });
});
