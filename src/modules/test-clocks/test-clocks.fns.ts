import { addMonths, toDate, toIso } from '../../engine/dates.js';
import { MAX_ADVANCE_MONTHS } from './contract.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A date-time with its offset (RFC 3339), or a date (midnight UTC); null when it is neither or no real day. */
export function parseInstant(value: string): Date | null {
  if (!INSTANT.test(value)) return null;
  const at = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) return null;
  // 2027-02-30 parses as March 2nd: the day written must be the day read.
  if (toIso(new Date(Date.parse(`${value.slice(0, 10)}T00:00:00Z`))) !== value.slice(0, 10)) return null;
  return at;
}

/** The latest instant a clock at `from` may be moved to in one call: MAX_ADVANCE_MONTHS later. */
export function horizonOf(from: Date): Date {
  const day = addMonths(toIso(from), MAX_ADVANCE_MONTHS);
  return new Date(toDate(day).getTime() + (from.getTime() - toDate(toIso(from)).getTime()));
}

/**
 * The next instant an advance from `current` towards `target` stops at: the start of the day the entity's plan
 * changes on (`nextReplanOn`), when that day lies strictly between the two days; else the target itself.
 */
export function nextStop(current: Date, target: Date, nextReplanOn: string | null): Date {
  if (nextReplanOn && nextReplanOn > toIso(current) && nextReplanOn < toIso(target)) return toDate(nextReplanOn);
  return target;
}
