/**
 * "Subscribe in your calendar" on the hosted task list, in headless chromium with the page's real CSP: get the
 * link with the keyboard, see it and its webcal:// link, fetch the feed it names, stop sharing; axe-clean and no
 * sideways scrolling at phone width (a second context bypasses the CSP so that axe-core can run).
 */
import { describe, expect, it } from 'vitest';
import { externalRequests } from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('calendar subscription on the hosted task list, in a browser', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { navigate } = suite;
  const { setupEntity, openPage, notice, openTaskList, tabTo, capture } = createTaskPages(suite);

  it('gets a link, shows it with a webcal:// link to the live feed, and stops sharing it', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { page, requests } = await openPage({ viewport: { width: 375, height: 812 } });
    await openTaskList(page, url!);

    const section = page.getByRole('region', { name: 'Subscribe in your calendar' });
    await expect.poll(() => section.isVisible()).toBe(true);
    // With the keyboard: Tab to the button, Enter.
    // (The section follows the task list: the number of Tab presses grows with the tasks the catalog plans.)
    await tabTo(page, 'button:Get a calendar link', 200);
    await navigate(page, () => page.keyboard.press('Enter'), '/hosted/tasks');
    expect(await notice(page).textContent()).toContain('Your calendar link is ready');
    const link = await page.getByLabel(/^Calendar link/).inputValue();
    expect(link).toMatch(new RegExp(`^${suite.t.baseUrl}/calendar/shcal_[\\w-]+\\.ics$`));
    expect(await section.getByRole('link', { name: 'Open in your calendar app' }).getAttribute('href')).toBe(
      link.replace(/^http:/, 'webcal:'),
    );

    const feed = await fetch(link);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain('X-WR-CALNAME:Harbor Labs — compliance');

    await navigate(page, () => section.getByRole('button', { name: 'Stop sharing' }).click(), '/hosted/tasks');
    expect(await notice(page).textContent()).toContain('You stopped sharing your calendar');
    expect(await section.getByRole('button', { name: 'Get a calendar link' }).isVisible()).toBe(true);
    expect((await fetch(link)).status).toBe(404);
    expect(externalRequests(requests)).toEqual([]);
  });

  it('the section is accessible (axe) and fits a phone, before and after getting the link', async () => {
    const api = await setupEntity();
    const { url } = await api.session('/tasks/sessions');
    const { page } = await openPage({ a11y: true });
    await openTaskList(page, url!);
    await capture(page, 'calendar-offer');
    await navigate(page, () => page.getByRole('button', { name: 'Get a calendar link' }).click(), '/hosted/tasks');
    await page.locator('#calendar').scrollIntoViewIfNeeded();
    await capture(page, 'calendar-link');
  });
});
