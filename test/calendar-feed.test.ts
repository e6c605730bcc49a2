/**
 * The calendar feed read by an independent iCalendar parser (node-ical) and compared with GET /v2/tasks: every
 * open dated task once, on its due date, with stable UIDs, and SEQUENCE / LAST-MODIFIED that move when a task changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodeIcal, { type VEvent } from 'node-ical';
import { createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';
import { setupDatedEntity } from './helpers/calendar.js';

interface PlatformTask {
  id: string;
  title: string;
  status: string;
  source: { type: string; due_date?: string | null; fee?: { type: string; amount?: string } };
}

/** The local calendar date node-ical gives an all-day event (it reads DATE values as local midnight). */
const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const text = (value: unknown) => (typeof value === 'string' ? value : (value as { val: string }).val);

describe('calendar feed', () => {
  let t: TestApp;
  let headers: { authorization: string };
  let feedPath: string;

  const v2Tasks = async () => {
    const res = await t.app.inject({ url: '/v2/tasks?page_size=500', headers });
    expect(res.statusCode, res.body).toBe(200);
    return json<PlatformTask[]>(res);
  };
  const fetchFeed = async (extra: Record<string, string> = {}) => t.app.inject({ url: feedPath, headers: extra });
  const eventsOf = (body: string) => {
    const parsed = nodeIcal.sync.parseICS(body);
    return { calendar: parsed.vcalendar, events: Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT') };
  };
  const openDated = (tasks: PlatformTask[]) =>
    tasks.filter((x) => x.source.due_date && (x.status === 'todo' || x.status === 'in-progress'));

  beforeAll(async () => {
    t = await createTestApp();
    const { apiKey } = await createPlatform(t.db);
    ({ headers } = await setupDatedEntity(t.app, apiKey, 'Harbor Labs, Inc.; West'));
    const created = await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers });
    expect(created.statusCode, created.body).toBe(201);
    feedPath = new URL(json(created).url).pathname;
  });
  afterAll(async () => t.close());

  it('has every open dated task of GET /v2/tasks once, on its due date, titled and linked as the task', async () => {
    const expected = openDated(await v2Tasks());
    expect(expected.length, 'the fixture must have dated tasks').toBeGreaterThan(5);
    const res = await fetchFeed();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(res.body).not.toContain('X-WR-TIMEZONE');
    expect(res.body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const { calendar, events } = eventsOf(res.body);
    expect(calendar?.['WR-CALNAME']).toBe('Harbor Labs, Inc.; West — compliance');
    expect(events.map((e) => e.uid).sort()).toEqual(expected.map((x) => `${x.id}@statehouse.test`).sort());
    for (const task of expected) {
      const event = events.find((e) => e.uid === `${task.id}@statehouse.test`)!;
      expect(event.datetype).toBe('date');
      expect(localDate(event.start)).toBe(task.source.due_date);
      expect(localDate(event.end!)).toBe(new Date(Date.parse(`${task.source.due_date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
      expect(text(event.summary)).toBe(task.title);
      expect(text(event.url)).toBe(`http://statehouse.test/hosted/tasks/${task.id}`);
      const description = text(event.description);
      expect(description).toContain('Status: To do');
      expect(description).toContain(`Open the task: http://statehouse.test/hosted/tasks/${task.id}`);
      if (task.source.type === 'requirement') expect(description).toMatch(/^Agency: .+\nLocation: .+\nFee: .+/);
      expect(event.dtstamp).toBeInstanceOf(Date);
      expect(event.lastmodified).toBeInstanceOf(Date);
    }
  });

  it('answers the same bytes and UIDs twice, with an ETag that If-None-Match turns into a 304', async () => {
    const first = await fetchFeed();
    const second = await fetchFeed();
    expect(second.body).toBe(first.body);
    expect(eventsOf(second.body).events.map((e) => e.uid)).toEqual(eventsOf(first.body).events.map((e) => e.uid));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const notModified = await fetchFeed({ 'if-none-match': `W/"other", ${etag}` });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect((await fetchFeed({ 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it("a status change raises the event's SEQUENCE and moves its LAST-MODIFIED; done takes it off the calendar", async () => {
    const before = await fetchFeed();
    const [task] = openDated(await v2Tasks()).filter((x) => x.source.type === 'requirement' && x.status === 'todo');
    const uid = `${task!.id}@statehouse.test`;
    const old = eventsOf(before.body).events.find((e) => e.uid === uid)!;

    const started = await t.app.inject({ method: 'PATCH', url: `/tasks/${task!.id}`, headers, payload: { status: 'in-progress' } });
    expect(started.statusCode, started.body).toBe(200);
    const after = await fetchFeed({ 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const changed = eventsOf(after.body).events.find((e) => e.uid === uid)!;
    expect(changed.sequence!).toBeGreaterThan(old.sequence!);
    // LAST-MODIFIED has whole seconds: two changes within one second share it; SEQUENCE tells them apart.
    expect(changed.lastmodified!.getTime()).toBeGreaterThanOrEqual(old.lastmodified!.getTime());
    expect(text(changed.description)).toContain('Status: In progress');
    // The other events did not change.
    for (const other of eventsOf(after.body).events.filter((e) => e.uid !== uid)) {
      const was = eventsOf(before.body).events.find((e) => e.uid === other.uid);
      expect(other.sequence).toBe(was?.sequence);
    }

    const done = await t.app.inject({ method: 'PATCH', url: `/v2/tasks/${task!.id}`, headers, payload: { status: 'done' } });
    expect(done.statusCode, done.body).toBe(200);
    const events = eventsOf((await fetchFeed()).body).events;
    expect(events.map((e) => e.uid)).not.toContain(uid);
    expect(events.map((e) => e.uid).sort()).toEqual(
      openDated(await v2Tasks())
        .map((x) => `${x.id}@statehouse.test`)
        .sort(),
    );
  });
});
