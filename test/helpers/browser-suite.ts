import type { Browser, BrowserContext, BrowserContextOptions, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { createPlatform, type TestAppOptions } from './app.js';
import {
  launchBrowser,
  newContext,
  recordRequests,
  startCallbackServer,
  startLiveApp,
  type CallbackServer,
  type LiveApp,
} from './browser.js';

export interface BrowserSuiteOptions {
  /** Configuration of the live app, or a function giving it when the suite starts (e.g. a fresh data directory). */
  config?: Partial<Config> | (() => Promise<Partial<Config>>);
  app?: TestAppOptions;
  /** Starts the platform's local server (`callback`) with this path. */
  callbackPath?: string;
}

/** What a browser test file works with; the fields are set once the suite's `beforeAll` has run. */
export interface BrowserSuite {
  browser: Browser;
  t: LiveApp;
  /** The platform's local server, when `callbackPath` was given. */
  callback: CallbackServer;
  /** The API key of the platform "Acme Payroll", created for the file. */
  apiKey: string;
  /** A fresh context (closed after the test) and page; every request the context makes is recorded. */
  openPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page; requests: string[] }>;
  /** A page of `context` whose document responses are tracked (see `lastDocument`). */
  trackedPage(context: BrowserContext): Promise<Page>;
  /** The last main-frame document response of a tracked page (redirects included). */
  lastDocument(page: Page): Response | null;
  /** Where the browser is and what it shows, for failure messages. */
  whereIs(page: Page): Promise<string>;
  /** Runs an action that loads a new document (a click, Enter) and checks the browser lands on `pathname`. */
  navigate(page: Page, action: () => Promise<unknown>, pathname: string): Promise<void>;
  /** Submits a form whose answer is a page of its own (a validation error); returns that response. */
  submitExpectingPage(page: Page, action: () => Promise<unknown>): Promise<Response>;
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;
export const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/**
 * The browser tests' one setup: a headless chromium, a live app (and the platform's local server) and a
 * platform for the file, started in `beforeAll`; the contexts `openPage` opened are closed after each test,
 * everything else after the file.
 */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const contexts: BrowserContext[] = [];
  /** The main frame's document responses per page (redirects included), to tell where a navigation ended. */
  const documents = new WeakMap<Page, Response[]>();

  const suite: BrowserSuite = {
    browser: undefined as unknown as Browser,
    t: undefined as unknown as LiveApp,
    callback: undefined as unknown as CallbackServer,
    apiKey: '',
    async openPage(contextOptions = {}) {
      const context = await newContext(suite.browser, contextOptions);
      contexts.push(context);
      const requests = recordRequests(context);
      const page = await suite.trackedPage(context);
      return { context, page, requests };
    },
    async trackedPage(context) {
      const page = await context.newPage();
      const responses: Response[] = [];
      documents.set(page, responses);
      page.on('response', (r) => {
        if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) responses.push(r);
      });
      return page;
    },
    lastDocument: (page) => documents.get(page)?.at(-1) ?? null,
    async whereIs(page) {
      const doc = suite.lastDocument(page);
      const h1 = await page
        .locator('h1')
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => null);
      const shown = await page
        .locator('.notice, .error-summary')
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => null);
      return `the browser shows ${page.url()} (${doc ? `${doc.request().method()} → ${doc.status()}` : 'no response'}, "${h1}"${shown ? `, notice "${shown.trim()}"` : ''})`;
    },
    async navigate(page, action, pathname) {
      const loaded = page.waitForEvent('load');
      loaded.catch(() => undefined); // awaited below unless the action fails
      await action();
      await loaded;
      if (pathOf(page) !== pathname) expect.fail(`expected to land on ${pathname}, but ${await suite.whereIs(page)}`);
    },
    async submitExpectingPage(page, action) {
      const loaded = page.waitForEvent('load');
      loaded.catch(() => undefined); // awaited below unless the action fails
      await action();
      await loaded;
      const doc = suite.lastDocument(page)!;
      expect(doc.request().method(), await suite.whereIs(page)).toBe('POST');
      return doc;
    },
  };

  beforeAll(async () => {
    [suite.browser, suite.t, suite.callback] = await Promise.all([
      launchBrowser(),
      (typeof options.config === 'function' ? options.config() : Promise.resolve(options.config)).then((config) =>
        startLiveApp(config, options.app),
      ),
      options.callbackPath === undefined ? (undefined as unknown as CallbackServer) : startCallbackServer(options.callbackPath),
    ]);
    ({ apiKey: suite.apiKey } = await createPlatform(suite.t.db, 'Acme Payroll'));
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all([suite.browser?.close(), suite.callback?.close()]);
    await suite.t?.close();
  });
  return suite;
}
