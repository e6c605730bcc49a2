/**
 * Keyboard use of the task list (Tab order, visible focus) and the task pages without JavaScript.
 *
 * The hosted task pages in a real browser (Debian's chromium, headless), used like a person would: labels,
 * keyboard and clicks, against the app listening on 127.0.0.1. One browser for the file, a fresh context per
 * test, and a fresh legal entity per test (test/helpers/hosted-tasks-browser.ts), so the tests do not depend on
 * each other. The flows run with the pages' real Content-Security-Policy; the accessibility checks (axe-core
 * must be evaluated in the page) bypass it. Screenshots go to test-output/screenshots/.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, externalRequests } from '../helpers/browser.js';
import { useBrowserSuite } from '../helpers/browser-suite.js';
import { createTaskPages } from '../helpers/hosted-tasks-browser.js';

describe('hosted task pages in a browser: keyboard and no JavaScript', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite({ callbackPath: '/back' });
  const { navigate } = suite;
  const { setupEntity, openPage, query, notice, taskButton, listed, openTaskList } = createTaskPages(suite);

  it("keyboard: Tab reaches the filters and every task's controls in order, with visible focus", async () => {
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
        const name =
          el instanceof HTMLInputElement && el.type === 'radio'
            ? `radio in "${el.closest('fieldset')?.querySelector('legend')?.textContent}"`
            : el.id
              ? `#${el.id}`
              : `${el.tagName.toLowerCase()}:${el.textContent?.trim().replace(/\s+/g, ' ')}`;
        stops.push({ index, name });
      });
      return stops;
    });
    const names = new Map(expected.map((s) => [s.index, s.name]));

    interface Stop {
      index: number | null;
      focusVisible: boolean;
      style: string;
      width: string;
      offset: number;
      color: string;
      background: string;
      tag: string;
      type: string;
    }
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
          index: Number(el.dataset.kb),
          focusVisible: el.matches(':focus-visible'),
          style: s.outlineStyle,
          width: s.outlineWidth,
          offset: parseFloat(s.outlineOffset),
          color: s.outlineColor,
          background,
          tag: el.tagName.toLowerCase(),
          type: el.getAttribute('type') ?? '',
        };
      });
      if (!stop) break;
      if (reached.at(-1)?.index === stop.index) continue; // a date input takes several Tabs (month, day, year)
      reached.push(stop);
    }
    const label = (index: number | null) => (index === null ? '?' : (names.get(index) ?? `#${index}`));
    expect(reached.map((s) => label(s.index))).toEqual(expected.map((s) => s.name));
    // The summary's counts (links to their filters) come first, then the filters.
    expect(reached.slice(0, 3).map((s) => label(s.index).replace(/\d+/, 'N'))).toEqual(['a:N open', 'a:N overdue', 'a:N done']);
    expect(reached.slice(3, 7).map((s) => label(s.index))).toEqual([
      '#filter-region',
      '#filter-status',
      '#filter-group',
      'button:Show tasks',
    ]);

    // Every task's buttons are reached, and say which task they act on.
    const buttons = await page.locator('li.task button').evaluateAll((els) => els.map((b) => Number((b as HTMLElement).dataset.kb)));
    expect(buttons.length).toBeGreaterThan(10);
    for (const b of buttons)
      expect(
        reached.map((s) => s.index),
        label(b),
      ).toContain(b);
    /** What a screen reader announces for a control: its name (aria-labelledby, aria-label, label or text) and description. */
    const announced = (selector: string) =>
      page.locator(selector).evaluateAll((els) =>
        els.map((el) => {
          const texts = (attr: string) =>
            (el.getAttribute(attr) ?? '')
              .split(/\s+/)
              .filter(Boolean)
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' ');
          const name =
            texts('aria-labelledby') ||
            el.getAttribute('aria-label') ||
            ((el as HTMLInputElement).labels?.[0]?.textContent ?? '') ||
            (el.textContent ?? '');
          const group = el.closest('fieldset')?.querySelector('legend')?.textContent ?? '';
          return `${group} ${name} ${texts('aria-describedby')}`.replace(/\s+/g, ' ').trim();
        }),
      );
    const repeated = (names: string[]) => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    expect
      .soft(repeated(await announced('li.task button')), 'task list: buttons that do not say which task they act on (WCAG 2.4.6)')
      .toEqual([]);
    expect
      .soft(
        repeated(await announced('li.task input[name="answer"]:not([type="radio"])')),
        'task list: answer fields that do not say which question they answer (WCAG 2.4.6)',
      )
      .toEqual([]);

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
    expect.soft(weak, "controls without the pages' 3px focus ring (docs/hosted-pages.md)").toEqual([]);

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
    expect(query(page)).toEqual({ region: 'CA', status: 'open', group: 'none' });
    await navigate(page, () => taskButton(page, 'Mark as done', agent.definition.title).click(), '/hosted/tasks');
    expect(query(page)).toEqual({ region: 'CA', status: 'open', updated: agent.id, was: 'todo', now: 'done' });
    expect(await notice(page).locator('p').textContent()).toBe(`“${agent.definition.title}” marked as done.`);
    expect((await listed(page)).map((x) => x.title)).not.toContain(agent.definition.title);
    expect(await api.statusOf(agent.id)).toBe('done');
    expect(externalRequests(requests)).toEqual([]);
  });
});
