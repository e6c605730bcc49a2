/**
 * The rule behind a due date on the hosted task page: a person reads "Due <date> — <rule>" under the task's status
 * line; the page stays accessible (axe-core) and fits a phone (test/helpers/hosted-tasks-browser.ts).
 */
import { describe, expect, it } from 'vitest';
import { useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('hosted task page in a browser: the rule behind the due date', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { navigate } = suite;
  const { setupEntity, openPage, openTaskList, capture } = createTaskPages(suite);

  it('a dated task says its date and the rule in words; an undated one says neither', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { page } = await openPage({ a11y: true });
    await openTaskList(page, url!);

    // Delaware's franchise tax report, due March 1 every year (the corporation was incorporated in 2020).
    const report = await api.task('de-annual-franchise-tax-report-corporation');
    await navigate(page, () => page.getByRole('link', { name: report.definition.title }).click(), `/hosted/tasks/${report.id}`);
    const basis = page.locator('p.due-basis');
    expect((await basis.textContent())!.replace(/\s+/g, ' ')).toMatch(
      /^Due March 1, \d{4} — March 1 every year, from the year after registration$/,
    );
    expect(await page.locator('p.due-basis.estimated').count()).toBe(0);
    await capture(page, 'task-due-basis');

    const agent = await api.task('de-registered-agent');
    await page.goto(new URL(`/hosted/tasks/${agent.id}`, page.url()).toString());
    expect(await page.locator('p.due-basis').count()).toBe(0);
  });
});
