import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, signupWithToken } from '../helpers/app.js';
import {
  checkAccessibility,
  describeViolations,
  externalRequests,
  newContext,
  openHostedLink,
  recordRequests,
  screenshot,
  type CallbackServer,
  type LiveApp,
} from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';
import { tinyPdf } from '../helpers/pdf.js';

describe('documents page in a browser', () => {
  let browser: Browser;
  let t: LiveApp;
  let callback: CallbackServer;
  let dataDir: string;
  let token: string;
  let emptyToken: string;
  const pdfs: Record<string, Buffer> = {};

  const suite = useBrowserSuite({
    config: async () => ({ dataDir: (dataDir = await mkdtemp(path.join(tmpdir(), 'statehouse-docs-browser-'))) }),
    callbackPath: '/back',
  });

  beforeAll(async () => {
    ({ browser, t, callback } = suite);
    let entityId: string;
    ({ entityId, token } = await signupWithToken(t.app, suite.apiKey, { business_name: 'Rose & Thorn Florists' }));
    ({ token: emptyToken } = await signupWithToken(t.app, suite.apiKey, { business_name: 'Empty Shelf LLC' }));
    const mail = t.app.services.mail;
    for (const [name, input] of [
      [
        'edd',
        {
          regionCode: 'CA',
          type: 'external-mail',
          receivedOn: '2025-03-04',
          sender: 'California Employment Development Department',
          subject: 'Your employer account number',
        },
      ],
      ['sos', { regionCode: 'NY', receivedOn: '2025-04-10', sender: 'New York Department of State', subject: 'Biennial statement due' }],
      ['irs', { receivedOn: '2025-01-02', sender: null }],
    ] as const) {
      pdfs[name] = tinyPdf(name);
      await mail.ingest({ legalEntityId: entityId, ...input, bytes: pdfs[name]! });
    }
  }, 120_000);
  afterAll(async () => {
    // Runs before the suite closes the app (after-hooks run in reverse order); the app no longer writes files then.
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const openSession = async (accessTokenValue: string) =>
    json(
      await t.app.inject({
        method: 'POST',
        url: '/v2/documents/manage/session',
        headers: bearer(accessTokenValue),
        payload: { callback_url: callback.url },
      }),
    ).url as string;

  it('lists the documents with their subject, sender and whether they are new; opening one serves its PDF and it is no longer new', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openHostedLink(page, await openSession(token));
    expect(new URL(page.url()).pathname).toBe('/hosted/documents');
    await expect(page.getByRole('heading', { level: 1, name: 'Documents' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
      'Biennial statement due New',
      'Your employer account number New',
      'Registered agent mail New',
    ]);
    await expect(page.locator('.document').first().locator('dd').allTextContents()).resolves.toEqual([
      'New York Department of State',
      'April 10, 2025',
      'Registered agent mail · New York',
    ]);
    await expect(page.getByText('3 documents, 3 new', { exact: false }).isVisible()).resolves.toBe(true);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const violations = await checkAccessibility(page);
      expect(violations, describeViolations(violations)).toEqual([]);
    }
    await screenshot(page, 'documents-list');

    const links = page.getByRole('link', { name: /^Open PDF/ });
    await expect(links.count()).resolves.toBe(3);
    // Through the page (which records the opening), then the signed link: the PDF itself.
    const opened = await page.request.get(new URL((await links.first().getAttribute('href'))!, page.url()).href);
    expect(opened.status()).toBe(200);
    expect(opened.headers()['content-type']).toBe('application/pdf');
    expect(await opened.body()).toEqual(pdfs.sos);
    await page.reload();
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe('Biennial statement due');
    await expect(page.getByText('3 documents, 2 new', { exact: false }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'documents-list-seen');

    await page.getByRole('link', { name: 'Return to Acme Payroll' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.url));
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });

  it('shows an empty state when no mail has arrived', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openHostedLink(page, await openSession(emptyToken));
    await expect(page.getByRole('heading', { level: 1, name: 'Documents' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('No documents yet.').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: /^Open PDF/ }).count()).resolves.toBe(0);
    const violations = await checkAccessibility(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'documents-empty');
    expect(externalRequests(requests)).toEqual([]);
    await context.close();
  });
});
