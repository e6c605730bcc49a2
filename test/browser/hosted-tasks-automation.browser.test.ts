import { discardingJobs } from '../helpers/app.js';
/**
 * The automation input page (errors next to the fields and in a summary, keyboard, return to the platform), and
 * every task page accessible and captured on a phone and a desktop.
 *
 * The hosted task pages in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context per
 * test, and a fresh legal entity per test (test/helpers/hosted-tasks-browser.ts), so the tests do not depend on
 * each other. The flows run with the pages' real Content-Security-Policy; the accessibility checks (axe-core
 * must be evaluated in the page) bypass it. Screenshots go to test-output/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalRequests, openHostedLink, type LiveApp, type CallbackServer } from '../helpers/browser.js';
import { heading, pathOf as path, useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('hosted task pages in a browser: automation input and accessibility', { timeout: 180_000 }, () => {
  // The automation's jobs are held, never run: these tests look at its start (docs/automations.md has the workflow).
  const suite = useBrowserSuite({ callbackPath: '/back', app: { jobs: discardingJobs } });
  const { trackedPage, whereIs, navigate, submitExpectingPage } = suite;
  const { setupEntity, openPage, notice, taskButton, focused, tabTo, capture, shots, description, expectRightAbove, openTaskList } =
    createTaskPages(suite);
  let t: LiveApp;
  let platform: CallbackServer;
  beforeAll(() => {
    ({ t, callback: platform } = suite);
  });

  it('automation: errors next to the fields and in a summary, then the keyboard fills the form and the browser returns to the platform', async () => {
    const api = await setupEntity();
    const task = await api.task('ca-edd-employer-registration');
    const { automation_url: url } = await api.session(`/tasks/${task.id}/automate/sessions`);
    const { page, requests } = await openPage();
    await openHostedLink(page, url!);
    expect(path(page), await whereIs(page)).toBe(`/hosted/automation/${task.id}`);
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
      expect(
        await page.locator(`#${id}-error`).evaluate((el, c) => el.parentElement === document.getElementById(c)?.parentElement, id),
      ).toBe(true);
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
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      ref: 'tasks',
      legal_entity_id: api.entityId,
      status: 'started',
      task_id: task.id,
    });
    expect(await heading(page)).toBe('Welcome back to the platform');
    const received = platform.requests.slice(before).filter((r) => r.url.startsWith('/back')); // not /favicon.ico
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.referer).toBeUndefined();

    // Through the API: in progress, the automation started with what was typed.
    const v2 = await api.v2Task(task.id);
    expect(v2.status).toBe('in-progress');
    expect(v2.source.automation_status).toBe('started');
    expect(v2.source.automation_status_logs.map((l) => l.status)).toEqual(['started']);
    // The SSN digits are sealed in the vault: the stored input shows them masked.
    const stored = await t.db.selectFrom('automations').selectAll().where('task_id', '=', task.id).executeTakeFirstOrThrow();
    expect(stored.input).toEqual({ first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '••••' });

    // A second session shows the status instead of the form.
    const again = await api.session(`/tasks/${task.id}/automate/sessions`);
    await openHostedLink(page, again.automation_url!);
    expect(path(page)).toBe(`/hosted/automation/${task.id}`);
    expect(await page.getByRole('status').textContent()).toContain('The filing is under way');
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

    // The confirmation (naming the task, with Undo) after marking a task done, then a refused change: "Start" in a tab opened before the task was done.
    const workers = await api.task('ca-workers-compensation');
    const stale = await trackedPage(page.context());
    await stale.goto(page.url(), { waitUntil: 'load' });
    await navigate(page, () => taskButton(page, 'Mark as done', workers.definition.title).click(), '/hosted/tasks');
    expect(await notice(page).locator('p').textContent()).toBe(`“${workers.definition.title}” marked as done.`);
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
    // Refused: back to the task page at a GET address, with the error next to the field.
    await navigate(page, () => page.getByRole('button', { name: /^Save answer/ }).click(), `/hosted/tasks/${started.id}`);
    expect(await page.locator(`#answer-${started.id}-error`).textContent()).toBe('Enter a date');
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
    await openHostedLink(page, automation.automation_url!);
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
    await openHostedLink(page, second.automation_url!);
    expect(await heading(page)).toBe(edd.definition.title);
    expect(await page.getByRole('status').textContent()).toContain('The filing is under way');
    expect(await page.locator('.history li').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Return to Acme Payroll' }).getAttribute('href')).toBe(`${platform.url}?ref=tasks`);
    await capture(page, 'automation-status');

    // The one-task page.
    const one = await api.task('ca-new-hire-reporting');
    const oneTask = await api.session(`/v2/tasks/${one.id}/session`);
    await openHostedLink(page, oneTask.url!);
    expect(path(page)).toBe(`/hosted/tasks/${one.id}`);
    await capture(page, 'task-one-task');

    expect(externalRequests(requests)).toEqual([]);
  });

  afterAll(() => {
    if (shots.length) console.log(`screenshots:\n${shots.join('\n')}`);
  });
});
