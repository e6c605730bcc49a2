/**
 * A person signs up from the link back to the platform's callback; the browser's form posts are accepted.
 *
 * The hosted signup in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context
 * per test. Screenshots go to test-output/screenshots/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, json } from '../helpers/app.js';
import { externalRequests, openHostedLink, screenshot, type LiveApp, type CallbackServer } from '../helpers/browser.js';
import { heading, pathOf as path, useBrowserSuite } from '../helpers/browser-suite.js';
import { createSignupPages } from '../helpers/hosted-signup-browser.js';

describe('hosted signup in a browser: the flow', { timeout: 120_000 }, () => {
  const suite = useBrowserSuite({ config: { signupSessionTtlSeconds: 3600 }, callbackPath: '/welcome' });
  const { openPage, whereIs, navigate, submitExpectingPage } = suite;
  const { createSession, startSignup, activeId, expectAccessible, expectDistinctSummaryLinks, description } = createSignupPages(suite);
  let t: LiveApp;
  let platform: CallbackServer;
  let apiKey: string;
  beforeAll(() => {
    ({ t, callback: platform, apiKey } = suite);
  });

  it('a form posted by the browser is accepted (same origin, though it sends Origin: null)', async () => {
    const { url } = await createSession({
      business_information: {
        entity_type: 'c_corp',
        tax_classification: 'corp',
        incorporation_region: 'DE',
        incorporation_date: '2022-01-15',
      },
    });
    const { page } = await openPage();
    await startSignup(page, url, 'review'); // the platform gave every required detail: Start leads to the review
    await navigate(page, () => page.getByRole('link', { name: 'Change about your business' }).click(), '/hosted/signup/business');
    const posted = page.waitForRequest((r) => r.method() === 'POST');
    posted.catch(() => undefined); // only awaited to explain a failure
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/contact').catch(
      async (error: Error) => {
        const headers = await (await posted).allHeaders();
        // The pages' Referrer-Policy: no-referrer makes browsers serialize the Origin of a form POST as "null" (Fetch
        // standard); the request is still same-origin (Sec-Fetch-Site) and carries the session's CSRF token.
        throw new Error(
          `${error.message}\nthe form POST was sent with origin: ${headers.origin}, sec-fetch-site: ${headers['sec-fetch-site']}`,
        );
      },
    );
  });

  it("a person signs up from the link to the platform's callback", async () => {
    const { url, legal_entity_id: entityId } = await createSession();
    const { page, requests } = await openPage();

    // The link turns into a cookie session and a clean URL, landing on the introduction: who asks, what happens.
    await openHostedLink(page, url);
    expect(path(page)).toBe('/hosted/signup/welcome');
    expect(await heading(page)).toBe('Set up Rose & Thorn Florists with Acme Payroll');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'What you will do',
      'Already filled in by Acme Payroll',
      'After you confirm',
    ]);
    expect(await page.locator('main ul').textContent()).toContain('About your business: legal business name');
    await expectAccessible(page); // captured by hosted-signup-a11y.browser.test.ts
    await navigate(page, () => page.getByRole('button', { name: 'Start' }).click(), '/hosted/signup/business');
    expect(await page.title()).toBe('About your business · Statehouse');
    // What the platform filled in is pointed out, not silently taken.
    expect(await page.getByRole('note').textContent()).toBe(
      'Acme Payroll filled in some of these details. Check them and correct anything that is wrong.',
    );
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
      ['f-tax_classification', 'Choose the tax classification'],
      ['f-incorporation_location', 'Choose the state of incorporation or formation'],
      ['f-incorporation_date', 'Enter the date of incorporation or formation'],
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

    // Contact: a wrong email, a phone without its area code and half an address first.
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('How to reach you');
    expect(await page.getByLabel('Your email').inputValue()).toBe('rose@example.com');
    expect(await page.getByLabel('Country').inputValue()).toBe('US');
    expect(await description(page, 'f-business_phone')).toBe(
      "A US number such as (415) 555-0134, or another country's starting with +, e.g. +44 20 7946 0958",
    );
    await page.getByLabel('Your email').fill('rose@');
    await page.getByLabel('Business phone').fill('555-0100');
    await page.getByLabel('Street address').fill('1 Main St');
    const contactErrors = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(contactErrors.status(), await whereIs(page)).toBe(422);
    expect(await description(page, 'f-user_email')).toMatch(/^Enter a valid email address/);
    expect(await description(page, 'f-business_phone')).toMatch(/ \| Enter the full number with its area code, e\.g\. \(415\) 555-0134$/);
    expect(await description(page, 'f-business_address-city')).toBe('Enter the city');
    expect(await page.getByLabel('Street address').inputValue()).toBe('1 Main St');
    expect(await page.getByLabel('Business phone').inputValue()).toBe('555-0100');
    await expectDistinctSummaryLinks(page);
    await expectAccessible(page);
    await screenshot(page, 'signup-contact-errors');
    await page.getByLabel('Your email').fill('rose@thorn.example');
    await page.getByLabel('Business phone').fill('(503) 555-0100');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Oregon' });
    await page.getByLabel('ZIP code').fill('97201');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/accounting');

    // Back and forth: what was saved is shown again.
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/contact');
    expect(await page.getByLabel('City').inputValue()).toBe('Portland');
    await navigate(page, () => page.getByRole('link', { name: 'Back' }).click(), '/hosted/signup/business');
    expect(await page.getByLabel('Federal EIN').inputValue()).toBe('12-3456789');
    expect(await page.getByLabel('State of incorporation or formation').inputValue()).toBe('OR');
    expect(await page.getByRole('note').count()).toBe(0); // saved by the owner: no longer "filled in by the platform"
    expect(await page.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/hosted/signup/welcome');
    await page.goBack({ waitUntil: 'load' }); // the browser's own Back button
    expect(path(page)).toBe('/hosted/signup/contact');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/accounting');

    // Accounting (optional).
    await page.getByLabel('NAICS code').fill('453110');
    await page.getByLabel('Accounting method').selectOption({ label: 'Cash' });
    await page.getByLabel('Fiscal year ends in').selectOption({ label: 'June' });
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/signup/review');

    // Review: everything entered, in words, a section per step with a way to change it.
    expect(await heading(page)).toBe('Review and confirm');
    const sections = await page.locator('section.review-section').evaluateAll((list) =>
      list.map((section) => ({
        heading: section.querySelector('h2')!.textContent,
        change: section.querySelector('.review-heading a')!.getAttribute('href'),
        rows: Object.fromEntries(
          [...section.querySelectorAll('.summary > div')].map((d) => [
            d.querySelector('dt')!.textContent,
            (d.querySelector('dd') as HTMLElement).innerText.replace(/\n/g, ' / '),
          ]),
        ),
      })),
    );
    expect(sections).toEqual([
      {
        heading: 'About your business',
        change: '/hosted/signup/business',
        rows: {
          'Legal business name': 'Rose & Thorn Florists',
          'Entity type': 'Limited liability company (LLC)',
          'Tax classification': 'Disregarded entity (single-member LLC)',
          'LLC management': 'Member-managed',
          'State of incorporation or formation': 'Oregon',
          'Date of incorporation or formation': 'April 9, 2021',
          'Federal EIN': '12-3456789',
        },
      },
      {
        heading: 'How to reach you',
        change: '/hosted/signup/contact',
        rows: {
          'Your email': 'rose@thorn.example',
          'Business email': 'Not given',
          'Business phone': '(503) 555-0100',
          'Business address': '1 Main St / Portland, OR 97201 / United States',
        },
      },
      {
        heading: 'Accounting (optional)',
        change: '/hosted/signup/accounting',
        rows: {
          'NAICS code': '453110',
          'Accounting method': 'Cash',
          'Accounting period': 'Not given',
          'Fiscal year ends in': 'June',
          'First year of FUTA liability': 'Not given',
        },
      },
    ]);
    await navigate(page, () => page.getByRole('link', { name: 'Change accounting (optional)' }).click(), '/hosted/signup/accounting');
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
    const token = await accessToken(t.app, apiKey, entityId);
    const entity = await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
    expect(entity.statusCode, entity.body).toBe(200);
    expect(json(entity)).toMatchObject({
      id: entityId,
      status: 'active',
      business_name: 'Rose & Thorn Florists',
      user_email: 'rose@thorn.example',
      entity_type: 'llc',
      tax_classification: 'disregarded',
      llc_managed_type: 'member_managed',
      incorporation_location: 'OR',
      incorporation_date: '2021-04-09',
      ein: '12-3456789',
      business_phone: '+15035550100',
      business_address: expect.objectContaining({
        address_line_1: '1 Main St',
        city: 'Portland',
        state: 'OR',
        postal_code: '97201',
        country: 'US',
      }),
      naics_code: '453110',
      accounting_method: 'cash',
      accounting_year_end: 6,
    });
    const tasks = await t.app.inject({ url: '/tasks', headers: bearer(token) });
    expect(tasks.statusCode, tasks.body).toBe(200);
    const list = json<{ definition: { location: { code: string } } }[]>(tasks);
    expect(list.length).toBeGreaterThan(0);
    expect(new Set(list.map((x) => x.definition.location.code))).toEqual(new Set(['OR']));

    // The link was used up.
    await openHostedLink(page, url);
    expect(await heading(page)).toBe('This link has expired');

    // Nothing left the machine: every request went to the app or the platform's server, both on 127.0.0.1.
    expect(requests.length).toBeGreaterThan(10);
    expect(externalRequests(requests)).toEqual([]);
  });
});
