import { html, type Raw } from './html.js';

/**
 * The one way hosted pages write dates: "March 4, 2026" (a day), "March 4, 2026 at 2:05 PM UTC" (a moment).
 * Stored days are calendar dates without a time zone and moments are UTC, so both are formatted in UTC: a day
 * never shifts by one for a reader west of Greenwich.
 */
const DAY = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
const DAY_MS = 86_400_000;

const dayOf = (value: string | Date): Date => (value instanceof Date ? value : new Date(`${value.slice(0, 10)}T00:00:00Z`));

const valid = (date: Date) => !Number.isNaN(date.getTime());

/** "March 4, 2026" from YYYY-MM-DD (or a Date, read in UTC); text that is not a date is shown as it is. */
export function formatDay(value: string | Date): string {
  const day = dayOf(value);
  return valid(day) ? DAY.format(day) : String(value);
}

/** "March 4, 2026 at 2:05 PM UTC" from an ISO timestamp or a Date; text that is not a date is shown as it is. */
export function formatMoment(value: string | Date): string {
  const at = value instanceof Date ? value : new Date(value);
  return valid(at) ? `${DAY.format(at)} at ${TIME.format(at)} UTC` : String(value);
}

/** Whole days from `today` to `day` (both YYYY-MM-DD): negative in the past. */
export const daysBetween = (today: string, day: string): number => Math.round((dayOf(day).getTime() - dayOf(today).getTime()) / DAY_MS);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The relative hint of a due date, for open work: "due today", "due tomorrow", "due in 3 days", "overdue by
 * 2 days". Null for dates more than two weeks ahead: the date alone says enough.
 */
export function dueHint(today: string, due: string): string | null {
  const days = daysBetween(today, due);
  if (days < 0) return `overdue by ${plural(-days, 'day')}`;
  if (days === 0) return 'due today';
  if (days === 1) return 'due tomorrow';
  return days <= 14 ? `due in ${plural(days, 'day')}` : null;
}

/** A day as an HTML `<time>` element. */
export const dayTime = (value: string | Date): Raw =>
  html`<time datetime="${value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10)}">${formatDay(value)}</time>`;

/** A moment as an HTML `<time>` element. */
export const momentTime = (value: string | Date): Raw =>
  html`<time datetime="${value instanceof Date ? value.toISOString() : value}">${formatMoment(value)}</time>`;
