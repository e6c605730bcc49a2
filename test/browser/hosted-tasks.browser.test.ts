import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, json } from '../helpers/app.js';
import {
  checkAccessibility, contrastRatio, describeViolations, externalRequests, launchBrowser, newContext, recordRequests, screenshot, startCallbackServer,
  startLiveApp, type CallbackServer, type LiveApp,
} from '../helpers/browser.js';

/**
 * The hosted task pages (task list, task detail, one-task page, automation input) in a real browser
 * (Debian's chromium, headless), used like a person would: labels, keyboard and clicks, against the app
 * listening on 127.0.0.1. One browser for the file, a fresh context per test, and a fresh legal entity per
 * test (a Delaware C corporation with California and New York locations), so the tests do not depend on
 * each other. The flows run with the pages' real Content-Security-Policy; the accessibility checks (axe-core
 * must be evaluated in the page) bypass it. Screenshots go to test-output/screenshots/.
 */
describe('hosted task pages in a browser', { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: LiveApp;
  let apiKey: string;
  let platform: CallbackServer;
  const contexts: BrowserContext[] = [];
  /** The main frame's document responses per page (redirects included), to tell where a navigation ended. */
  const documents = new WeakMap<Page, Response[]>();

  beforeAll(async () => {
    [browser, t, platform] = await Promise.all([launchBrowser(), startLiveApp(), startCallbackServer('/back')]);
    ({ apiKey } = await createPlatform(t.db, 'Acme Payroll'));
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), platform?.close()]);
    await t?.close();
  });

  type Status = 'todo' | 'in-progress' | 'done' | 'dismissed';
  interface ApiTask { id: string; status: Status; definition: { id: string; title: string; location: { code: string } } }

  /**
   * A Delaware C corporation signed up through the API, with a California location (employees and an office:
   * requirements) and a New York one (nothing known yet: question tasks). Returns API helpers scoped to it.
   */
  async function setupEntity(businessName = 'Harbor Labs') {
    const signup = await t.app.inject({
      method: 'POST', url: '/v2/signup', headers: { authorization: apiKey },
      payload: { user_email: 'ada@harbor.example', business_name: businessName, entity_type: 'c_corp', tax_class: 'corp', incorporation_region: 'DE', incorporated_date: '2020-03-10' },
    });
    expect(signup.statusCode, signup.body).toBe(200);
    const entityId = json<{ legal_entity_id: string }>(signup).legal_entity_id;
    const auth = await t.app.inject({ method: 'POST', url: '/accounts/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: entityId } });
    expect(auth.statusCode, auth.body).toBe(200);
    const headers = bearer(json<{ access_token: string }>(auth).access_token);
    const ca = await t.app.inject({ method: 'PUT', url: '/locations/CA', headers, payload: { config: { has_employees: true, has_physical_location: true } } });
    expect(ca.statusCode, ca.body).toBe(200);
    const ny = await t.app.inject({ method: 'PUT', url: '/locations/NY', headers });
    expect(ny.statusCode, ny.body).toBe(200);

    const tasks = async () => {
      const res = await t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers });
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
      const res = await t.app.inject({ url: '/locations', headers });
      return json<{ location: { code: string }; config: Record<string, unknown> }[]>(res).find((l) => l.location.code === code);
    };
    /** A session link, as the platform asks for it; the user comes back to the platform's local server. */
    const session = async (url: string) => {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: { callback_url: `${platform.url}?ref=tasks` } });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ url?: string; automation_url?: string }>(res);
    };
    const v2Task = async (id: string) => {
      const res = await t.app.inject({ url: `/v2/tasks/${id}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ status: Status; source: { automation_status: string | null; automation_status_logs: { status: string }[] } }>(res);
    };
    return { entityId, headers, tasks, task, statusOf, location, session, v2Task };
  }

  /** A fresh context; `a11y` bypasses the CSP so that axe-core can run (the flows keep the real policy). */
  async function openPage(options: Parameters<typeof newContext>[1] & { a11y?: boolean } = {}) {
    const { a11y = false, ...rest } = options;
    const context = await newContext(browser, { bypassCSP: a11y, ...rest });
    contexts.push(context);
    const requests = recordRequests(context);
    const page = await trackedPage(context);
    return { context, page, requests };
  }

  async function trackedPage(context: BrowserContext) {
    const page = await context.newPage();
    const responses: Response[] = [];
    documents.set(page, responses);
    page.on('response', (r) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) responses.push(r);
    });
    return page;
  }

  const path = (page: Page) => new URL(page.url()).pathname;
  const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
  const lastDocument = (page: Page) => documents.get(page)?.at(-1) ?? null;
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  const notice = (page: Page) => page.locator('.notice');

  /** Where the browser is and what it shows, for failure messages. */
  async function whereIs(page: Page): Promise<string> {
    const doc = lastDocument(page);
    const h1 = await page.locator('h1').first().textContent({ timeout: 1000 }).catch(() => null);
    const shown = await page.locator('.notice, .error-summary').first().textContent({ timeout: 1000 }).catch(() => null);
    return `the browser shows ${page.url()} (${doc ? `${doc.request().method()} → ${doc.status()}` : 'no response'}, "${h1}"${shown ? `, notice "${shown.trim()}"` : ''})`;
  }

  /** Runs an action that loads a new document (a click, Enter) and checks the browser lands on `pathname`. */
  async function navigate(page: Page, action: () => Promise<unknown>, pathname: string): Promise<void> {
    const loaded = page.waitForEvent('load');
    loaded.catch(() => undefined); // awaited below unless the action fails
    await action();
    await loaded;
    if (path(page) !== pathname) expect.fail(`expected to land on ${pathname}, but ${await whereIs(page)}`);
  }

  /** Submits a form whose answer is a page of its own (a validation error, status 422); returns that response. */
  async function submitExpectingPage(page: Page, action: () => Promise<unknown>): Promise<Response> {
    const loaded = page.waitForEvent('load');
    loaded.catch(() => undefined); // awaited below unless the action fails
    await action();
    await loaded;
    const doc = lastDocument(page)!;
    expect(doc.request().method(), await whereIs(page)).toBe('POST');
    return doc;
  }

  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /**
   * A task's button: its visible label and, visually hidden, the task's title ("Mark as done: <title>"). The
   * hidden part is absolutely positioned, so the accessible name may read "Mark as done : <title>".
   */
  const taskButton = (page: Page, action: string, title: string) =>
    page.getByRole('button', { name: new RegExp(`^${escapeRegExp(action)}\\s*:\\s*${escapeRegExp(title)}$`) });

  /** What has focus: its id, or `radio:<value>`, or `<tag>:<accessible text>`. */
  const focused = (page: Page) => page.evaluate(() => {
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
        width: document.documentElement.scrollWidth, inner: window.innerWidth,
        wide: [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
          .map((el) => `${el.outerHTML.slice(0, 100)} right=${el.getBoundingClientRect().right}`).slice(0, 5),
      });
      // Measured after two painted frames at the new size (one run measured 379px once, with nothing wider than 375px in <main>).
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return measure();
    });
    expect.soft(overflow.width, `${path(page)} scrolls sideways at 375px: ${JSON.stringify(overflow)}`).toBeLessThanOrEqual(375);
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
  const shots: string[] = [];

  /** What a control tells assistive technology besides its name: the texts its aria-describedby points to. */
  const description = (page: Page, selector: string) => page.locator(selector).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
      .map((ref) => document.getElementById(ref)?.textContent?.trim() ?? `<missing #${ref}>`).join(' | '));

  /** The error is shown right above its control (within 16px, nothing in between vertically). */
  async function expectRightAbove(page: Page, errorSelector: string, controlSelector: string) {
    const [errorBox, controlBox] = await Promise.all([page.locator(errorSelector).boundingBox(), page.locator(controlSelector).boundingBox()]);
    expect(errorBox, errorSelector).not.toBeNull();
    const gap = controlBox!.y - (errorBox!.y + errorBox!.height);
    expect(gap, `${errorSelector} → ${controlSelector}`).toBeGreaterThanOrEqual(0);
    expect(gap, `${errorSelector} → ${controlSelector}`).toBeLessThan(16);
  }

  /** The tasks the list shows: title, status badge and region. */
  const listed = (page: Page) => page.locator('li.task').evaluateAll((items) => items.map((li) => ({
    title: li.querySelector('h2')?.textContent?.trim() ?? '',
    status: li.querySelector('.badge')?.textContent?.trim() ?? '',
    region: li.querySelector('.meta .badge + span')?.textContent?.trim() ?? '',
  })));

  /** Opens a task-list session link: the link turns into a cookie and a clean URL. */
  async function openTaskList(page: Page, url: string) {
    const opened = await page.goto(url, { waitUntil: 'load' });
    expect(opened?.status(), await whereIs(page)).toBe(200);
    expect(path(page)).toBe('/hosted/tasks');
  }

  it('a person filters, opens, completes and reopens tasks, answers questions and returns to the platform', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { context, page, requests } = await openPage();
    await openTaskList(page, url!);
    expect(await page.title()).toBe('Compliance tasks · Statehouse');
    expect(await heading(page)).toBe('Compliance tasks for Harbor Labs');
    const open = (await api.tasks()).filter((x) => x.status === 'todo' || x.status === 'in-progress');
    expect(await page.locator('.count').textContent()).toBe(`${open.length} tasks`);
    expect((await listed(page)).map((x) => x.title).sort()).toEqual(open.map((x) => x.definition.title).sort());
    expect(await page.getByLabel('Location').inputValue()).toBe('');
    expect(await page.getByLabel('Status').inputValue()).toBe('open');

    // Filter by location: California only.
    await page.getByLabel('Location').selectOption({ label: 'California' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'open' });
    expect(await page.getByLabel('Location').inputValue()).toBe('CA');
    const californian = open.filter((x) => x.definition.location.code === 'CA');
    const shown = await listed(page);
    expect(shown.map((x) => x.title).sort()).toEqual(californian.map((x) => x.definition.title).sort());
    expect(new Set(shown.map((x) => x.region))).toEqual(new Set(['California']));
    expect(await page.locator('.count').textContent()).toBe(`${californian.length} tasks`);

    // Open a requirement's detail page and mark it done with its button.
    const agent = await api.task('ca-registered-agent');
    await navigate(page, () => page.getByRole('link', { name: agent.definition.title }).click(), `/hosted/tasks/${agent.id}`);
    expect(await heading(page)).toBe(agent.definition.title);
    expect(await page.getByRole('heading', { name: 'How to do it' }).count()).toBe(1);
    expect(await page.locator('.meta .badge').textContent()).toBe('To do');
    await navigate(page, () => taskButton(page, 'Mark as done', agent.definition.title).click(), `/hosted/tasks/${agent.id}`);
    expect(await notice(page).getAttribute('role')).toBe('status');
    expect((await notice(page).textContent())?.trim()).toBe('Saved.');
    expect(await page.locator('.meta .badge').textContent()).toBe('Done');
    expect(await api.statusOf(agent.id)).toBe('done');
    expect(await page.getByRole('button', { name: /^Mark as done/ }).count()).toBe(0); // a done task can only be reopened

    // Back to the list: done tasks are not among the open ones; the status filter shows them.
    await navigate(page, () => page.getByRole('link', { name: '← All tasks' }).click(), '/hosted/tasks');
    expect((await listed(page)).map((x) => x.title)).not.toContain(agent.definition.title);
    await page.getByLabel('Location').selectOption({ label: 'California' });
    await page.getByLabel('Status').selectOption({ label: 'Done' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'done' });
    expect(await listed(page)).toEqual([{ title: agent.definition.title, status: 'Done', region: 'California' }]);
    expect(await page.locator('.count').textContent()).toBe('1 task');

    // Move it back to to-do from the filtered list: the list keeps its filters and says it saved.
    await navigate(page, () => taskButton(page, 'Back to to-do', agent.definition.title).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'done', updated: agent.id });
    expect((await notice(page).textContent())?.trim()).toBe('Saved.');
    expect(await listed(page)).toEqual([]);
    expect(await page.getByText('No tasks match these filters.').isVisible()).toBe(true);
    expect(await api.statusOf(agent.id)).toBe('todo');

    // A refused change: the list is open in a second tab while the task is marked done in the first; "Start"
    // in the stale tab cannot move a done task, and the list says so.
    const workers = await api.task('ca-workers-compensation');
    await page.getByLabel('Status').selectOption({ label: 'To do and in progress' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    const stale = await trackedPage(context);
    await stale.goto(`${t.baseUrl}/hosted/tasks?region=CA`, { waitUntil: 'load' });
    await navigate(page, () => taskButton(page, 'Mark as done', workers.definition.title).click(), '/hosted/tasks');
    expect(await api.statusOf(workers.id)).toBe('done');
    await navigate(stale, () => taskButton(stale, 'Start', workers.definition.title).click(), '/hosted/tasks');
    expect(query(stale)).toMatchObject({ region: 'CA' });
    const refused = stale.getByRole('alert');
    expect(await refused.textContent()).toContain('This task is already done: move it back to to-do first.');
    expect(await api.statusOf(workers.id)).toBe('done');
    await stale.close();

    // Starting a task moves it to in progress, which the status filter finds.
    const edd = await api.task('ca-edd-employer-registration');
    await navigate(page, () => taskButton(page, 'Start', edd.definition.title).click(), '/hosted/tasks');
    expect(await api.statusOf(edd.id)).toBe('in-progress');
    await page.getByLabel('Status').selectOption({ label: 'In progress' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(await listed(page)).toEqual([{ title: edd.definition.title, status: 'In progress', region: 'California' }]);

    // The New York question, with the keyboard: Save without choosing first, then Yes.
    const question = await api.task('has-employees', 'NY');
    const nyBefore = new Set((await api.tasks()).filter((x) => x.definition.location.code === 'NY').map((x) => x.id));
    await page.getByLabel('Location').selectOption({ label: 'New York' });
    await page.getByLabel('Status').selectOption({ label: 'To do' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect((await listed(page)).map((x) => x.title)).toContain(question.definition.title);
    await navigate(page, () => page.getByRole('link', { name: question.definition.title }).click(), `/hosted/tasks/${question.id}`);
    expect(await heading(page)).toBe('Do you have employees who live or work in New York?');
    const group = page.getByRole('group', { name: question.definition.title });
    expect(await group.getByRole('radio').count()).toBe(2);
    await tabTo(page, 'radio:true'); // the radio group is one Tab stop; nothing is chosen yet
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^button:Save answer/);
    const unanswered = await submitExpectingPage(page, () => page.keyboard.press('Enter'));
    expect(unanswered.status(), await whereIs(page)).toBe(422);
    const missing = page.locator(`#answer-${question.id}-error`);
    expect(await missing.textContent()).toBe('Choose yes or no');
    await expectRightAbove(page, `#answer-${question.id}-error`, 'fieldset.inline');
    // The error must be tied to the radio group for screen readers (WCAG 1.3.1, 3.3.1), as on the automation form.
    const groupDescription = await page.locator('fieldset.inline').evaluate((fieldset) => {
      const own = (fieldset.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '');
      const radios = [...fieldset.querySelectorAll('input')].flatMap((input) => (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? ''));
      return [...own, ...radios].join(' | ');
    });
    expect.soft(groupDescription, 'task detail: the "Choose yes or no" error is not referenced by the radio group (aria-describedby)').toContain('Choose yes or no');

    await tabTo(page, 'radio:true');
    await page.keyboard.press('Space');
    expect(await group.getByRole('radio', { name: 'Yes' }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^button:Save answer/);
    await navigate(page, () => page.keyboard.press('Enter'), `/hosted/tasks/${question.id}`);
    const answered = notice(page);
    expect(await answered.getAttribute('role')).toBe('status');
    expect(await answered.locator('p').textContent()).toBe('Saved. Your answer added these tasks:');
    const unlockedTitles = await answered.locator('li').allTextContents();
    const nyAfter = (await api.tasks()).filter((x) => x.definition.location.code === 'NY' && !nyBefore.has(x.id));
    expect(nyAfter.length).toBeGreaterThan(0);
    expect([...unlockedTitles].sort()).toEqual(nyAfter.map((x) => x.definition.title).sort());
    expect(unlockedTitles).toContain('Register as an employer for unemployment insurance, withholding and wage reporting (NYS-100)');
    expect(await page.locator('.meta .badge').textContent()).toBe('Done');
    expect((await api.location('NY'))?.config.has_employees).toBe(true);
    expect(await api.statusOf(question.id)).toBe('done');

    // A date question: an incomplete date is refused by the browser itself (a date input posts only whole dates);
    // submitted empty, the server's error is shown next to the field; then a valid date saves.
    const started = await api.task('operations-start-date', 'CA');
    await page.goto(`${t.baseUrl}/hosted/tasks/${started.id}`, { waitUntil: 'load' });
    expect(await heading(page)).toBe(started.definition.title);
    const dateInput = page.getByLabel('Your answer');
    expect(await dateInput.getAttribute('type')).toBe('date');
    await dateInput.focus(); // its first part: the month
    await page.keyboard.type('0315'); // month and day, no year
    expect(await dateInput.inputValue()).toBe('');
    expect(await dateInput.evaluate((el: HTMLInputElement) => ({ badInput: el.validity.badInput, valid: el.checkValidity() }))).toEqual({ badInput: true, valid: false });
    await dateInput.fill('');
    expect(await dateInput.evaluate((el: HTMLInputElement) => el.checkValidity())).toBe(true);
    const invalid = await submitExpectingPage(page, () => page.getByRole('button', { name: /^Save answer/ }).click());
    expect(invalid.status(), await whereIs(page)).toBe(422);
    const errorId = `answer-${started.id}-error`;
    expect(await page.locator(`#${errorId}`).textContent()).toBe('Enter a date');
    expect(await page.locator(`#${errorId}`).isVisible()).toBe(true);
    expect(await page.getByLabel('Your answer').getAttribute('aria-invalid')).toBe('true');
    expect(await description(page, `#answer-${started.id}`)).toBe('Enter a date');
    await expectRightAbove(page, `#${errorId}`, `#answer-${started.id}`);
    expect(await api.statusOf(started.id)).toBe('todo');
    await page.getByLabel('Your answer').fill('2024-03-15');
    await navigate(page, () => page.getByRole('button', { name: /^Save answer/ }).click(), `/hosted/tasks/${started.id}`);
    expect(await notice(page).locator('p').textContent()).toMatch(/^Saved\. Your answer added/);
    expect(await page.getByLabel('Your answer').inputValue()).toBe('2024-03-15');
    expect(await api.statusOf(started.id)).toBe('done');

    // "I'm done" returns to the platform.
    const before = platform.requests.length;
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('link', { name: "I'm done" }).click();
    await landed;
    expect(new URL(page.url()).pathname).toBe('/back');
    expect(query(page)).toEqual({ ref: 'tasks' });
    expect(await heading(page)).toBe('Welcome back to the platform');
    const received = platform.requests.slice(before).filter((r) => r.url.startsWith('/back')); // not /favicon.ico
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', url: '/back?ref=tasks' });
    expect(received[0]!.headers.referer).toBeUndefined(); // hosted URLs are never leaked to the platform

    expect(requests.length).toBeGreaterThan(20);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('a one-task session lands on its task, and other tasks are not found', async () => {
    const api = await setupEntity();
    const task = await api.task('ca-workers-compensation');
    const other = await api.task('ca-registered-agent');
    const { url } = await api.session(`/v2/tasks/${task.id}/session`);
    const { page, requests } = await openPage();
    const opened = await page.goto(url!, { waitUntil: 'load' });
    expect(opened?.status(), await whereIs(page)).toBe(200);
    expect(path(page)).toBe(`/hosted/tasks/${task.id}`);
    expect(await heading(page)).toBe("Get workers' compensation insurance for California employees");
    expect(await page.getByRole('link', { name: '← All tasks' }).count()).toBe(0); // there is no list to go back to
    expect(await page.getByRole('heading', { name: 'Official resources' }).count()).toBe(1);

    // The list leads back to the task; any other task is "not found".
    await page.goto(`${t.baseUrl}/hosted/tasks`, { waitUntil: 'load' });
    expect(path(page)).toBe(`/hosted/tasks/${task.id}`);
    const notFound = await page.goto(`${t.baseUrl}/hosted/tasks/${other.id}`, { waitUntil: 'load' });
    expect(notFound?.status()).toBe(404);
    expect(await heading(page)).toBe('Task not found');
    expect(await page.getByText(other.definition.title).count()).toBe(0);

    // The task itself can be acted on.
    await page.goto(`${t.baseUrl}/hosted/tasks/${task.id}`, { waitUntil: 'load' });
    await navigate(page, () => page.getByRole('button', { name: /^Mark as done/ }).click(), `/hosted/tasks/${task.id}`);
    expect((await notice(page).textContent())?.trim()).toBe('Saved.');
    expect(await api.statusOf(task.id)).toBe('done');
    expect(await api.statusOf(other.id)).toBe('todo');
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('link', { name: "I'm done" }).click();
    await landed;
    expect(externalRequests(requests)).toEqual([]);
  });

  it('automation: errors next to the fields and in a summary, then the keyboard fills the form and the browser returns to the platform', async () => {
    const api = await setupEntity();
    const task = await api.task('ca-edd-employer-registration');
    const { automation_url: url } = await api.session(`/tasks/${task.id}/automate/sessions`);
    const { page, requests } = await openPage();
    const opened = await page.goto(url!, { waitUntil: 'load' });
    expect(opened?.status(), await whereIs(page)).toBe(200);
    expect(path(page)).toBe(`/hosted/automation/${task.id}`);
    expect(await heading(page)).toBe(task.definition.title);
    expect(await page.title()).toBe(`Automate: ${task.definition.title} · Statehouse`);
    const fields = [
      ['f-first_payroll_date', 'Date of the first California payroll', 'Date of the first California payroll is required'],
      ['f-officer_name', 'Name of a responsible officer', 'Name of a responsible officer is required'],
      ['f-officer_ssn_last4', "Last four digits of the officer's SSN", "Last four digits of the officer's SSN is required"],
    ] as const;
    for (const [id, label] of fields) expect(await page.getByLabel(label).getAttribute('id')).toBe(id); // the label's "*" is hidden from screen readers

    // Submitted empty: a labelled summary at the top, each error right above its field.
    const empty = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Start the automation' }).click());
    expect(empty.status(), await whereIs(page)).toBe(422);
    expect(path(page)).toBe(`/hosted/automation/${task.id}`);
    expect(await page.title()).toBe(`Error: Automate: ${task.definition.title} · Statehouse`);
    const summary = page.getByRole('alert');
    expect(await summary.getByRole('heading').textContent()).toBe('Please fix these 3 problems');
    expect(await summary.getByRole('link').count()).toBe(3);
    for (const [id, label, message] of fields) {
      const control = page.locator(`#${id}`);
      expect(await page.locator(`#${id}-error`).textContent()).toBe(message);
      expect(await page.locator(`#${id}-error`).isVisible()).toBe(true);
      expect(await page.locator(`#${id}-error`).evaluate((el, c) => el.parentElement === document.getElementById(c)?.parentElement, id)).toBe(true);
      await expectRightAbove(page, `#${id}-error`, `#${id}`);
      expect(await control.getAttribute('aria-invalid')).toBe('true');
      expect(await description(page, `#${id}`)).toContain(message);
      expect(await summary.locator(`a[href="#${id}"]`).textContent()).toBe(`${label}: ${message}`);
    }
    expect(await description(page, '#f-officer_ssn_last4')).toBe(`The last four digits only. | ${fields[2][2]}`);
    expect(await api.statusOf(task.id)).toBe('todo');

    // With the keyboard: the summary's first link leads to the date, then type and Tab through the fields.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(`a:${fields[0][1]}: ${fields[0][2]}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'f-first_payroll_date');
    await page.keyboard.type('12012026'); // month, day, year
    expect(await page.locator('#f-first_payroll_date').inputValue()).toBe('2026-12-01');
    await tabTo(page, 'f-officer_name', 6); // a date input takes several Tabs
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('f-officer_ssn_last4');
    await page.keyboard.type('1234');
    const before = platform.requests.length;
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.keyboard.press('Enter');
    await landed.catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await whereIs(page)}`);
    });
    const callback = new URL(page.url());
    expect(callback.pathname).toBe('/back');
    expect(Object.fromEntries(callback.searchParams)).toEqual({ ref: 'tasks', legal_entity_id: api.entityId, status: 'started', task_id: task.id });
    expect(await heading(page)).toBe('Welcome back to the platform');
    const received = platform.requests.slice(before).filter((r) => r.url.startsWith('/back')); // not /favicon.ico
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.referer).toBeUndefined();

    // Through the API: in progress, the automation started with what was typed.
    const v2 = await api.v2Task(task.id);
    expect(v2.status).toBe('in-progress');
    expect(v2.source.automation_status).toBe('started');
    expect(v2.source.automation_status_logs.map((l) => l.status)).toEqual(['started']);
    const stored = await t.db.selectFrom('task_automations').selectAll().where('task_id', '=', task.id).executeTakeFirstOrThrow();
    expect(stored.input).toEqual({ first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '1234' });

    // A second session shows the status instead of the form.
    const again = await api.session(`/tasks/${task.id}/automate/sessions`);
    await page.goto(again.automation_url!, { waitUntil: 'load' });
    expect(path(page)).toBe(`/hosted/automation/${task.id}`);
    expect(await page.getByRole('status').textContent()).toContain('The automation has started');
    expect(await page.getByRole('button', { name: 'Start the automation' }).count()).toBe(0);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('every page is accessible and is captured on a phone and a desktop', async () => {
    const api = await setupEntity('Harbor Labs');
    const { url } = await api.session('/tasks/sessions');
    const { page, requests } = await openPage({ a11y: true });
    await openTaskList(page, url!);
    await capture(page, 'tasks-list');

    await page.getByLabel('Location').selectOption({ label: 'California' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    await capture(page, 'tasks-list-filtered');

    // "Saved." after marking a task done, then a refused change: "Start" in a tab opened before the task was done.
    const workers = await api.task('ca-workers-compensation');
    const stale = await trackedPage(page.context());
    await stale.goto(page.url(), { waitUntil: 'load' });
    await navigate(page, () => taskButton(page, 'Mark as done', workers.definition.title).click(), '/hosted/tasks');
    expect((await notice(page).textContent())?.trim()).toBe('Saved.');
    await capture(page, 'tasks-list-saved');
    await navigate(stale, () => taskButton(stale, 'Start', workers.definition.title).click(), '/hosted/tasks');
    expect(await stale.getByRole('alert').textContent()).toContain('This task is already done: move it back to to-do first.');
    await capture(stale, 'tasks-list-refused');
    await stale.close();

    const agent = await api.task('ca-registered-agent');
    await page.goto(`${t.baseUrl}/hosted/tasks/${agent.id}`, { waitUntil: 'load' });
    await capture(page, 'task-detail');

    // The date question with an error, and the yes/no question answered.
    const started = await api.task('operations-start-date', 'CA');
    await page.goto(`${t.baseUrl}/hosted/tasks/${started.id}`, { waitUntil: 'load' });
    const invalid = await submitExpectingPage(page, () => page.getByRole('button', { name: /^Save answer/ }).click());
    expect(invalid.status()).toBe(422);
    await capture(page, 'task-question-error');

    const question = await api.task('has-employees', 'NY');
    await page.goto(`${t.baseUrl}/hosted/tasks/${question.id}`, { waitUntil: 'load' });
    await capture(page, 'task-question');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await navigate(page, () => page.getByRole('button', { name: /^Save answer/ }).click(), `/hosted/tasks/${question.id}`);
    expect(await notice(page).locator('p').textContent()).toBe('Saved. Your answer added these tasks:');
    await capture(page, 'task-question-answered');

    // The automation form, empty and with errors; then its status once started.
    const edd = await api.task('ca-edd-employer-registration');
    const automation = await api.session(`/tasks/${edd.id}/automate/sessions`);
    await page.goto(automation.automation_url!, { waitUntil: 'load' });
    expect(path(page)).toBe(`/hosted/automation/${edd.id}`);
    await capture(page, 'automation-form');
    await page.getByLabel('Name of a responsible officer').fill('Ada Lovelace');
    await page.getByLabel("Last four digits of the officer's SSN").fill('12345');
    const errors = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Start the automation' }).click());
    expect(errors.status()).toBe(422);
    expect(await page.getByRole('alert').getByRole('heading').textContent()).toBe('Please fix these 2 problems');
    expect(await page.getByLabel('Name of a responsible officer').inputValue()).toBe('Ada Lovelace'); // what was typed is kept
    await capture(page, 'automation-form-errors');
    await page.getByLabel('Date of the first California payroll').fill('2026-12-01');
    await page.getByLabel("Last four digits of the officer's SSN").fill('1234');
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Start the automation' }).click();
    await landed;
    const second = await api.session(`/tasks/${edd.id}/automate/sessions`);
    await page.goto(second.automation_url!, { waitUntil: 'load' });
    expect(await heading(page)).toBe(edd.definition.title);
    expect(await page.getByRole('status').textContent()).toContain('The automation has started');
    expect(await page.locator('.history li').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Return to Acme Payroll' }).getAttribute('href')).toBe(`${platform.url}?ref=tasks`);
    await capture(page, 'automation-status');

    // The one-task page.
    const one = await api.task('ca-new-hire-reporting');
    const oneTask = await api.session(`/v2/tasks/${one.id}/session`);
    await page.goto(oneTask.url!, { waitUntil: 'load' });
    expect(path(page)).toBe(`/hosted/tasks/${one.id}`);
    await capture(page, 'task-one-task');

    expect(externalRequests(requests)).toEqual([]);
  });

  it('keyboard: Tab reaches the filters and every task\'s controls in order, with visible focus', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { page, requests } = await openPage();
    await openTaskList(page, url!);

    /**
     * Numbers the page's focusable controls in document order; a radio group is one Tab stop (its first
     * radio while none is checked). Returns the numbers Tab should reach, and their names.
     */
    const expected = await page.evaluate(() => {
      const all = [...document.body.querySelectorAll<HTMLElement>('a[href], input:not([type="hidden"]), select, textarea, button')];
      const seenGroups = new Set<string>();
      const stops: { index: number; name: string }[] = [];
      all.forEach((el, index) => {
        el.dataset.kb = String(index);
        if (el instanceof HTMLInputElement && el.type === 'radio') {
          const group = `${el.form?.action}|${el.name}`;
          if (seenGroups.has(group)) return;
          seenGroups.add(group);
        }
        const name = el instanceof HTMLInputElement && el.type === 'radio' ? `radio in "${el.closest('fieldset')?.querySelector('legend')?.textContent}"`
          : el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim().replace(/\s+/g, ' ')}`;
        stops.push({ index, name });
      });
      return stops;
    });
    const names = new Map(expected.map((s) => [s.index, s.name]));

    interface Stop { index: number | null; focusVisible: boolean; style: string; width: string; offset: number; color: string; background: string; tag: string; type: string }
    const reached: Stop[] = [];
    for (let i = 0; i < expected.length * 3 + 5; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate((): Stop | null => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body || el.dataset.kb === undefined) return null;
        const s = getComputedStyle(el);
        let background = 'rgb(255, 255, 255)';
        for (let p = el.parentElement; p; p = p.parentElement) {
          const bg = getComputedStyle(p).backgroundColor;
          if (bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) {
            background = bg;
            break;
          }
        }
        return {
          index: Number(el.dataset.kb), focusVisible: el.matches(':focus-visible'), style: s.outlineStyle, width: s.outlineWidth,
          offset: parseFloat(s.outlineOffset), color: s.outlineColor, background, tag: el.tagName.toLowerCase(), type: el.getAttribute('type') ?? '',
        };
      });
      if (!stop) break;
      if (reached.at(-1)?.index === stop.index) continue; // a date input takes several Tabs (month, day, year)
      reached.push(stop);
    }
    const label = (index: number | null) => (index === null ? '?' : names.get(index) ?? `#${index}`);
    expect(reached.map((s) => label(s.index))).toEqual(expected.map((s) => s.name));
    expect(reached.slice(0, 3).map((s) => label(s.index))).toEqual(['#filter-region', '#filter-status', 'button:Show tasks']);

    // Every task's buttons are reached, and say which task they act on.
    const buttons = await page.locator('li.task button').evaluateAll((els) => els.map((b) => Number((b as HTMLElement).dataset.kb)));
    expect(buttons.length).toBeGreaterThan(10);
    for (const b of buttons) expect(reached.map((s) => s.index), label(b)).toContain(b);
    /** What a screen reader announces for a control: its name (aria-labelledby, aria-label, label or text) and description. */
    const announced = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((el) => {
      const texts = (attr: string) => (el.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      const name = texts('aria-labelledby') || el.getAttribute('aria-label') || ((el as HTMLInputElement).labels?.[0]?.textContent ?? '') || (el.textContent ?? '');
      const group = el.closest('fieldset')?.querySelector('legend')?.textContent ?? '';
      return `${group} ${name} ${texts('aria-describedby')}`.replace(/\s+/g, ' ').trim();
    }));
    const repeated = (names: string[]) => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    expect.soft(repeated(await announced('li.task button')), 'task list: buttons that do not say which task they act on (WCAG 2.4.6)').toEqual([]);
    expect.soft(repeated(await announced('li.task input[name="answer"]:not([type="radio"])')), 'task list: answer fields that do not say which question they answer (WCAG 2.4.6)').toEqual([]);

    // Focus is visible on every stop: the 3px ring on links, buttons and the filters; a ring of some kind elsewhere.
    const faint: string[] = [];
    const weak: string[] = [];
    for (const stop of reached) {
      const where = label(stop.index);
      expect(stop.focusVisible, where).toBe(true);
      expect(stop.style, where).not.toBe('none');
      const ring = stop.tag === 'a' || stop.tag === 'button' || stop.tag === 'select' || stop.type === 'date' || stop.type === 'number';
      if (ring && (stop.style !== 'solid' || stop.width !== '3px')) weak.push(`${where}: outline ${stop.style} ${stop.width}`);
      if (stop.style === 'solid') {
        expect(stop.offset, where).toBeGreaterThanOrEqual(0);
        const contrast = contrastRatio(stop.color, stop.background);
        if (contrast < 3) faint.push(`${where}: outline ${stop.color} on ${stop.background} is ${contrast.toFixed(2)}:1`);
      }
    }
    expect(faint, 'focus rings need 3:1 contrast with the background around them (WCAG 2.1 SC 1.4.11)').toEqual([]);
    expect.soft(weak, 'controls without the pages\' 3px focus ring (docs/hosted-pages.md)').toEqual([]);

    // Enter on a focused button acts on its task.
    const agent = await api.task('ca-registered-agent');
    await taskButton(page, 'Mark as done', agent.definition.title).focus();
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/tasks');
    expect(await api.statusOf(agent.id)).toBe('done');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('works with JavaScript disabled', async () => {
    const api = await setupEntity();
    const agent = await api.task('ca-registered-agent');
    const { url } = await api.session('/tasks/sessions');
    const { page, requests } = await openPage({ javaScriptEnabled: false });
    await openTaskList(page, url!);
    await page.getByLabel('Location').selectOption({ label: 'California' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'open' });
    await navigate(page, () => taskButton(page, 'Mark as done', agent.definition.title).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'open', updated: agent.id });
    expect((await notice(page).textContent())?.trim()).toBe('Saved.');
    expect((await listed(page)).map((x) => x.title)).not.toContain(agent.definition.title);
    expect(await api.statusOf(agent.id)).toBe('done');
    expect(externalRequests(requests)).toEqual([]);
  });

  afterAll(() => {
    if (shots.length) console.log(`screenshots:\n${shots.join('\n')}`);
  });
});
