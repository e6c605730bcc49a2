import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Response } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { createTestApp, type TestApp, type TestAppOptions } from './app.js';

/** Debian's chromium; CI installs it (.ci/run). Never a downloaded browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Generous timeouts: a slow 2-core machine runs the browser, the app and PostgreSQL at once. */
export const BROWSER_TIMEOUT_MS = 20_000;

export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'screenshots');

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 900 },
} as const;

/** One headless chromium per test file; open a fresh context (`newContext`) per test. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    timeout: 60_000,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh, isolated context with generous timeouts and a fixed locale (en-US: date inputs read mm/dd/yyyy). `bypassCSP` lets `checkAccessibility` run axe-core
 * (the hosted pages' CSP forbids every script); it does not change what the pages themselves may do.
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-US', bypassCSP: true, ...options });
  context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
  return context;
}

import { freePort } from '../../src/lib/free-port.js';

export { freePort };

const isAddressInUse = (error: unknown) => (error as { code?: string } | null)?.code === 'EADDRINUSE';

export interface LiveApp extends TestApp {
  /** http://127.0.0.1:<port>, also the app's publicBaseUrl (so links and the Origin check match). */
  baseUrl: string;
  port: number;
}

/** A test app listening on 127.0.0.1 for a real browser, its public URL being where it listens. */
export async function startLiveApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<LiveApp> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ ...overrides, publicBaseUrl: baseUrl }, undefined, options);
    try {
      await t.app.listen({ host: '127.0.0.1', port });
      return { ...t, baseUrl, port };
    } catch (error) {
      await t.close();
      // Another process took the port between picking and listening: pick again.
      if (!isAddressInUse(error) || attempt >= 5) throw error;
    }
  }
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A tiny local HTTP server standing in for the platform: it records requests and answers with a page. */
export interface CallbackServer {
  url: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startCallbackServer(path = '/welcome'): Promise<CallbackServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers });
    request.resume();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      '<!doctype html><html lang="en"><head><title>Platform</title></head><body><h1>Welcome back to the platform</h1></body></html>',
    );
  });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: '127.0.0.1', port }, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const origin = `http://127.0.0.1:${port}`;
      return {
        url: `${origin}${path}`,
        origin,
        requests,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      };
    } catch (error) {
      if (!isAddressInUse(error) || attempt >= 5) throw error;
    }
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

let axeSource: string | null = null;

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA, plus best practices) on the page and returns the violations
 * whose impact is serious or critical. The script is evaluated rather than added as a <script> tag: the
 * context must have `bypassCSP: true` (see `newContext`), since the pages' CSP forbids scripts.
 */
export async function checkAccessibility(page: Page): Promise<AxeViolation[]> {
  axeSource ??= ((await import('axe-core')) as unknown as { default: { source: string } }).default.source;
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable summary of violations, for assertion messages. */
export const describeViolations = (violations: AxeViolation[]) =>
  violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.html}`).join('\n')}`)
    .join('\n');

/**
 * Full-page PNGs of the page as it is now, at phone (375×812) and desktop (1280×900) widths, into
 * test-output/screenshots/<name>-phone.png and <name>-desktop.png. The viewport is restored afterwards.
 * Nothing is reloaded: error states and other results of a POST are captured as they are.
 */
export async function screenshot(page: Page, name: string): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  const files: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    const path = join(SCREENSHOT_DIR, `${name}-${label}.png`);
    await captureWithRetry(page, path);
    files.push(path);
  }
  if (original) await page.setViewportSize(original);
  return files;
}

/**
 * Headless chromium occasionally stops producing frames for a page on a busy machine, and a screenshot then
 * waits forever (CI hit it once in ~200 captures). The capture is an artefact, not an assertion: bring the page
 * to the front (which restarts its frames) and try again, twice, before failing.
 */
async function captureWithRetry(page: Page, path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path, fullPage: true, animations: 'disabled', timeout: BROWSER_TIMEOUT_MS });
      return;
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError' || attempt >= 3) throw error;
      await page.bringToFront();
    }
  }
}

/** Every URL the page (and its frames and workers) requests, to check none leaves the machine. */
export function recordRequests(target: Page | BrowserContext): string[] {
  const urls: string[] = [];
  target.on('request', (request) => {
    urls.push(request.url());
  });
  return urls;
}

/** URLs that are not on 127.0.0.1 (data: and about: URLs never leave the browser and are allowed). */
export const externalRequests = (urls: string[]) =>
  urls.filter((url) => {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'data:' || protocol === 'about:' || protocol === 'blob:') return false;
    return hostname !== '127.0.0.1';
  });

/** WCAG contrast ratio of two `rgb(...)`/`rgba(...)` colours (alpha ignored). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => {
      const c = Number(x) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The confirmation form a single-use link's page shows (hosted links and the back office's sign-in links). */
const LINK_CONFIRM_BUTTON = 'form[action="/hosted/s"] button[type="submit"], form[action="/operator/link"] button[type="submit"]';

/**
 * Opens a hosted link the way its person does: the link shows a confirmation page, and its button uses the
 * link up (a mail scanner's GET spends nothing). Every browser test opens hosted-session links through this
 * (never page.goto on a /hosted/s/ link directly), so the link's opening ritual lives in one place.
 * Answers the response of the page the person lands on (the link's own page when it cannot be used).
 */
export async function openHostedLink(page: Page, url: string): Promise<Response | null> {
  const opened = await page.goto(url, { waitUntil: 'load' });
  const confirm = page.locator(LINK_CONFIRM_BUTTON);
  if (opened?.status() !== 200 || (await confirm.count()) === 0) return opened;
  // The button's POST answers 303; the page the person lands on is the first GET that is not a redirect.
  const landed = page.waitForEvent(
    'response',
    (r) =>
      r.request().isNavigationRequest() &&
      r.frame() === page.mainFrame() &&
      r.request().method() === 'GET' &&
      (r.status() < 300 || r.status() >= 400),
  );
  const loaded = page.waitForEvent('load');
  await confirm.click();
  const [response] = await Promise.all([landed, loaded]);
  return response;
}
