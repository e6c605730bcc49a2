import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, json } from '../helpers/app.js';
import {
  checkAccessibility, contrastRatio, describeViolations, externalRequests, launchBrowser, newContext, recordRequests, screenshot, startCallbackServer,
  startLiveApp, type CallbackServer, type LiveApp,
} from '../helpers/browser.js';

/**
 * The hosted signup in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context
 * per test. Screenshots go to test-output/screenshots/.
 */
describe('hosted signup in a browser', { timeout: 120_000 }, () => {
  let browser: Browser;
  let t: LiveApp;
  let apiKey: string;
  let platform: CallbackServer;
  const contexts: BrowserContext[] = [];
  /** The main frame's document responses per page (redirects included), to tell where a navigation ended. */
  const documents = new WeakMap<Page, Response[]>();

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

  /** A hosted signup session as the platform asks for it; the user is sent back to the platform's local server. */
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
    const responses: Response[] = [];
    documents.set(page, responses);
    page.on('response', (r) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) responses.push(r);
    });
    return { context, page, requests };
  }

  const path = (page: Page) => new URL(page.url()).pathname;
  const lastDocument = (page: Page) => documents.get(page)?.at(-1) ?? null;
  const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase() || null);
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  /** Where the browser is and what it shows, for failure messages. */
  async function whereIs(page: Page): Promise<string> {
    const doc = lastDocument(page);
    const h1 = await page.locator('h1').first().textContent({ timeout: 1000 }).catch(() => null);
    return `the browser shows ${page.url()} (${doc ? `${doc.request().method()} → ${doc.status()}` : 'no response'}, "${h1}")`;
  }

  /** Runs an action that loads a new document (a click, Enter) and checks the browser lands on `pathname`. */
  async function navigate(page: Page, action: () => Promise<unknown>, pathname: string): Promise<void> {
    const loaded = page.waitForEvent('load');
    await action();
    await loaded;
    if (path(page) !== pathname) expect.fail(`expected to land on ${pathname}, but ${await whereIs(page)}`);
  }

  /** Submits a form whose answer is a page at the same URL (a validation error); returns that response. */
  async function submitExpectingPage(page: Page, action: () => Promise<unknown>): Promise<Response> {
    const loaded = page.waitForEvent('load');
    await action();
    await loaded;
    const doc = lastDocument(page)!;
    expect(doc.request().method(), await whereIs(page)).toBe('POST');
    return doc;
  }

  /** Presses Tab until the element `id` has focus (a date input takes several: month, day, year). */
  async function tabTo(page: Page, id: string) {
    for (let i = 0; i < 6 && (await activeId(page)) !== id; i++) await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe(id);
  }

  async function expectAccessible(page: Page) {
    const violations = await checkAccessibility(page);
    expect(violations, `${path(page)}\n${describeViolations(violations)}`).toEqual([]);
  }

  /**
   * The error summary's links must each say which field they lead to (WCAG 2.1 SC 2.4.4, link purpose in context):
   * "This field is required" three times in a row does not. Soft, so that the rest of the flow still runs.
   */
  async function expectDistinctSummaryLinks(page: Page) {
    const links = await page.getByRole('alert').getByRole('link').evaluateAll((as) => as.map((a) => `${a.textContent?.trim()} → ${a.getAttribute('href')}`));
    const names = links.map((l) => l.split(' → ')[0]);
    expect.soft(new Set(names).size, `${path(page)}: error summary links with the same text:\n${links.join('\n')}`).toBe(names.length);
  }

  /** What a control tells assistive technology besides its name: the texts its aria-describedby points to. */
  const description = (page: Page, id: string) => page.locator(`#${id}`).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
      .map((ref) => document.getElementById(ref)?.textContent?.trim() ?? `<missing #${ref}>`).join(' | '));

  it('a form posted by the browser is accepted (same origin, though it sends Origin: null)', async () => {
    const { url } = await createSession({ business_information: { entity_type: 'c_corp', tax_classification: 'corp', incorporation_region: 'DE', incorporation_date: '2022-01-15' } });
    const { page } = await openPage();
    await page.goto(url, { waitUntil: 'load' });
    expect(path(page)).toBe('/hosted/signup/accounting'); // the required steps are complete: it resumes at the optional one
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/contact');
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/business');
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    posted.catch(() => undefined); // only awaited to explain a failure
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/contact').catch(async (error: Error) => {
      const headers = await (await posted).allHeaders();
      // The pages' Referrer-Policy: no-referrer makes browsers serialize the Origin of a form POST as "null" (Fetch
      // standard); the request is still same-origin (Sec-Fetch-Site) and carries the session's CSRF token.
      throw new Error(`${error.message}\nthe form POST was sent with origin: ${headers.origin}, sec-fetch-site: ${headers['sec-fetch-site']}`);
    });
  });

  it('a person signs up from the link to the platform\'s callback', async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage();

    // The link turns into a cookie session and a clean URL, landing on the first step.
    const opened = await page.goto(url, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    expect(path(page)).toBe('/hosted/signup/business');
    expect(await page.title()).toBe('About your business · Statehouse');
    expect(await heading(page)).toBe('About your business');
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('About your business');
    expect(await page.getByLabel('Legal business name').inputValue()).toBe('Rose & Thorn Florists'); // sent by the platform

    // First attempt: an LLC, but no tax classification, state or date, and a short EIN.
    await page.getByLabel('Entity type').selectOption({ label: 'Limited liability company (LLC)' });
    await page.getByLabel('Federal EIN').click();
    await page.keyboard.type('12-34');
    const invalid = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(invalid.status(), await whereIs(page)).toBe(422);
    expect(path(page)).toBe('/hosted/signup/business');

    const summary = page.getByRole('alert');
    expect(await summary.getByRole('heading').textContent()).toBe('Please fix these 4 problems');
    // Each error is next to its field: in the field's group, right above the control, part of its description.
    for (const [id, message] of [
      ['f-tax_classification', 'This field is required'],
      ['f-incorporation_location', 'This field is required'],
      ['f-incorporation_date', 'This field is required'],
      ['f-ein', 'Enter the 9-digit EIN, e.g. 12-3456789'],
    ] as const) {
      const error = page.locator(`#${id}-error`);
      const control = page.locator(`#${id}`);
      expect(await error.textContent()).toBe(message);
      expect(await error.isVisible()).toBe(true);
      expect(await error.evaluate((el, c) => el.parentElement === document.getElementById(c)?.parentElement, id)).toBe(true);
      const [errorBox, controlBox] = await Promise.all([error.boundingBox(), control.boundingBox()]);
      const gap = controlBox!.y - (errorBox!.y + errorBox!.height);
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThan(16);
      expect(await control.getAttribute('aria-invalid')).toBe('true');
      expect(await description(page, id)).toContain(message);
      expect(await summary.locator(`a[href="#${id}"]`).textContent()).toContain(message);
    }
    expect(await description(page, 'f-ein')).toBe('9 digits, for example 12-3456789 | Enter the 9-digit EIN, e.g. 12-3456789');
    await expectDistinctSummaryLinks(page);
    // What was typed is kept.
    expect(await page.getByLabel('Federal EIN').inputValue()).toBe('12-34');
    expect(await page.getByLabel('Entity type').inputValue()).toBe('llc');
    expect(await page.getByLabel('Legal business name').inputValue()).toBe('Rose & Thorn Florists');
    // The summary's links and the labels take focus to their field.
    await summary.getByRole('link', { name: 'Enter the 9-digit EIN, e.g. 12-3456789' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'f-ein');
    expect(new URL(page.url()).hash).toBe('#f-ein');
    await page.locator('label[for="f-tax_classification"]').click();
    expect(await activeId(page)).toBe('f-tax_classification');
    await expectAccessible(page);
    await screenshot(page, 'signup-business-errors');

    // Second attempt: fix each field and submit with Enter.
    await page.getByLabel('Tax classification').selectOption({ label: 'Disregarded entity (single-member LLC)' });
    await page.getByLabel('LLC management (LLCs only)').selectOption({ label: 'Member-managed' });
    await page.getByLabel('State of incorporation or formation').selectOption({ label: 'Oregon' });
    await page.getByLabel('Date of incorporation or formation').fill('2021-04-09');
    const ein = page.getByLabel('Federal EIN');
    await ein.clear();
    await ein.pressSequentially('123456789');
    await navigate(page, () => ein.press('Enter'), '/hosted/signup/contact');

    // Contact: a wrong email and half an address first.
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('How to reach you');
    expect(await page.getByLabel('Your email').inputValue()).toBe('rose@example.com');
    expect(await page.getByLabel('Country').inputValue()).toBe('US');
    await page.getByLabel('Your email').fill('rose@');
    await page.getByLabel('Street address').fill('1 Main St');
    const contactErrors = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(contactErrors.status(), await whereIs(page)).toBe(422);
    expect(await description(page, 'f-user_email')).toMatch(/^Enter a valid email address/);
    expect(await description(page, 'f-business_address-city')).toBe('This field is required');
    expect(await page.getByLabel('Street address').inputValue()).toBe('1 Main St');
    await expectDistinctSummaryLinks(page);
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
    await page.goBack({ waitUntil: 'load' }); // the browser's own Back button
    expect(path(page)).toBe('/hosted/signup/contact');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/accounting');

    // Accounting (optional).
    await page.getByLabel('NAICS code').fill('453110');
    await page.getByLabel('Accounting method').selectOption({ label: 'Cash' });
    await page.getByLabel('Fiscal year ends in').selectOption({ label: 'June' });
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/review');

    // Review: everything entered, each with a way to change it.
    expect(await heading(page)).toBe('Review and confirm');
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
    await navigate(page, () => page.getByRole('link', { name: 'Edit NAICS code' }).click(), '/hosted/signup/accounting');
    expect(await page.getByLabel('NAICS code').inputValue()).toBe('453110');
    expect(await page.getByLabel('Fiscal year ends in').inputValue()).toBe('6');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/review');

    // Confirm: the browser lands on the platform's callback.
    expect(platform.requests.filter((r) => r.url.includes(entityId))).toHaveLength(0);
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Confirm and complete signup' }).click();
    await landed;
    const callback = new URL(page.url());
    expect(callback.pathname).toBe('/welcome');
    expect(Object.fromEntries(callback.searchParams)).toEqual({ ref: 'abc', legal_entity_id: entityId, status: 'complete' });
    expect(await heading(page)).toBe('Welcome back to the platform');
    const received = platform.requests.filter((r) => r.url.includes(entityId));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', url: `/welcome?ref=abc&legal_entity_id=${entityId}&status=complete` });
    expect(received[0]!.headers.referer).toBeUndefined(); // hosted URLs are never leaked to the platform

    // Through the API: an active entity with what the person entered, and the tasks of its state.
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
    expect(new Set(list.map((x) => x.definition.location.code))).toEqual(new Set(['OR']));

    // The link was used up.
    const again = await page.goto(url, { waitUntil: 'load' });
    expect(again?.status()).toBe(410);
    expect(await heading(page)).toBe('This link has expired');

    // Nothing left the machine: every request went to the app or the platform's server, both on 127.0.0.1.
    expect(requests.length).toBeGreaterThan(10);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('every page is accessible and is captured on a phone and a desktop', async () => {
    // A platform that sent everything the required steps need: every step and the review can be opened.
    const { url } = await createSession({
      business_information: {
        entity_type: 'llc', tax_classification: 'disregarded', llc_managed_type: 'member_managed', incorporation_region: 'OR',
        incorporation_date: '2021-04-09', ein: '12-3456789', naics_code: '453110', accounting_method: 'cash', accounting_year_end: 6,
      },
    });
    const { page, requests } = await openPage();
    await page.goto(url, { waitUntil: 'load' });
    for (const [step, title] of [['business', 'About your business'], ['contact', 'How to reach you'], ['accounting', 'Accounting (optional)'], ['review', 'Review and confirm']] as const) {
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
    const expired = await page.goto(url, { waitUntil: 'load' });
    expect(expired?.status()).toBe(410);
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
    await page.goto(url, { waitUntil: 'load' });

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
    const documentOrder = () => page.evaluate(() =>
      [...document.body.querySelectorAll('a[href], input:not([type="hidden"]), select, textarea, button')].map((el) =>
        (el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`)));

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
        return { focusVisible: el.matches(':focus-visible'), style: s.outlineStyle, width: s.outlineWidth, offset: parseFloat(s.outlineOffset), color: s.outlineColor, background };
      });
      expect(ring, selector).toMatchObject({ focusVisible: true, style: 'solid', width: '3px' });
      expect(ring.offset, selector).toBeGreaterThanOrEqual(0);
      const contrast = contrastRatio(ring.color, ring.background);
      if (contrast < 3) faintRings.push(`${path(page)} ${selector}: outline ${ring.color} on ${ring.background} is ${contrast.toFixed(2)}:1`);
    }
    /** Focus rings under 3:1, checked at the end so that the other keyboard checks run first. */
    const faintRings: string[] = [];

    expect(path(page)).toBe('/hosted/signup/business');
    const business = await tabThrough();
    expect(business).toEqual(['#f-business_name', '#f-entity_type', '#f-tax_classification', '#f-llc_managed_type', '#f-incorporation_location', '#f-incorporation_date', '#f-ein', 'button:Save and continue']);
    expect(business).toEqual(await documentOrder());
    for (const selector of ['#f-business_name', '#f-entity_type', '#f-incorporation_date', '#f-ein', 'button[type="submit"]']) await expectFocusVisible(selector);

    // Fill the step with the keyboard only: type, pick options by their first letter, submit with Enter.
    /** Presses a letter on the focused select until it shows `value` (each press moves to the next option starting with it). */
    async function pickByLetter(letter: string, value: string) {
      for (let i = 0; i < 8 && (await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)) !== value; i++) await page.keyboard.press(letter);
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
      '#f-user_email', '#f-business_email', '#f-business_phone', '#f-business_address-address_line_1', '#f-business_address-address_line_2',
      '#f-business_address-city', '#f-business_address-state', '#f-business_address-postal_code', '#f-business_address-country',
      'a:Back', 'button:Save and continue',
    ]);
    expect(contact).toEqual(await documentOrder());
    for (const selector of ['#f-user_email', '#f-business_address-city', 'a.secondary']) await expectFocusVisible(selector);
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).fill('OR');
    await page.getByLabel('Postal code').fill('97201');
    await navigate(page, () => page.getByLabel('Postal code').press('Enter'), '/hosted/signup/accounting');

    const accounting = await tabThrough();
    expect(accounting).toEqual(['#f-naics_code', '#f-accounting_method', '#f-accounting_period', '#f-accounting_year_end', '#f-futa_liability_year', 'a:Back', 'button:Save and continue']);
    expect(accounting).toEqual(await documentOrder());
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/signup/review'); // Enter on the focused submit button

    // The review: every Edit link, Back, then Confirm.
    const review = await tabThrough();
    expect(review).toEqual(await documentOrder());
    expect(review.filter((x) => x.startsWith('a:Edit'))).toHaveLength(10);
    expect(review.slice(-2)).toEqual(['a:Back', 'button:Confirm and complete signup']);
    for (const selector of ['a[href="/hosted/signup/business"] >> nth=0', 'button[type="submit"]']) await expectFocusVisible(selector);
    expect(externalRequests(requests)).toEqual([]);
    expect(faintRings, 'focus rings need 3:1 contrast with the background around them (WCAG 2.1 SC 1.4.11)').toEqual([]);
  });

  it('works with JavaScript disabled', async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage({ javaScriptEnabled: false });
    await page.goto(url, { waitUntil: 'load' });
    expect(path(page)).toBe('/hosted/signup/business');
    await page.getByLabel('Entity type').selectOption({ label: 'C corporation' });
    await page.getByLabel('Tax classification').selectOption({ label: 'Corporation (C corporation)' });
    await page.getByLabel('State of incorporation or formation').selectOption({ label: 'Delaware' });
    await page.getByLabel('Date of incorporation or formation').fill('2022-01-15');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/contact');
    expect(await page.getByLabel('Your email').inputValue()).toBe('rose@example.com');
    const row = await t.db.selectFrom('legal_entities').selectAll().where('id', '=', entityId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ entity_type: 'c_corp', tax_classification: 'corp', incorporation_region: 'DE', incorporation_date: '2022-01-15', signup_step: 'contact', status: 'inactive' });
    expect(externalRequests(requests)).toEqual([]);
  });
});
