/**
 * Task list, task detail and one-task sessions: a person filters, opens, completes, reopens and answers tasks.
 *
 * The hosted task pages in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context per
 * test, and a fresh legal entity per test (test/helpers/hosted-tasks-browser.ts), so the tests do not depend on
 * each other. The flows run with the pages' real Content-Security-Policy; the accessibility checks (axe-core
 * must be evaluated in the page) bypass it. Screenshots go to test-output/screenshots/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { externalRequests, openHostedLink, type LiveApp, type CallbackServer } from '../helpers/browser.js';
import { heading, pathOf as path, useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('hosted task pages in a browser: task list and one-task sessions', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { trackedPage, whereIs, navigate } = suite;
  const { setupEntity, openPage, query, notice, taskButton, focused, tabTo, description, expectRightAbove, listed, openTaskList } =
    createTaskPages(suite);
  let t: LiveApp;
  let platform: CallbackServer;
  beforeAll(() => {
    ({ t, callback: platform } = suite);
  });

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
    expect(query(page)).toEqual({ region: 'CA', status: 'open', group: 'none' });
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
    expect(await notice(page).locator('p').textContent()).toBe(`“${agent.definition.title}” marked as done.`);
    expect(await page.locator('.meta .badge').textContent()).toBe('Done');
    expect(await api.statusOf(agent.id)).toBe('done');
    expect(await page.getByRole('button', { name: /^Mark as done/ }).count()).toBe(0); // a done task can only be reopened

    // Back to the list: done tasks are not among the open ones; the status filter shows them.
    await navigate(page, () => page.getByRole('link', { name: '← All tasks' }).click(), '/hosted/tasks');
    expect((await listed(page)).map((x) => x.title)).not.toContain(agent.definition.title);
    await page.getByLabel('Location').selectOption({ label: 'California' });
    await page.getByLabel('Status').selectOption({ label: 'Done' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'done', group: 'none' });
    expect(await listed(page)).toEqual([{ title: agent.definition.title, status: 'Done', region: 'California' }]);
    expect(await page.locator('.count').textContent()).toBe('1 task');

    // Move it back to to-do from the filtered list: the list keeps its filters and says it saved.
    await navigate(page, () => taskButton(page, 'Back to to-do', agent.definition.title).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'done', updated: agent.id, was: 'done', now: 'todo' });
    expect(await notice(page).locator('p').textContent()).toBe(`“${agent.definition.title}” moved back to to-do.`);
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
    // Refused: redirected to the task page at a GET address (a reload does not resend), landing on the field.
    await navigate(page, () => page.keyboard.press('Enter'), `/hosted/tasks/${question.id}`);
    expect(new URL(page.url()).hash).toBe(`#answer-${question.id}`);
    const missing = page.locator(`#answer-${question.id}-error`);
    expect(await missing.textContent()).toBe('Choose yes or no');
    await expectRightAbove(page, `#answer-${question.id}-error`, 'fieldset.inline');
    // The error must be tied to the radio group for screen readers (WCAG 1.3.1, 3.3.1), as on the automation form.
    const groupDescription = await page.locator('fieldset.inline').evaluate((fieldset) => {
      const own = (fieldset.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent ?? '');
      const radios = [...fieldset.querySelectorAll('input')].flatMap((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((id) => document.getElementById(id)?.textContent ?? ''),
      );
      return [...own, ...radios].join(' | ');
    });
    expect
      .soft(groupDescription, 'task detail: the "Choose yes or no" error is not referenced by the radio group (aria-describedby)')
      .toContain('Choose yes or no');

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
    expect(await dateInput.evaluate((el: HTMLInputElement) => ({ badInput: el.validity.badInput, valid: el.checkValidity() }))).toEqual({
      badInput: true,
      valid: false,
    });
    await dateInput.fill('');
    expect(await dateInput.evaluate((el: HTMLInputElement) => el.checkValidity())).toBe(true);
    await navigate(page, () => page.getByRole('button', { name: /^Save answer/ }).click(), `/hosted/tasks/${started.id}`);
    expect(new URL(page.url()).hash).toBe(`#answer-${started.id}`);
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

    // "Return to <platform>", a link apart from the task buttons, returns to the platform.
    const before = platform.requests.length;
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page
      .getByRole('navigation', { name: 'Leave these pages' })
      .getByRole('link', { name: /^Return to / })
      .click();
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
    await openHostedLink(page, url!);
    expect(path(page), await whereIs(page)).toBe(`/hosted/tasks/${task.id}`);
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
    expect(await notice(page).locator('p').textContent()).toBe(`“${task.definition.title}” marked as done.`);
    expect(await api.statusOf(task.id)).toBe('done');
    expect(await api.statusOf(other.id)).toBe('todo');
    const landed = page.waitForURL((u) => u.origin === platform.origin, { waitUntil: 'load' });
    await page.getByRole('link', { name: /^Return to / }).click();
    await landed;
    expect(externalRequests(requests)).toEqual([]);
  });
});
