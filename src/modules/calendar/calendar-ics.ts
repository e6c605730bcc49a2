// The feed's iCalendar text (RFC 5545) built with ical-generator: pure, so the same tasks always give the same
// bytes (the ETag) and the rules are unit-tested (calendar-ics.test.ts).
import ical from 'ical-generator';
import type { Catalog } from '../../catalog/catalog.js';
import type { RequirementDefinition } from '../../catalog/catalog.schema.js';
import { questionTitle } from '../../catalog/question-title.js';
import { regionByCode } from '../../catalog/regions.js';
import { formatDay } from '../../pages/dates.js';
import type { FeedTaskRow } from './calendar.repository.js';

export interface FeedContent {
  businessName: string;
  /** Dated open tasks, in the order the events are written. */
  tasks: FeedTaskRow[];
}

export interface FeedLinks {
  /** PUBLIC_BASE_URL without a trailing slash: the events' links and the host of their UIDs. */
  publicBaseUrl: string;
}

/** How long a calendar client should wait before fetching the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

const STATE_LABELS: Record<FeedTaskRow['status'], string> = {
  todo: 'To do',
  'in-progress': 'In progress',
  done: 'Done',
  dismissed: 'Dismissed',
};

/** SEQUENCE of a task's event: the task's revision, which the database raises at every change of the row. */
export const sequenceOf = (task: Pick<FeedTaskRow, 'revision'>): number => task.revision;

function feeText(fee: RequirementDefinition['fee']): string {
  if (fee.type === 'fixed') return fee.amount === '0.00' ? 'None' : `$${fee.amount}`;
  if (fee.type === 'range') return `$${fee.min} to $${fee.max}`;
  return fee.reason;
}

/** The event's title and the description lines the catalog gives it (none for a task the catalog no longer has). */
function describe(catalog: Catalog, task: FeedTaskRow): { title: string; lines: string[] } | null {
  const region = regionByCode(task.region_code);
  if (!region) return null;
  if (task.kind === 'question') {
    const question = catalog.questions.find((q) => q.id === task.definition_id);
    return question
      ? { title: questionTitle(catalog, question, region.code, region.name, task.period_key), lines: [`Location: ${region.name}`] }
      : null;
  }
  const found = catalog.requirement(task.definition_id);
  if (!found) return null;
  return {
    title: found.definition.title,
    lines: [
      `Agency: ${found.agency.name}`,
      `Location: ${region.name}`,
      `Fee: ${feeText(found.definition.fee)}`,
      ...dueBasisLines(catalog, task, region.name),
    ],
  };
}

/** "Due March 4, 2027 — <the rule>" and, for an estimated date, the question whose answer makes it exact. */
function dueBasisLines(catalog: Catalog, task: FeedTaskRow, regionName: string): string[] {
  if (!task.due_date || task.due_date_rule === null) return [];
  const lines = [`Due ${formatDay(task.due_date)} — ${task.due_date_rule.replace(/^Due /, '')}`];
  if (task.due_date_exact === false) {
    const question = catalog.questions.find((q) => q.id === task.due_date_question);
    lines.push(
      question
        ? `Estimated: answer “${questionTitle(catalog, question, task.region_code, regionName, 'once')}” to make it exact`
        : 'Estimated: answer the open questions to make it exact',
    );
  }
  return lines;
}

/**
 * The calendar's name as a TEXT value. ical-generator 10 writes NAME and X-WR-CALNAME unescaped (it escapes event
 * text only), so a line break in a business name would start a content line of its own: control characters become
 * spaces and the TEXT specials are escaped here (RFC 5545, 3.3.11).
 */
export const calendarName = (businessName: string) =>
  `${businessName} — compliance`.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/[\\;,]/g, (c) => `\\${c}`);

const nextDay = (isoDate: string) => new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000);

/** The whole feed: one all-day event per dated task, on its due date, with no time zone (a date is the same everywhere). */
export function renderFeed(catalog: Catalog, links: FeedLinks, feed: FeedContent): string {
  const host = new URL(links.publicBaseUrl).host;
  const calendar = ical({
    name: calendarName(feed.businessName),
    prodId: { company: 'Statehouse', product: 'Compliance calendar', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  for (const task of feed.tasks) {
    const about = describe(catalog, task);
    if (!about || !task.due_date) continue;
    const url = `${links.publicBaseUrl}/hosted/tasks/${task.id}`;
    calendar.createEvent({
      id: `${task.id}@${host}`,
      // All-day dates are written from the UTC fields of these instants: the due date itself, whatever the server's zone.
      start: new Date(`${task.due_date}T00:00:00Z`),
      end: nextDay(task.due_date),
      allDay: true,
      summary: about.title,
      description: [...about.lines, `Status: ${STATE_LABELS[task.status]}`, `Open the task: ${url}`].join('\n'),
      url,
      sequence: sequenceOf(task),
      // Without a METHOD, DTSTAMP is when the event's information last changed (RFC 5545, 3.8.7.2), as LAST-MODIFIED.
      stamp: task.updated_at,
      lastModified: task.updated_at,
    });
  }
  const text = calendar.toString();
  // Every content line ends with CRLF, the last one too (RFC 5545, 3.1).
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
