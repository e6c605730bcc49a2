import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { json } from './app.js';
import { checkAccessibility, describeViolations, openHostedLink } from './browser.js';
import { pathOf, type BrowserSuite } from './browser-suite.js';

/** What the hosted-signup-*.browser.test.ts files share: signup sessions, focus and accessibility checks. */
export function createSignupPages(suite: BrowserSuite) {
  /** A hosted signup session as the platform asks for it; the user is sent back to the platform's local server. */
  async function createSession(body: Record<string, unknown> = {}) {
    const res = await suite.t.app.inject({
      method: 'POST',
      url: '/accounts/signup/sessions',
      headers: { authorization: suite.apiKey },
      payload: {
        business_name: 'Rose & Thorn Florists',
        user_email: 'rose@example.com',
        callback_url: `${suite.callback.url}?ref=abc`,
        ...body,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const session = json<{ url: string; legal_entity_id: string }>(res);
    expect(session.url.startsWith(`${suite.t.baseUrl}/hosted/s/`)).toBe(true);
    return session;
  }

  const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase() || null);

  /** Presses Tab until the element `id` has focus (a date input takes several: month, day, year). */
  async function tabTo(page: Page, id: string) {
    for (let i = 0; i < 6 && (await activeId(page)) !== id; i++) await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe(id);
  }

  async function expectAccessible(page: Page) {
    const violations = await checkAccessibility(page);
    expect(violations, `${pathOf(page)}\n${describeViolations(violations)}`).toEqual([]);
  }

  /**
   * The error summary's links must each say which field they lead to (WCAG 2.1 SC 2.4.4, link purpose in context):
   * "This field is required" three times in a row does not. Soft, so that the rest of the flow still runs.
   */
  async function expectDistinctSummaryLinks(page: Page) {
    const links = await page
      .getByRole('alert')
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => `${a.textContent?.trim()} → ${a.getAttribute('href')}`));
    const names = links.map((l) => l.split(' → ')[0]);
    expect.soft(new Set(names).size, `${pathOf(page)}: error summary links with the same text:\n${links.join('\n')}`).toBe(names.length);
  }

  /** What a control tells assistive technology besides its name: the texts its aria-describedby points to. */
  const description = (page: Page, id: string) =>
    page.locator(`#${id}`).evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((ref) => document.getElementById(ref)?.textContent?.trim() ?? `<missing #${ref}>`)
        .join(' | '),
    );

  /** Opens a signup link as the owner does: it lands on the introduction, whose Start leads to `firstStep`. */
  async function startSignup(page: Page, url: string, firstStep: string) {
    await openHostedLink(page, url);
    expect(pathOf(page)).toBe('/hosted/signup/welcome');
    await suite.navigate(page, () => page.getByRole('button', { name: 'Start' }).click(), `/hosted/signup/${firstStep}`);
  }

  return { createSession, startSignup, activeId, tabTo, expectAccessible, expectDistinctSummaryLinks, description };
}
