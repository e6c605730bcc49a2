import nodeIcal, { type VEvent } from 'node-ical';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import { renderFeed, sequenceOf } from './calendar-ics.js';
import type { FeedTaskRow } from './calendar.repository.js';

const catalog = loadCatalog();
const links = { publicBaseUrl: 'https://statehouse.example:8443' };
const CREATED = new Date('2026-10-01T09:00:00.250Z');
/** The Delaware requirements of the catalog, a fixed-fee one first when there is one. */
const delaware = [...catalog.regions.get('DE')!.requirements].sort(
  (a, b) => Number(b.fee.type === 'fixed') - Number(a.fee.type === 'fixed'),
);

const task = (over: Partial<FeedTaskRow> = {}): FeedTaskRow => ({
  id: 'task_1',
  kind: 'requirement',
  definition_id: delaware[0]!.id,
  region_code: 'DE',
  period_key: '2027-03-01',
  due_date: '2027-03-01',
  status: 'todo',
  due_date_rule: null,
  due_date_exact: null,
  due_date_question: null,
  revision: 0,
  updated_at: CREATED,
  ...over,
});

const eventsOf = (text: string) => Object.values(nodeIcal.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');

describe('calendar feed text', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  it("SEQUENCE is the task's revision (0 at creation)", () => {
    expect(sequenceOf(task())).toBe(0);
    expect(sequenceOf(task({ revision: 3 }))).toBe(3);
  });

  it("writes the due date itself as an all-day date, whatever the server's time zone", () => {
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles', 'Pacific/Pago_Pago']) {
      process.env.TZ = tz;
      const text = renderFeed(catalog, links, { businessName: 'Harbor Labs', tasks: [task({ due_date: '2027-01-01' })] });
      expect(text, tz).toContain('DTSTART;VALUE=DATE:20270101\r\n');
      expect(text, tz).toContain('DTEND;VALUE=DATE:20270102\r\n');
      expect(text).not.toContain('TZID');
    }
  });

  it('one event per known task: UID on the public host, title, agency, fee, status and the task page', () => {
    const { id } = delaware[0]!;
    const definition = catalog.requirement(id)!;
    const fee = definition.definition.fee;
    const feeText =
      fee.type === 'fixed'
        ? fee.amount === '0.00'
          ? 'None'
          : `$${fee.amount}`
        : fee.type === 'range'
          ? `$${fee.min} to $${fee.max}`
          : fee.reason;
    const text = renderFeed(catalog, links, {
      businessName: 'Harbor Labs',
      tasks: [
        task({ id: 'task_a', definition_id: id, status: 'in-progress', revision: 6, updated_at: new Date(CREATED.getTime() + 5_500) }),
        task({ id: 'task_gone', definition_id: 'no-such-requirement' }),
        task({ id: 'task_undated', definition_id: id, due_date: null }),
      ],
    });
    const events = eventsOf(text);
    expect(events.map((e) => e.uid)).toEqual(['task_a@statehouse.example:8443']);
    const [event] = events;
    expect(event!.summary).toBe(definition.definition.title);
    expect(event!.sequence).toBe(6);
    expect(event!.lastmodified!.toISOString()).toBe('2026-10-01T09:00:05.000Z');
    expect(event!.dtstamp.toISOString()).toBe('2026-10-01T09:00:05.000Z');
    expect(event!.description).toBe(
      [
        `Agency: ${definition.agency.name}`,
        'Location: Delaware',
        `Fee: ${feeText}`,
        'Status: In progress',
        'Open the task: https://statehouse.example:8443/hosted/tasks/task_a',
      ].join('\n'),
    );
    expect(text).toMatch(/REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n/);
  });

  it('the same tasks always give the same bytes (the ETag)', () => {
    const feed = {
      businessName: 'Harbor, Labs; "West"\nBranch',
      tasks: [task({ id: 'task_a' }), task({ id: 'task_b', due_date: '2027-06-30' })],
    };
    const text = renderFeed(catalog, links, feed);
    expect(renderFeed(catalog, links, feed)).toBe(text);
    expect(nodeIcal.sync.parseICS(text).vcalendar?.['WR-CALNAME']).toBe('Harbor, Labs; "West" Branch — compliance');
  });

  it('a business name cannot add content lines: line breaks become spaces, TEXT specials are escaped', () => {
    const text = renderFeed(catalog, links, { businessName: 'Evil\r\nX-INJECTED:1\nEND:VCALENDAR\\;,', tasks: [task()] });
    expect(text).not.toMatch(/^X-INJECTED/m);
    expect(text.match(/^END:VCALENDAR/gm)).toHaveLength(1);
    expect(text).toContain('X-WR-CALNAME:Evil X-INJECTED:1 END:VCALENDAR\\\\\\;\\, — compliance\r\n');
    expect(eventsOf(text)).toHaveLength(1);
  });

  it('the description states the rule behind the date, and for an estimated date the question that makes it exact', () => {
    const rule = 'Due the last day of the anniversary month of registration, every year from the year after registration';
    const exact = eventsOf(
      renderFeed(catalog, links, { businessName: 'Harbor Labs', tasks: [task({ due_date_rule: rule, due_date_exact: true })] }),
    )[0]!;
    expect(exact.description).toContain(
      'Due March 1, 2027 — the last day of the anniversary month of registration, every year from the year after registration\n',
    );
    expect(exact.description).not.toContain('Estimated');
    const estimated = eventsOf(
      renderFeed(catalog, links, {
        businessName: 'Harbor Labs',
        tasks: [task({ due_date_rule: rule, due_date_exact: false, due_date_question: 'registration-date' })],
      }),
    )[0]!;
    expect(estimated.description).toContain(
      'Estimated: answer “On what date was the business registered with the state of Delaware?” to make it exact\n',
    );
  });
});
