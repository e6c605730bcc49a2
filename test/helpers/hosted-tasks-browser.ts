import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { bearer, json, signupWithToken } from './app.js';
import { checkAccessibility, describeViolations, openHostedLink, screenshot } from './browser.js';
import { pathOf, type BrowserSuite } from './browser-suite.js';

/**
 * What the hosted-tasks-*.browser.test.ts files share: a Delaware C corporation with California and New York
 * locations (`setupEntity`, a fresh one per test so that tests do not depend on each other), and the task pages'
 * controls, checks (axe-core, reflow, focus order) and screenshots.
 */
export function createTaskPages(suite: BrowserSuite) {
  type Status = 'todo' | 'in-progress' | 'done' | 'dismissed';
  interface ApiTask {
    id: string;
    status: Status;
    definition: { id: string; title: string; location: { code: string } };
  }

  /**
   * A Delaware C corporation signed up through the API, with a California location (employees and an office:
   * requirements) and a New York one (nothing known yet: question tasks). Returns API helpers scoped to it.
   */
  async function setupEntity(businessName = 'Harbor Labs') {
    const { entityId, token } = await signupWithToken(suite.t.app, suite.apiKey, {
      user_email: 'ada@harbor.example',
      business_name: businessName,
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2020-03-10',
    });
    const headers = bearer(token);
    const ca = await suite.t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers,
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    expect(ca.statusCode, ca.body).toBe(200);
    const ny = await suite.t.app.inject({ method: 'PUT', url: '/locations/NY', headers });
    expect(ny.statusCode, ny.body).toBe(200);

    const tasks = async () => {
      const res = await suite.t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers });
      expect(res.statusCode, res.body).toBe(200);
      return json<ApiTask[]>(res);
    };
    const task = async (definitionId: string, region?: string) => {
      const found = (await tasks()).find((x) => x.definition.id === definitionId && (!region || x.definition.location.code === region));
      if (!found) throw new Error(`no task ${definitionId} ${region ?? ''}`);
      return found;
    };
    const statusOf = async (id: string) => (await tasks()).find((x) => x.id === id)?.status;
    const location = async (code: string) => {
      const res = await suite.t.app.inject({ url: '/locations', headers });
      return json<{ location: { code: string }; config: Record<string, unknown> }[]>(res).find((l) => l.location.code === code);
    };
    /** A session link, as the platform asks for it; the user comes back to the platform's local server. */
    const session = async (url: string) => {
      const res = await suite.t.app.inject({ method: 'POST', url, headers, payload: { callback_url: `${suite.callback.url}?ref=tasks` } });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ url?: string; automation_url?: string }>(res);
    };
    const v2Task = async (id: string) => {
      const res = await suite.t.app.inject({ url: `/v2/tasks/${id}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ status: Status; source: { automation_status: string | null; automation_status_logs: { status: string }[] } }>(res);
    };
    return { entityId, headers, tasks, task, statusOf, location, session, v2Task };
  }

  /** A fresh context; `a11y` bypasses the CSP so that axe-core can run (the flows keep the real policy). */
  const openPage = (options: BrowserContextOptions & { a11y?: boolean } = {}) => {
    const { a11y = false, ...rest } = options;
    return suite.openPage({ bypassCSP: a11y, ...rest });
  };

  const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
  const notice = (page: Page) => page.locator('.notice');

  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /**
   * A task's button: its visible label and, visually hidden, the task's title and due date when it has one
   * ("Mark as done: <title>, due January 31, 2027"). The hidden part is absolutely positioned, so the accessible
   * name may read "Mark as done : <title>".
   */
  const taskButton = (page: Page, action: string, title: string) =>
    page.getByRole('button', { name: new RegExp(`^${escapeRegExp(action)}\\s*:\\s*${escapeRegExp(title)}(, due [^:]+)?$`) });

  /** What has focus: its id, or `radio:<value>`, or `<tag>:<accessible text>`. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      if (el.id) return el.id;
      if (el instanceof HTMLInputElement && el.type === 'radio') return `radio:${el.value}`;
      return `${el.tagName.toLowerCase()}:${el.textContent?.trim().replace(/\s+/g, ' ')}`;
    });

  /** Presses Tab until `target` has focus. */
  async function tabTo(page: Page, target: string, max = 40) {
    for (let i = 0; i < max && (await focused(page)) !== target; i++) await page.keyboard.press('Tab');
    expect(await focused(page), `Tab did not reach ${target}`).toBe(target);
  }

  async function expectAccessible(page: Page) {
    const violations = await checkAccessibility(page);
    expect(violations, `${page.url()}\n${describeViolations(violations)}`).toEqual([]);
  }

  /** Nothing overflows sideways on a phone (WCAG 2.1 SC 1.4.10, reflow). Soft: the page is still checked and captured. */
  async function expectNoSidewaysScroll(page: Page) {
    const original = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(async () => {
      const measure = () => ({
        width: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        wide: [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
          .map((el) => `${el.outerHTML.slice(0, 100)} right=${el.getBoundingClientRect().right}`)
          .slice(0, 5),
      });
      // Measured after two painted frames at the new size (one run measured 379px once, with nothing wider than 375px in <main>).
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return measure();
    });
    expect.soft(overflow.width, `${pathOf(page)} scrolls sideways at 375px: ${JSON.stringify(overflow)}`).toBeLessThanOrEqual(375);
    if (original) await page.setViewportSize(original);
  }

  /** Checks the page (axe, reflow) at both widths and captures it. */
  async function capture(page: Page, name: string) {
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    shots.push(...(await screenshot(page, name)));
  }
  /** The files `capture` wrote, listed after the file's tests. */
  const shots: string[] = [];

  /** What a control tells assistive technology besides its name: the texts its aria-describedby points to. */
  const description = (page: Page, selector: string) =>
    page.locator(selector).evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((ref) => document.getElementById(ref)?.textContent?.trim() ?? `<missing #${ref}>`)
        .join(' | '),
    );

  /** The error is shown right above its control (within 16px, nothing in between vertically). */
  async function expectRightAbove(page: Page, errorSelector: string, controlSelector: string) {
    const [errorBox, controlBox] = await Promise.all([
      page.locator(errorSelector).boundingBox(),
      page.locator(controlSelector).boundingBox(),
    ]);
    expect(errorBox, errorSelector).not.toBeNull();
    const gap = controlBox!.y - (errorBox!.y + errorBox!.height);
    expect(gap, `${errorSelector} → ${controlSelector}`).toBeGreaterThanOrEqual(0);
    expect(gap, `${errorSelector} → ${controlSelector}`).toBeLessThan(16);
  }

  /** The tasks the list shows: title, status badge and region. */
  const listed = (page: Page) =>
    page.locator('li.task').evaluateAll((items) =>
      items.map((li) => ({
        title: li.querySelector('h2, h3')?.textContent?.trim() ?? '',
        status: li.querySelector('.badge')?.textContent?.trim() ?? '',
        region: li.querySelector('.meta .badge + span')?.textContent?.trim() ?? '',
      })),
    );

  /** Opens a task-list session link: the link turns into a cookie and a clean URL. */
  async function openTaskList(page: Page, url: string) {
    await openHostedLink(page, url);
    expect(pathOf(page), await suite.whereIs(page)).toBe('/hosted/tasks');
  }

  return {
    setupEntity,
    openPage,
    query,
    notice,
    taskButton,
    focused,
    tabTo,
    expectAccessible,
    expectNoSidewaysScroll,
    capture,
    shots,
    description,
    expectRightAbove,
    listed,
    openTaskList,
  };
}
