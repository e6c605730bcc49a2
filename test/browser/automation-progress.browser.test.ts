/**
 * The hosted automation page after the start, in chromium: the sandbox's real progress to `complete` with its
 * results (account number, confirmation PDF) on the page, the task list and the task page; a done task said in
 * words (also when it becomes done while the form is open: nothing typed is lost and the platform is not told
 * "started"); a question sent back to the owner and answered; our team taking over a failing portal. Every
 * page axe-clean at 1280 and 375 px, with no client script and no timed refresh (tests poll by following the page's
 * "Check progress" link, as a person would).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/app.js';
import { externalRequests, type CallbackServer, type LiveApp, openHostedLink } from '../helpers/browser.js';
import { heading, pathOf as path, useBrowserSuite } from '../helpers/browser-suite.js';
import { waitUntil } from '../helpers/wait.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

const EDD = 'ca-edd-employer-registration';
/** The sandbox with no pause between steps, retried at once (docs/automations.md). */
const AUTOMATIONS = { sandbox: true, sandboxStepMs: 0, connectorTimeoutMs: 30_000, maxAttempts: 2, retryBaseMs: 0 };

describe('the hosted automation page in a browser: progress, results, refusals, questions', { timeout: 240_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back', config: { automations: AUTOMATIONS }, app: { jobs: true } });
  const { whereIs, navigate, submitExpectingPage } = suite;
  const { setupEntity, openPage, capture, shots, openTaskList } = createTaskPages(suite);
  let t: LiveApp;
  let platform: CallbackServer;
  beforeAll(() => {
    ({ t, callback: platform } = suite);
  });

  type Api = Awaited<ReturnType<typeof setupEntity>>;

  /** Opens a fresh automation session of the task. */
  async function openAutomation(api: Api, page: Page, taskId: string) {
    const { automation_url: url } = await api.session(`/tasks/${taskId}/automate/sessions`);
    const opened = await openHostedLink(page, url!);
    expect(opened?.status(), await whereIs(page)).toBe(200);
    expect(path(page)).toBe(`/hosted/automation/${taskId}`);
  }

  /** Fills the EDD form and starts; the browser returns to the platform with status=started. */
  async function start(page: Page, officerName: string) {
    await page.getByLabel('Date of the first California payroll').fill('2026-12-01');
    await page.getByLabel('Name of a responsible officer').fill(officerName);
    await page.getByLabel("Last four digits of the officer's SSN").fill('1234');
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Start the automation' }).click();
    await landed;
    expect(new URL(page.url()).searchParams.get('status')).toBe('started');
  }

  /**
   * Follows "Check progress" (the page never reloads itself) until the badge says `status`. A page without the badge
   * (one still loading, or an error page on a busy machine) is loaded again rather than waited on, and the last one
   * seen is named if the wait runs out.
   */
  async function checkUntil(page: Page, status: string) {
    let seen = '';
    await waitUntil(async () => {
      const shown = page.locator('.meta .badge').first();
      const text = (await shown.count()) > 0 ? await shown.textContent({ timeout: 5000 }).catch(() => null) : null;
      if (text === status) return true;
      seen = text === null ? await whereIs(page) : `the badge "${text}"`;
      const check = page.getByRole('link', { name: 'Check progress' });
      if (text !== null && (await check.count()) > 0) await navigate(page, () => check.click(), path(page));
      else await page.reload({ waitUntil: 'load' });
      return false;
    }, `the page to say ${status}`).catch((error: Error) => {
      throw new Error(`${error.message}; last seen: ${seen}`);
    });
  }

  it('start → progress → complete: the steps, who did it, the results and the confirmation, also on the task pages', async () => {
    const api = await setupEntity();
    const task = await api.task(EDD);
    const { page, requests } = await openPage({ a11y: true });
    await openAutomation(api, page, task.id);
    await start(page, 'Ada Lovelace');

    await openAutomation(api, page, task.id);
    expect(await heading(page)).toBe(task.definition.title);
    expect(await page.locator('meta[http-equiv]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(0);
    await checkUntil(page, 'Complete');
    expect(await page.getByText('Who is doing it:').locator('..').textContent()).toContain('The sandbox files this');
    const steps = page.locator('ol.connect-steps li');
    expect(await steps.count()).toBeGreaterThanOrEqual(3);
    expect(await steps.evaluateAll((items) => items.filter((li) => li.classList.contains('done')).length)).toBeGreaterThanOrEqual(3);
    const results = page.locator('dl.results');
    const number = await results.locator('dt:text-is("Withholding account number") + dd').textContent();
    expect(number).toMatch(/^\d{10}$/);
    const confirmation = results.getByRole('link', { name: 'Download the confirmation (PDF)' });
    const pdf = await page.request.get((await confirmation.getAttribute('href'))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    const log = await page.locator('.history li').allTextContents();
    expect(log[0]).toContain('In progress');
    expect(log.at(-1)).toContain('Complete');
    expect(await page.getByRole('link', { name: 'Check progress' }).count()).toBe(0);
    await capture(page, 'automation-complete');

    // The task list and the task page: the automation's status and, complete, its results.
    const { url } = await api.session('/tasks/sessions');
    await openTaskList(page, url!);
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    const item = page.locator('li.task', { has: page.getByRole('link', { name: task.definition.title, exact: true }) });
    expect(await item.locator('.badge', { hasText: 'Automation:' }).textContent()).toBe('Automation: Complete');
    expect(await item.locator('dt:text-is("Withholding account number") + dd').textContent()).toBe(number);
    expect(await item.getByRole('link', { name: /^Download the confirmation \(PDF\)/ }).count()).toBe(1);
    await navigate(page, () => item.getByRole('link', { name: task.definition.title, exact: true }).click(), `/hosted/tasks/${task.id}`);
    expect(await page.locator('dt:text-is("Automation") + dd').textContent()).toBe('Complete');
    expect(await page.locator('dl.results dt:text-is("Withholding account number") + dd').textContent()).toBe(number);
    await capture(page, 'task-detail-automation-complete');
    expect(externalRequests(requests)).toEqual([]);
  });

  it('a done task says so instead of a form; done while the form is open: the input is kept and the platform not told "started"', async () => {
    const api = await setupEntity();
    const task = await api.task(EDD);
    const { page } = await openPage({ a11y: true });
    await openAutomation(api, page, task.id);
    await page.getByLabel('Name of a responsible officer').fill('Ada Lovelace');

    const done = await t.app.inject({ method: 'PATCH', url: `/tasks/${task.id}`, headers: api.headers, payload: { status: 'done' } });
    expect(done.statusCode).toBe(200);
    const before = platform.requests.length;
    await page.getByLabel('Date of the first California payroll').fill('2026-12-01');
    await page.getByLabel("Last four digits of the officer's SSN").fill('1234');
    const refused = await submitExpectingPage(page, () => page.getByRole('button', { name: 'Start the automation' }).click());
    expect(refused.status(), await whereIs(page)).toBe(409);
    expect(path(page)).toBe(`/hosted/automation/${task.id}`);
    expect(await page.getByRole('alert').textContent()).toContain('This task is already done');
    expect(await page.getByLabel('Name of a responsible officer').inputValue()).toBe('Ada Lovelace');
    expect(platform.requests.length).toBe(before);
    const v2 = await api.v2Task(task.id);
    expect(v2.source.automation_status).toBeNull();
    await capture(page, 'automation-refused-form');

    await openAutomation(api, page, task.id);
    expect(await page.getByRole('alert').textContent()).toContain('This task is already done');
    expect(await page.getByRole('button', { name: 'Start the automation' }).count()).toBe(0);
    await capture(page, 'automation-refused-done');
  });

  it('a question for the owner: its message and an answer form; the answer sends the filing on to complete', async () => {
    const api = await setupEntity();
    const task = await api.task(EDD);
    const { page } = await openPage({ a11y: true });
    await openAutomation(api, page, task.id);
    await start(page, 'needs-info');

    await openAutomation(api, page, task.id);
    await checkUntil(page, 'Waiting on your answer');
    expect(await page.locator('.operator-message').textContent()).toContain('The state needs more information');
    expect(await page.getByLabel('Name of a responsible officer').inputValue()).toBe('needs-info');
    expect(await page.getByLabel("Last four digits of the officer's SSN").inputValue()).toBe(''); // sensitive: never shown again
    await capture(page, 'automation-question');

    const empty = await submitExpectingPage(page, async () => {
      await page.getByLabel('Name of a responsible officer').fill('');
      await page.getByRole('button', { name: 'Send the answer' }).click();
    });
    expect(empty.status(), await whereIs(page)).toBe(422);
    expect(await page.locator('.error-summary').textContent()).toContain('Your answer');

    await page.getByLabel('Your answer').fill('The officer is Ada Lovelace, as on our articles.');
    await page.getByLabel('Name of a responsible officer').fill('Ada Lovelace');
    await navigate(page, () => page.getByRole('button', { name: 'Send the answer' }).click(), `/hosted/automation/${task.id}`);
    expect(await page.locator('.notice.success').textContent()).toContain('Your answer was sent');
    await checkUntil(page, 'Complete');
    const logs = json<{ source: { automation_status_logs: { status: string }[] } }>(
      await t.app.inject({ url: `/v2/tasks/${task.id}`, headers: api.headers }),
    );
    const statuses = logs.source.automation_status_logs.map((l) => l.status);
    const asked = statuses.indexOf('waiting_on_customer_response');
    expect(statuses.slice(asked, asked + 2), statuses.join()).toEqual(['waiting_on_customer_response', 'started']); // the owner's answer
    expect(statuses.at(-1)).toBe('complete');
  });

  it('a portal that keeps failing goes to our team: the page says who does it now', async () => {
    const api = await setupEntity();
    const task = await api.task(EDD);
    const { page } = await openPage({ a11y: true });
    await openAutomation(api, page, task.id);
    await start(page, 'connector-error');
    await openAutomation(api, page, task.id);
    const said = () => page.getByText('Who is doing it:').locator('..').textContent();
    await waitUntil(async () => {
      if ((await said())?.includes('Our team')) return true;
      await navigate(page, () => page.getByRole('link', { name: 'Check progress' }).click(), `/hosted/automation/${task.id}`);
      return false;
    }, 'our team to take the automation over');
    expect(await said(), await whereIs(page)).toContain('Our team (a person) files this');
    expect(await page.getByRole('status').textContent()).toContain('Our team will file it');
    await capture(page, 'automation-operator');
    const record = json(await t.app.inject({ url: `/tasks/${task.id}`, headers: api.headers }));
    expect(record.default_resolution_name).toBe('automate');
  });

  afterAll(() => {
    if (shots.length) console.log(`screenshots:\n${shots.join('\n')}`);
  });
});
