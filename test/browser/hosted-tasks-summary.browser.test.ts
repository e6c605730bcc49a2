/**
 * The task list's summary, grouping and confirmations: a person reads the counts, groups the list by state and by
 * category (a GET form: the choice stays in the address), marks a task done, reads the confirmation that names it
 * and undoes it. Every state is checked with axe-core at both widths and captured (test/helpers/hosted-tasks-browser.ts).
 */
import { describe, expect, it } from 'vitest';
import { externalRequests } from '../helpers/browser.js';
import { heading, useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('hosted task list in a browser: summary, grouping, confirmation and undo', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { navigate } = suite;
  const { setupEntity, openPage, query, notice, taskButton, listed, openTaskList, capture } = createTaskPages(suite);

  it('the summary counts, the groups, a named confirmation with Undo, and the way back to the platform set apart', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { page, requests } = await openPage({ a11y: true });
    await openTaskList(page, url!);
    expect(await heading(page)).toBe('Compliance tasks for Harbor Labs');

    // The summary: open, overdue and done, each a link to the list filtered on it.
    const all = await api.tasks();
    const open = all.filter((x) => x.status === 'todo' || x.status === 'in-progress');
    const summary = page.getByRole('region', { name: 'Summary' });
    const counts = await summary.getByRole('listitem').allTextContents();
    expect(counts.map((c) => c.replace(/\s+/g, ' ').trim())).toEqual([
      `${open.length} open`,
      expect.stringMatching(/^\d+ overdue$/),
      '0 done',
    ]);
    await capture(page, 'tasks-list-summary');

    // Group by state with the form: headings in alphabetical order, the choice in the address.
    await page.getByLabel('Group by').selectOption({ label: 'State' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toMatchObject({ group: 'state' });
    const groups = await page.locator('section.task-group > h2').allTextContents();
    expect(groups.map((g) => g.replace(/\s*\(\d+ tasks?\)$/, ''))).toEqual(['California', 'Delaware', 'New York']);
    expect((await listed(page)).length).toBe(open.length);
    await capture(page, 'tasks-list-grouped-state');

    await page.getByLabel('Group by').selectOption({ label: 'Category' });
    await navigate(page, () => page.getByRole('button', { name: 'Show tasks' }).click(), '/hosted/tasks');
    expect(query(page)).toMatchObject({ group: 'category' });
    expect(await page.locator('section.task-group > h2').count()).toBeGreaterThan(1);
    await capture(page, 'tasks-list-grouped-category');

    // Mark a task done: the confirmation names it, the list stays grouped, and Undo puts it back.
    const agent = await api.task('ca-registered-agent');
    await navigate(page, () => taskButton(page, 'Mark as done', agent.definition.title).click(), '/hosted/tasks');
    expect(query(page)).toMatchObject({ group: 'category', updated: agent.id, was: 'todo', now: 'done' });
    expect(await notice(page).getAttribute('role')).toBe('status');
    expect(await notice(page).locator('p').textContent()).toBe(`“${agent.definition.title}” marked as done.`);
    expect(
      await page
        .getByRole('listitem')
        .filter({ hasText: /^\s*1\s+done\s*$/ })
        .count(),
    ).toBe(1);
    expect(await api.statusOf(agent.id)).toBe('done');
    await capture(page, 'tasks-list-confirmation');
    await navigate(page, () => notice(page).getByRole('button', { name: /^Undo/ }).click(), '/hosted/tasks');
    expect(query(page)).toMatchObject({ group: 'category', undone: agent.id });
    expect(await notice(page).locator('p').textContent()).toBe(`Undone: “${agent.definition.title}” is to do again.`);
    expect(await notice(page).getByRole('button').count()).toBe(0);
    expect(await api.statusOf(agent.id)).toBe('todo');
    expect((await listed(page)).map((x) => x.title)).toContain(agent.definition.title);

    // "Mark as done" is a button on each task; returning to the platform is a link in its own navigation region, after the list.
    const leave = page.getByRole('navigation', { name: 'Leave these pages' });
    expect(await leave.getByRole('link', { name: 'Return to Acme Payroll' }).getAttribute('href')).toBe(`${suite.callback.url}?ref=tasks`);
    expect(await leave.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: "I'm done" }).count()).toBe(0);
    const [lastTask, leaveBox] = await Promise.all([page.locator('li.task').last().boundingBox(), leave.boundingBox()]);
    expect(leaveBox!.y).toBeGreaterThan(lastTask!.y);
    expect(externalRequests(requests)).toEqual([]);
  });
});
