import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, json } from '../helpers/app.js';
import {
  checkAccessibility, describeViolations, externalRequests, launchBrowser, newContext, recordRequests, screenshot, startCallbackServer,
  startLiveApp, type CallbackServer, type LiveApp,
} from '../helpers/browser.js';

/**
 * The hosted signup in a real browser (Debian's chromium, headless), driven like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. Screenshots go to test-output/screenshots/.
 */
describe('hosted signup in a browser', () => {
  let browser: Browser;
  let t: LiveApp;
  let apiKey: string;
  let platform: CallbackServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [browser, t, platform] = await Promise.all([launchBrowser(), startLiveApp({ signupSessionTtlSeconds: 3600 }), startCallbackServer('/welcome')]);
    ({ apiKey } = await createPlatform(t.db, 'Acme Payroll'));
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), platform?.close()]);
    await t?.close();
  });

  /** A hosted signup session the platform asks for; the user is sent back to the platform's local server. */
  async function createSession(body: Record<string, unknown> = {}) {
    const res = await t.app.inject({
      method: 'POST', url: '/accounts/signup/sessions', headers: { authorization: apiKey },
      payload: { business_name: 'Rose & Thorn Florists', user_email: 'rose@example.com', callback_url: `${platform.url}?ref=abc`, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = json<{ url: string; legal_entity_id: string }>(res);
    expect(session.url.startsWith(`${t.baseUrl}/hosted/s/`)).toBe(true);
    return session;
  }

  async function openPage(options: Parameters<typeof newContext>[1] = {}) {
    const context = await newContext(browser, options);
    contexts.push(context);
    const requests = recordRequests(context);
    const page = await context.newPage();
    return { context, page, requests };
  }

  const path = (page: Page) => new URL(page.url()).pathname;

  /** Waits for the browser to land on `pathname` after an action that navigates (a click, Enter). */
  async function navigate(page: Page, action: () => Promise<unknown>, pathname: string): Promise<void> {
    const landed = page.waitForURL((url) => url.pathname === pathname, { waitUntil: 'load' });
    await action();
    await landed;
    expect(path(page)).toBe(pathname);
  }

  /** Submits a form whose answer is the page itself (a validation error): returns the POST's response. */
  async function submitExpectingPage(page: Page, action: () => Promise<unknown>): Promise<Response> {
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.request().isNavigationRequest());
    await action();
    const response = await answered;
    await page.waitForLoadState('load');
    return response;
  }

  async function expectAccessible(page: Page) {
    const violations = await checkAccessibility(page);
    expect(violations, `${path(page)}\n${describeViolations(violations)}`).toEqual([]);
  }

  /** What a field tells assistive technology: its accessible description (hint and error). */
  const description = (page: Page, id: string) => page.locator(`#${id}`).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean).map((ref) => document.getElementById(ref)?.textContent?.trim() ?? `<missing #${ref}>`).join(' | '));

  const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase() || null);

  it('a person signs up from the link to the platform\'s callback', async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage();

    // The link turns into a cookie session and a clean URL, landing on the first step.
    const opened = await page.goto(url, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    expect(path(page)).toBe('/hosted/signup/business');
    expect(page.url()).not.toContain('/hosted/s/');
    await expect(page.title()).resolves.toBe('About your business · Statehouse');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('About your business');
    expect(await page.getByLabel('Legal business name').inputValue()).toBe('Rose & Thorn Florists'); // prefilled by the platform
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('About your business');
    await expectAccessible(page);
    await screenshot(page, 'signup-business');

    // First attempt: an LLC, but no tax classification or state, and a short EIN.
    await page.getByLabel('Entity type').selectOption({ label: 'Limited liability company (LLC)' });
    await page.getByLabel('Federal EIN').pressSequentially('12-34');
    const invalid = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(invalid.status()).toBe(422);
    expect(path(page)).toBe('/hosted/signup/business');

    const summary = page.getByRole('alert');
    expect(await summary.getByRole('heading').textContent()).toBe('Please fix these 4 problems');
    // Each error is next to its field: inside the field's group, right above the control, and part of its description.
    for (const [id, message] of [
      ['f-tax_classification', 'This field is required'],
      ['f-incorporation_location', 'This field is required'],
      ['f-incorporation_date', 'This field is required'],
      ['f-ein', 'Enter the 9-digit EIN, e.g. 12-3456789'],
    ] as const) {
      const error = page.locator(`#${id}-error`);
      expect(await error.textContent()).toBe(message);
      expect(await error.evaluate((el, control) => el.parentElement === document.getElementById(control)?.parentElement, id)).toBe(true);
      const [errorBox, controlBox] = await Promise.all([error.boundingBox(), page.locator(`#${id}`).boundingBox()]);
      expect(controlBox!.y - (errorBox!.y + errorBox!.height)).toBeGreaterThanOrEqual(0);
      expect(controlBox!.y - (errorBox!.y + errorBox!.height)).toBeLessThan(16);
      expect(await page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
      expect(await description(page, id)).toContain(message);
      expect(await summary.locator(`a[href="#${id}"]`).textContent()).toBe(message);
    }
    expect(await description(page, 'f-ein')).toBe('9 digits, for example 12-3456789 | Enter the 9-digit EIN, e.g. 12-3456789');
    // What was typed is kept.
    expect(await page.getByLabel('Federal EIN').inputValue()).toBe('12-34');
    expect(await page.getByLabel('Entity type').inputValue()).toBe('llc');
    // The summary's links and the labels move focus to their field.
    await summary.getByRole('link', { name: 'Enter the 9-digit EIN, e.g. 12-3456789' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'f-ein');
    expect(new URL(page.url()).hash).toBe('#f-ein');
    await page.locator('label[for="f-tax_classification"]').click();
    expect(await activeId(page)).toBe('f-tax_classification');
    await expectAccessible(page);
    await screenshot(page, 'signup-business-errors');

    // Second attempt, by keyboard: fix each field and submit with Enter.
    await page.keyboard.press('Tab'); // leaves the tax classification for the LLC management
    await page.getByLabel('Tax classification').selectOption('disregarded');
    await page.getByLabel('LLC management (LLCs only)').selectOption({ label: 'Member-managed' });
    await page.getByLabel('State of incorporation or formation').selectOption({ label: 'Oregon' });
    await page.getByLabel('Date of incorporation or formation').fill('2021-04-09');
    const ein = page.getByLabel('Federal EIN');
    await ein.fill('');
    await ein.pressSequentially('123456789');
    await navigate(page, () => ein.press('Enter'), '/hosted/signup/contact');

    // Contact: an invalid email first, then a full address.
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('How to reach you');
    expect(await page.getByLabel('Your email').inputValue()).toBe('rose@example.com');
    expect(await page.getByLabel('Country').inputValue()).toBe('US');
    await expectAccessible(page);
    await screenshot(page, 'signup-contact');
    await page.getByLabel('Your email').fill('rose@');
    await page.getByLabel('Street address').fill('1 Main St');
    const contactErrors = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(contactErrors.status()).toBe(422);
    expect(await description(page, 'f-user_email')).toMatch(/^Enter a valid email address/);
    expect(await page.locator('#f-business_address-city-error').textContent()).toBe('This field is required');
    await expectAccessible(page);
    await screenshot(page, 'signup-contact-errors');
    await page.getByLabel('Your email').fill('rose@thorn.example');
    await page.getByLabel('Business phone').fill('503 555 0100');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).fill('OR');
    await page.getByLabel('Postal code').fill('97201');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/accounting');

    // Back and forth: what was saved is shown again.
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/contact');
    expect(await page.getByLabel('City').inputValue()).toBe('Portland');
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/business');
    expect(await page.getByLabel('Federal EIN').inputValue()).toBe('12-3456789');
    expect(await page.getByLabel('State of incorporation or formation').inputValue()).toBe('OR');
    expect(await page.getByRole('link', { name: 'Back' }).count()).toBe(0); // the first step has nowhere to go back to
    await page.goBack({ waitUntil: 'load' });
    expect(path(page)).toBe('/hosted/signup/contact');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/accounting');

    // Accounting (optional).
    await expectAccessible(page);
    await screenshot(page, 'signup-accounting');
    await page.getByLabel('NAICS code').fill('453110');
    await page.getByLabel('Accounting method').selectOption({ label: 'Cash' });
    await page.getByLabel('Fiscal year ends in').selectOption({ label: 'June' });
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/review');

    // Review: everything entered, each with a way to edit it.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Review and confirm');
    const rows = Object.fromEntries(await page.locator('.summary > div').evaluateAll((divs) =>
      divs.map((d) => [d.querySelector('dt')!.textContent!, d.querySelector('dd')!.textContent!])));
    expect(rows).toEqual({
      'Business name': 'Rose & Thorn Florists',
      'Entity type': 'Limited liability company (LLC)',
      'Tax classification': 'Disregarded entity (single-member LLC)',
      'State of incorporation': 'OR',
      'Date of incorporation': '2021-04-09',
      EIN: '12-3456789',
      'Your email': 'rose@thorn.example',
      'Business phone': '503 555 0100',
      'Business address': '1 Main St, Portland, OR, 97201, US',
      'NAICS code': '453110',
    });
    await expectAccessible(page);
    await screenshot(page, 'signup-review');
    await navigate(page, () => page.getByRole('link', { name: 'Edit NAICS code' }).click(), '/hosted/signup/accounting');
    expect(await page.getByLabel('NAICS code').inputValue()).toBe('453110');
    expect(await page.getByLabel('Fiscal year ends in').inputValue()).toBe('6');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/review');

    // Confirm: the browser lands on the platform's callback.
    expect(platform.requests).toHaveLength(0);
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Confirm and complete signup' }).click();
    await landed;
    const callback = new URL(page.url());
    expect(callback.pathname).toBe('/welcome');
    expect(Object.fromEntries(callback.searchParams)).toEqual({ ref: 'abc', legal_entity_id: entityId, status: 'complete' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome back to the platform');
    expect(platform.requests).toHaveLength(1);
    expect(platform.requests[0]).toMatchObject({ method: 'GET', url: `/welcome?ref=abc&legal_entity_id=${entityId}&status=complete` });
    expect(platform.requests[0]!.headers.referer).toBeUndefined(); // the hosted pages never leak their URL

    // The platform sees an active entity with what the person entered, and the tasks of its state.
    const auth = await t.app.inject({ method: 'POST', url: '/accounts/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: entityId } });
    expect(auth.statusCode, auth.body).toBe(200);
    const token = json<{ access_token: string }>(auth).access_token;
    const entity = await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
    expect(entity.statusCode, entity.body).toBe(200);
    expect(json(entity)).toMatchObject({
      id: entityId, status: 'active', business_name: 'Rose & Thorn Florists', user_email: 'rose@thorn.example',
      entity_type: 'llc', tax_classification: 'disregarded', llc_managed_type: 'member_managed',
      incorporation_location: 'OR', incorporation_date: '2021-04-09', ein: '12-3456789', business_phone: '503 555 0100',
      business_address: expect.objectContaining({ address_line_1: '1 Main St', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' }),
      naics_code: '453110', accounting_method: 'cash', accounting_year_end: 6,
    });
    const tasks = await t.app.inject({ url: '/tasks', headers: bearer(token) });
    expect(tasks.statusCode, tasks.body).toBe(200);
    const list = json<{ definition: { location: { code: string } } }[]>(tasks);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((x) => x.definition.location.code === 'OR')).toBe(true);

    // The link was used up: opening it again shows the expired page.
    const again = await page.goto(url, { waitUntil: 'load' });
    expect(again?.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has expired');
    expect(await page.locator('main').textContent()).toContain('Ask your platform for a new one');
    await expectAccessible(page);
    await screenshot(page, 'link-expired');

    // Nothing left the machine: every request went to the app or the platform's server, both on 127.0.0.1.
    expect(requests.length).toBeGreaterThan(10);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('keyboard: Tab reaches every field of every step in order, and focus is visible', async () => {
    const { url } = await createSession();
    const { page, requests } = await openPage();
    await page.goto(url, { waitUntil: 'load' });

    /** Tabs from the top of the page until focus leaves the form; returns the controls reached, in order. */
    async function tabThrough(): Promise<string[]> {
      await page.locator('body').focus();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const reached: string[] = [];
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const id = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`;
        });
        if (id === null) break;
        if (reached.at(-1) !== id) reached.push(id); // a date input takes several Tabs (month, day, year)
        if (id === 'button:Save and continue') break;
      }
      return reached;
    }
    /** The form's controls in document order, as `tabThrough` names them. */
    const expectedOrder = () => page.locator('main').evaluate((main) =>
      [...main.querySelectorAll('a[href], input:not([type="hidden"]), select, button')].map((el) =>
        (el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`)));

    async function expectFocusVisible(selector: string) {
      await page.locator(selector).focus();
      // Focus given by keyboard: Tab away and back, so :focus-visible applies as it would for a keyboard user.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const style = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const s = getComputedStyle(el);
        return { matches: el.matches(':focus-visible'), outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), outlineColor: s.outlineColor };
      });
      expect(style, selector).toEqual({ matches: true, outlineStyle: 'solid', outlineWidth: 3, outlineColor: 'rgb(240, 165, 0)' });
    }

    expect(path(page)).toBe('/hosted/signup/business');
    const business = await tabThrough();
    expect(business).toEqual(await expectedOrder());
    expect(business).toEqual(['#f-business_name', '#f-entity_type', '#f-tax_classification', '#f-llc_managed_type', '#f-incorporation_location', '#f-incorporation_date', '#f-ein', 'button:Save and continue']);
    await expectFocusVisible('#f-ein');
    await expectFocusVisible('#f-entity_type');
    await expectFocusVisible('#f-incorporation_date');
    await expectFocusVisible('button');

    // Fill the step using only the keyboard: type, pick options by typing, submit with Enter.
    await page.getByLabel('Legal business name').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Limited');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Disregarded');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Oregon');
    await page.keyboard.press('Tab');
    await page.keyboard.type('04092021'); // mm dd yyyy, segment by segment
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('f-ein');
    expect(await page.getByLabel('Entity type').inputValue()).toBe('llc');
    expect(await page.getByLabel('Tax classification').inputValue()).toBe('disregarded');
    expect(await page.getByLabel('State of incorporation or formation').inputValue()).toBe('OR');
    expect(await page.getByLabel('Date of incorporation or formation').inputValue()).toBe('2021-04-09');
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/contact');

    const contact = await tabThrough();
    expect(contact).toEqual(await expectedOrder());
    expect(contact).toEqual([
      '#f-user_email', '#f-business_email', '#f-business_phone', '#f-business_address-address_line_1', '#f-business_address-address_line_2',
      '#f-business_address-city', '#f-business_address-state', '#f-business_address-postal_code', '#f-business_address-country',
      'a:Back', 'button:Save and continue',
    ]);
    await expectFocusVisible('a.secondary');
    await expectFocusVisible('#f-business_address-city');
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).fill('OR');
    await page.getByLabel('Postal code').fill('97201');
    await navigate(page, () => page.getByLabel('Postal code').press('Enter'), '/hosted/signup/accounting');

    const accounting = await tabThrough();
    expect(accounting).toEqual(await expectedOrder());
    expect(accounting).toEqual(['#f-naics_code', '#f-accounting_method', '#f-accounting_period', '#f-accounting_year_end', '#f-futa_liability_year', 'a:Back', 'button:Save and continue']);
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/review'); // focus is on the submit button

    // The review: every Edit link, then Back, then Confirm.
    const review = await tabThrough();
    expect(review.filter((x) => x.startsWith('a:Edit'))).toHaveLength(10);
    expect(review.slice(-2)).toEqual(['a:Back', 'button:Confirm and complete signup']);
    await expectFocusVisible('a[href="/hosted/signup/business"]');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('works with JavaScript disabled', async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage({ javaScriptEnabled: false });
    await page.goto(url, { waitUntil: 'load' });
    expect(path(page)).toBe('/hosted/signup/business');
    await page.getByLabel('Entity type').selectOption('c_corp');
    await page.getByLabel('Tax classification').selectOption('corp');
    await page.getByLabel('State of incorporation or formation').selectOption('DE');
    await page.getByLabel('Date of incorporation or formation').fill('2022-01-15');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/contact');
    const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', entityId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ entity_type: 'c_corp', tax_classification: 'corp', incorporation_region: 'DE', signup_step: 'contact', status: 'inactive' });
    expect(externalRequests(requests)).toEqual([]);
  });
});
