/**
 * The published handbook's HTML (src/pages/handbook-document.ts) with the hosted pages' stylesheet, in chromium:
 * accessible, readable at phone width, its contents links land on their policies, and it prints as a document.
 * The article is rendered standalone here; the builder and acknowledgement pages embed the same fragment.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHandbookCatalog, fillPolicyText } from '../../src/catalog/handbook.js';
import { handbookArticle, type HandbookDocument } from '../../src/pages/handbook-document.js';
import { html, layout } from '../../src/pages/html.js';
import { checkAccessibility, describeViolations, launchBrowser, newContext, screenshot, VIEWPORTS } from '../helpers/browser.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const catalog = loadHandbookCatalog();
const answers = {
  ...Object.fromEntries([...catalog.questions.values()].map((q) => [q.id, q.default])),
  'hr-contact': 'Dana Lee, Office Manager (dana@example.com)',
  'offers-paid-vacation': true,
};
const policies = (ids: string[], regionName: string) =>
  ids.map((id) => {
    const policy = catalog.policy(id)!;
    return {
      id,
      title: policy.title,
      text: fillPolicyText(policy.body, { company: 'Rose & Thorn Florists', regionName, answers, questions: catalog.questions }),
    };
  });

const doc: HandbookDocument = {
  businessName: 'Rose & Thorn Florists',
  version: 2,
  publishedAt: '2026-03-04T15:00:00.000Z',
  regionNames: ['California', 'Oregon'],
  contact: 'Dana Lee, Office Manager (dana@example.com)',
  sections: [
    {
      region: 'US',
      heading: 'Policies for every employee',
      policies: policies(
        [
          'us-equal-employment-opportunity',
          'us-anti-harassment',
          'us-pay-and-overtime',
          'us-paid-vacation',
          'us-holidays',
          'us-workplace-safety',
        ],
        'California',
      ),
    },
    {
      region: 'CA',
      heading: 'California',
      policies: policies(['us-breaks'], 'California').map((p) => ({ ...p, id: 'ca-example', title: 'Meal and rest breaks in California' })),
    },
    {
      region: 'OR',
      heading: 'Oregon',
      policies: policies(['us-attendance'], 'Oregon').map((p) => ({ ...p, id: 'or-example', title: 'Sick time in Oregon' })),
    },
  ],
};

describe('the published handbook in a browser', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    const css = await readFile(path.join(ROOT, 'public', 'statehouse.css'), 'utf8');
    const body = html`<h1>Employee handbook</h1>${handbookArticle(doc)}`;
    const content = layout({ title: 'Employee handbook', platformName: 'Bloom Payroll', body }).replace(
      '<link rel="stylesheet" href="/hosted/assets/statehouse.css">',
      `<style>${css}</style>`,
    );
    page = await (await newContext(browser)).newPage();
    await page.setContent(content);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('is accessible and fits a phone without sideways scrolling', async () => {
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      const violations = await checkAccessibility(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
    }
    // test-output/screenshots/handbook-document-{phone,desktop}.png; docs/screenshots holds a copy.
    await screenshot(page, 'handbook-document');
  });

  it('names the business, version, date and states, and lists every section and policy in its contents', async () => {
    await expect(page.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Rose & Thorn Florists employee handbook');
    await expect(page.locator('.handbook-facts').innerText()).resolves.toMatch(
      /Version\s+2[\s\S]*March 4, 2026[\s\S]*California and Oregon/i,
    );
    const contents = page.getByRole('navigation', { name: 'Contents' });
    await expect(contents.getByRole('link').allTextContents()).resolves.toEqual([
      'Policies for every employee',
      ...doc.sections[0]!.policies.map((p) => p.title),
      'California',
      'Meal and rest breaks in California',
      'Oregon',
      'Sick time in Oregon',
    ]);
    await expect(page.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual([
      'Contents',
      'Policies for every employee',
      'California',
      'Oregon',
    ]);
  });

  it('takes a reader from the contents to the policy', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Sick time in Oregon' }).click();
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#policy-or-example');
    await expect(page.getByRole('heading', { level: 4, name: 'Sick time in Oregon' }).isVisible()).resolves.toBe(true);
    const top = await page.getByRole('heading', { level: 4, name: 'Sick time in Oregon' }).evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(VIEWPORTS.phone.height / 2);
  });

  it('prints as the handbook alone, each state starting on a new page', async () => {
    await page.emulateMedia({ media: 'print' });
    try {
      await expect(page.locator('header.top').isVisible()).resolves.toBe(false);
      await expect(page.locator('footer.foot').isVisible()).resolves.toBe(false);
      await expect(page.getByRole('link', { name: 'Back to contents' }).first().isVisible()).resolves.toBe(false);
      await expect(page.locator('#handbook-ca').evaluate((el) => getComputedStyle(el).breakBefore)).resolves.toBe('page');
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
    await expect(page.locator('header.top').isVisible()).resolves.toBe(true);
  });
});
