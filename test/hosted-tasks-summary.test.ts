import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp, discardingJobs } from './helpers/app.js';
import { eventsUntil } from './helpers/events.js';
import { openLink } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';

describe('hosted task pages: the summary, grouping, confirmation and undo', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  let entityId: string;
  const auth = () => bearer(token);
  type Task = { id: string; status: string; definition: { id: string; location: { code: string } } };
  const session = async (url: string, payload: Record<string, unknown> = { callback_url: CALLBACK }) => {
    const res = await t.app.inject({ method: 'POST', url, headers: auth(), payload });
    return { res, body: json(res) };
  };

  beforeAll(async () => {
    // Jobs are held, never run, as in hosted-tasks.test.ts.
    t = await createTestApp({}, undefined, { jobs: discardingJobs });
    ({ apiKey, token, entityId } = await createPlatformWithEntity(t, 'Acme Payroll', {
      user_email: 'a@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2020-03-10',
    }));
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: auth(),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    await t.app.inject({ method: 'PUT', url: '/locations/NY', headers: auth() });
  });
  afterAll(async () => t.close());

  describe('summary, grouping, confirmation and undo', () => {
    type Listed = Task & { due_date: string | null; definition: Task['definition'] & { title: string } };
    const allTasks = async () =>
      json<Listed[]>(await t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers: auth() }));
    /** A browser on the task list: it holds the page's CSRF token for its next form. */
    const listBrowser = async () => {
      const browser = (await openLink(t.app, (await session('/tasks/sessions')).body.url)).browser!;
      await browser.get('/hosted/tasks');
      return browser;
    };

    it('groups by state or by category, remembered in the address', async () => {
      const browser = await listBrowser();
      const byState = await browser.get('/hosted/tasks?group=state');
      const stateHeadings = [...byState.body.matchAll(/<h2 id="group-(\w+)">([^<]+) <span/g)].map((m) => m[2]!.trim());
      expect(stateHeadings).toEqual([...stateHeadings].sort());
      expect(stateHeadings).toContain('California');
      expect(stateHeadings).toContain('New York');
      expect(byState.body).toMatch(/<option value="state" selected>State<\/option>/);
      // An action returns to the grouped list.
      expect(byState.body).toContain('name="return_to" value="/hosted/tasks?group=state"');
      const byCategory = await browser.get('/hosted/tasks?group=category');
      const categoryHeadings = [...byCategory.body.matchAll(/<h2 id="group-([\w-]+)">([^<]+) <span/g)].map((m) => m[2]!.trim());
      expect(categoryHeadings).toContain('Registration');
      expect(categoryHeadings).toContain('Payroll');
      // Every open task is under exactly one heading.
      const titles = [...byCategory.body.matchAll(/<h3><a href="\/hosted\/tasks\/(task_\w+)">/g)].map((m) => m[1]);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles.sort()).toEqual(
        (await allTasks())
          .filter((x) => x.status === 'todo' || x.status === 'in-progress')
          .map((x) => x.id)
          .sort(),
      );
      // An unknown grouping is the plain list.
      expect((await browser.get('/hosted/tasks?group=bogus')).body).not.toContain('class="task-group"');
    });

    it('undo restores the previous status through the tasks service: re-planned and recorded as an event', async () => {
      const browser = await listBrowser();
      const agent = (await allTasks()).find((x) => x.definition.id === 'ca-registered-agent')!;
      if (agent.status !== 'in-progress')
        await browser.post(`/hosted/tasks/${agent.id}/status`, { status: 'in-progress', return_to: '/hosted/tasks' });
      const done = await browser.post(`/hosted/tasks/${agent.id}/status`, { status: 'done', return_to: '/hosted/tasks?group=category' });
      const page = await browser.get(done.headers.location as string);
      expect(page.body).toContain(`“${agent.definition.title}” marked as done.`);
      expect(page.body).toContain(`action="/hosted/tasks/${agent.id}/undo"`);
      // Done may only go back to to-do by hand; undo restores in-progress, the status it really had.
      const undone = await browser.post(`/hosted/tasks/${agent.id}/undo`, {
        from: 'done',
        to: 'in-progress',
        return_to: '/hosted/tasks?group=category',
      });
      expect(undone.statusCode).toBe(303);
      expect(undone.headers.location).toBe(`/hosted/tasks?group=category&undone=${agent.id}`);
      expect((await allTasks()).find((x) => x.id === agent.id)!.status).toBe('in-progress');
      expect((await browser.get(undone.headers.location as string)).body).toContain(
        `Undone: “${agent.definition.title}” is in progress again.`,
      );
      // The log lists an event once every older transaction on the server has ended: wait for the undo's own
      // event (in progress again, after done), not for a count the earlier changes can already reach.
      const statusEvents = (list: Awaited<ReturnType<typeof eventsUntil>>) =>
        list.filter((e) => e.type === 'task.updated' && e.data.object.id === agent.id && e.data.changed?.includes('status'));
      const events = await eventsUntil(t.app, apiKey, (list) => {
        const statuses = statusEvents(list).map((e) => e.data.object.status);
        return statuses.lastIndexOf('in-progress') > statuses.lastIndexOf('done') && statuses.includes('done');
      });
      const last = statusEvents(events).at(-1)!;
      expect(last.data.object.status).toBe('in-progress');

      // A second undo of the same change finds nothing to undo: the task is no longer done.
      const again = await browser.post(`/hosted/tasks/${agent.id}/undo`, { from: 'done', to: 'in-progress', return_to: '/hosted/tasks' });
      expect(new URL(again.headers.location as string, 'http://x').searchParams.get('error')).toBe(
        'This task changed since, so there is nothing to undo.',
      );
      expect((await allTasks()).find((x) => x.id === agent.id)!.status).toBe('in-progress');
      // An "undo" that no real change could have made is refused too (to-do was never reached from done by moving forward).
      const forged = await browser.post(`/hosted/tasks/${agent.id}/undo`, { from: 'in-progress', to: 'done', return_to: '/hosted/tasks' });
      expect(new URL(forged.headers.location as string, 'http://x').searchParams.get('error')).toBe(
        'This task changed since, so there is nothing to undo.',
      );
      expect((await allTasks()).find((x) => x.id === agent.id)!.status).toBe('in-progress');
    });

    it('undo re-plans: the tasks that waited for the task wait again', async () => {
      const browser = await listBrowser();
      type Blocked = Listed & { blocked_by: string[] };
      const waiting = async () =>
        json<Blocked[]>(await t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers: auth() }))
          .filter((x) => x.blocked_by.includes('ca-foreign-qualification-corporation'))
          .map((x) => x.id)
          .sort();
      const blocker = (await allTasks()).find((x) => x.definition.id === 'ca-foreign-qualification-corporation')!;
      const before = await waiting();
      expect(before.length, 'tasks wait for the foreign qualification').toBeGreaterThan(0);
      await browser.post(`/hosted/tasks/${blocker.id}/status`, { status: 'done', return_to: '/hosted/tasks' });
      expect(await waiting()).toEqual([]);
      await browser.post(`/hosted/tasks/${blocker.id}/undo`, { from: 'done', to: blocker.status, return_to: '/hosted/tasks' });
      expect((await allTasks()).find((x) => x.id === blocker.id)!.status).toBe(blocker.status);
      expect(await waiting()).toEqual(before);
    });

    it('undo is refused for a task outside the session, and changes nothing', async () => {
      const task = (await allTasks()).find((x) => x.definition.id === 'ca-workers-compensation')!;
      const { body } = await session(`/v2/tasks/${task.id}/session`);
      const { browser } = await openLink(t.app, body.url);
      await browser!.get(`/hosted/tasks/${task.id}`);
      const other = (await allTasks()).find((x) => x.definition.id === 'ca-registered-agent')!;
      const before = other.status;
      const refused = await browser!.post(`/hosted/tasks/${other.id}/undo`, { from: before, to: 'todo' });
      expect(refused.statusCode).toBe(404);
      expect((await allTasks()).find((x) => x.id === other.id)!.status).toBe(before);
      // Without a session at all: 401.
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: `/hosted/tasks/${other.id}/undo`,
            payload: 'from=done&to=todo',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          })
        ).statusCode,
      ).toBe(401);
    });
  });

  describe('the summary, on a clock moved past a due date (last: the clock stays moved)', () => {
    type Listed = Task & { due_date: string | null };
    const allTasks = async () =>
      json<Listed[]>(await t.app.inject({ url: '/tasks?status=todo&status=in-progress&status=done&status=dismissed', headers: auth() }));
    const counts = (body: string) =>
      Object.fromEntries(
        [...body.matchAll(/<span class="n">(\d+)<\/span> <span class="label">(\w+)<\/span>/g)].map((m) => [m[2], Number(m[1])]),
      );
    /** A browser on the task list: it holds the page's CSRF token for its next form. */
    const listBrowser = async () => {
      const browser = (await openLink(t.app, (await session('/tasks/sessions')).body.url)).browser!;
      await browser.get('/hosted/tasks');
      return browser;
    };

    it('the summary counts open, overdue and done tasks of the whole session, whatever the filters, each linking to its filter', async () => {
      const before = await allTasks();
      const dated = before
        .filter((x) => x.due_date && (x.status === 'todo' || x.status === 'in-progress'))
        .map((x) => x.due_date!)
        .sort();
      expect(dated.length, 'the fixture has open tasks with due dates').toBeGreaterThan(0);
      // The day after the earliest due date: at least that task is overdue (the clock moves for this app only).
      const shift = Date.parse(`${dated[0]}T00:00:00Z`) + 86_400_000 - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
      if (shift > 0) t.advance(shift);
      // The entity's access token has expired on the moved clock: the platform gets a new one.
      token = json<{ access_token: string }>(
        await t.app.inject({
          method: 'POST',
          url: '/accounts/auth',
          headers: { authorization: apiKey },
          payload: { legal_entity_id: entityId },
        }),
      ).access_token;
      const browser = await listBrowser();
      const today = new Date(Date.now() + Math.max(shift, 0)).toISOString().slice(0, 10);
      const all = await allTasks();
      const open = all.filter((x) => x.status === 'todo' || x.status === 'in-progress');
      const expected = {
        open: open.length,
        overdue: open.filter((x) => x.due_date && x.due_date < today).length,
        done: all.filter((x) => x.status === 'done').length,
      };
      expect(expected.overdue).toBeGreaterThan(0);
      const page = await browser.get('/hosted/tasks?region=CA&status=done&group=state');
      expect(counts(page.body)).toEqual(expected);
      expect(page.body).toContain('href="/hosted/tasks?region=CA&amp;group=state&amp;status=overdue"');
      const overdue = await browser.get('/hosted/tasks?status=overdue');
      expect(overdue.body).toContain(
        expected.overdue === 1 ? '<p class="count" aria-live="polite">1 task</p>' : `${expected.overdue} tasks</p>`,
      );
      expect(overdue.body).toMatch(/Overdue by \d+ days?: due <time datetime="\d{4}-\d\d-\d\d">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time>/);
    });
  });
});
