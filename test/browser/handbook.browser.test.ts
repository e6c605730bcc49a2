/**
 * The handbook builder and an employee's acknowledgement, in headless chromium: the owner gives the missing
 * employee count (a refused one first), answers the questions (a refused form first, with what was typed kept),
 * reviews the policies, adds an employee, publishes version 1 and reads it; the employee opens their link,
 * acknowledges with their typed name, and the platform sees it in GET /v2/handbook. Every page axe-clean at
 * phone and desktop widths, without sideways scrolling, captured into test-output/screenshots (docs/screenshots).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { externalRequests, openHostedLink } from '../helpers/browser.js';
import { heading, pathOf, useBrowserSuite } from '../helpers/browser-suite.js';
import { HANDBOOK_CATALOG, handbookSummary, validAnswer } from '../helpers/handbook.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('handbook builder and acknowledgement, in a browser', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { navigate } = suite;
  const { setupEntity, openPage, capture } = createTaskPages(suite);

  /** Fills every empty question field with a valid answer (radio groups keep their proposed default). */
  async function fillQuestions(page: Page) {
    for (const input of await page.locator('input[name^="q_"]:not([type="radio"])').all()) {
      if (await input.inputValue()) continue;
      const id = (await input.getAttribute('name'))!.slice(2);
      await input.fill(id === 'hr-contact' ? 'Dana Reyes, people@harbor.example' : validAnswer(HANDBOOK_CATALOG.questions.get(id)!));
    }
    for (const name of new Set(
      await page.locator('input[type="radio"][name^="q_"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name)),
    )) {
      if (!(await page.locator(`input[name="${name}"]:checked`).count())) await page.locator(`input[name="${name}"]`).first().check();
    }
  }

  it('walks the builder to a published version, and an employee acknowledges it', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/v2/handbook/session');
    const { page, requests } = await openPage({ a11y: true });
    await openHostedLink(page, url!);
    expect(pathOf(page)).toBe('/hosted/handbook');
    expect(await heading(page)).toBe('Your employee handbook');
    await capture(page, 'handbook-start');

    // Step 1: California has employees but no count yet.
    await navigate(page, () => page.getByRole('link', { name: /^Start: Employees by state/ }).click(), '/hosted/handbook/states');
    const count = page.getByLabel('Employees in California');
    await count.fill('0');
    await suite.submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(await page.locator('.error-summary').textContent()).toContain('Enter a whole number of employees, 1 or more.');
    expect(await page.getByLabel('Employees in California').inputValue()).toBe('0');
    await capture(page, 'handbook-states-error');
    await page.getByLabel('Employees in California').fill('16');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/handbook/questions');

    // Step 2: the questions. A blank HR contact is refused, the proposed answers stay as they were.
    const contact = page.locator('input[name="q_hr-contact"]');
    expect(await contact.count()).toBe(1);
    await suite.submitExpectingPage(page, () => page.getByRole('button', { name: 'Save and continue' }).click());
    expect(await page.locator('.error-summary').textContent()).toContain('Enter an answer.');
    await capture(page, 'handbook-questions-error');
    for (let round = 0; round < 4 && pathOf(page) === '/hosted/handbook/questions'; round++) {
      await fillQuestions(page);
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.waitForLoadState('load');
    }
    expect(pathOf(page), await suite.whereIs(page)).toBe('/hosted/handbook/policies');

    // Step 3: the policies, with the answers in their text.
    expect(await page.getByRole('heading', { name: /Equal employment opportunity/ }).count()).toBe(1);
    await capture(page, 'handbook-policies');
    await navigate(page, () => page.getByRole('button', { name: 'Save and continue' }).click(), '/hosted/handbook/employees');

    // Step 4: an employee.
    await page.getByLabel('Full name').fill('Ana Lopez');
    await page.getByLabel('E-mail address').fill('ana@harbor.example');
    await navigate(page, () => page.getByRole('button', { name: 'Add employee' }).click(), '/hosted/handbook/employees');
    expect(await page.locator('.notice').textContent()).toContain('Ana Lopez added.');
    // An 84-character address wraps at phone width instead of widening the page.
    await page.getByLabel('Full name').fill('Maria García-López');
    await page.getByLabel('E-mail address').fill(`maria.garcia-lopez.${'x'.repeat(45)}@harbor-labs.example`);
    await navigate(page, () => page.getByRole('button', { name: 'Add employee' }).click(), '/hosted/handbook/employees');
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize(viewport);
    await capture(page, 'handbook-employees');

    // Step 5: review and publish.
    await navigate(page, () => page.getByRole('link', { name: 'Continue to review' }).click(), '/hosted/handbook/publish');
    await capture(page, 'handbook-review');
    await navigate(page, () => page.getByRole('button', { name: 'Publish version 1' }).click(), '/hosted/handbook/published');
    expect(await heading(page)).toBe('Version 1 is published');
    expect(await page.getByRole('heading', { name: 'Harbor Labs employee handbook' }).count()).toBe(1);
    const pdfHref = await page.getByRole('link', { name: 'Download the PDF' }).getAttribute('href');
    const pdf = await fetch(pdfHref!);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    await capture(page, 'handbook-published');
    const ackUrl = await page.getByLabel('Personal link of Ana Lopez').inputValue();
    expect(externalRequests(requests)).toEqual([]);

    // The employee's page: opening it acknowledges nothing.
    const employee = await openPage({ a11y: true });
    await employee.page.goto(ackUrl, { waitUntil: 'load' });
    expect(await heading(employee.page)).toBe('Read and acknowledge your handbook');
    expect(await employee.page.getByRole('heading', { name: 'Harbor Labs employee handbook' }).count()).toBe(1);
    expect((await handbookSummary(suite.t.app, await tokenOf(api.entityId))).acknowledgement_stats).toMatchObject({
      signed: 0,
      pending: 2,
    });
    await capture(employee.page, 'handbook-acknowledge');
    await suite.submitExpectingPage(employee.page, () =>
      employee.page.getByRole('button', { name: 'I have read and acknowledge the handbook' }).click(),
    );
    expect(await employee.page.locator('.error-summary').textContent()).toContain('Type your full name to acknowledge.');
    // The refused form reloads on the form (and its error summary), not at the top of the long handbook.
    expect(new URL(employee.page.url()).hash).toBe('#acknowledge');
    await employee.page.getByLabel('Your full name').fill('Ana Lopez');
    await employee.page.getByRole('button', { name: 'I have read and acknowledge the handbook' }).click();
    await employee.page.waitForLoadState('load');
    expect(await heading(employee.page)).toBe('Handbook acknowledged');
    expect(await employee.page.locator('.notice').textContent()).toContain('Thank you, Ana Lopez: you acknowledged this version');
    await capture(employee.page, 'handbook-acknowledged');
    expect((await handbookSummary(suite.t.app, await tokenOf(api.entityId))).acknowledgement_stats).toEqual({
      signed: 1,
      outdated: 0,
      pending: 1,
      missing_emails: 0,
    });
  });

  async function tokenOf(entityId: string): Promise<string> {
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: suite.apiKey },
      payload: { legal_entity_id: entityId },
    });
    return (res.json() as { access_token: string }).access_token;
  }
});
