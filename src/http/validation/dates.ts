/**
 * Date parsing with pydantic v2's lax rules and messages (speedate), so a client that
 * learned the reference service's 422 bodies sees the same `type`, `msg` and `ctx`.
 */
export type DateResult =
  | { ok: true; value: string }
  | { ok: false; type: 'date_parsing'; error: string }
  | { ok: false; type: 'date_from_datetime_parsing'; error: string }
  | { ok: false; type: 'date_from_datetime_inexact' }
  | { ok: false; type: 'date_type' };

const SECONDS_PER_DAY = 86_400;
// speedate treats larger magnitudes as milliseconds.
const MS_THRESHOLD = 20_000_000_000;

export function parseDate(input: unknown): DateResult {
  if (typeof input === 'number' && Number.isFinite(input)) return fromTimestamp(input);
  if (typeof input !== 'string') return { ok: false, type: 'date_type' };
  const date = parseDatePart(input);
  if (date.ok && input.startsWith('0000')) return { ok: false, type: 'date_parsing', error: 'year 0 is out of range' };
  if (date.ok && input.length === 10) return { ok: true, value: input };
  // Digits are a Unix timestamp, if they fit speedate's 64-bit integer.
  if (/^[+-]?\d+(\.\d+)?$/.test(input) && Math.abs(Number(input)) < 2 ** 63) return fromTimestamp(Number(input));
  if (!date.ok) return { ok: false, type: 'date_from_datetime_parsing', error: date.error };
  // Longer than a date: pydantic accepts a datetime whose time is exactly midnight.
  const sep = input[10];
  if (sep !== 'T' && sep !== 't' && sep !== ' ' && sep !== '_') {
    return { ok: false, type: 'date_from_datetime_parsing', error: 'invalid datetime separator, expected `T`, `t`, `_` or space' };
  }
  const time = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/.exec(input.slice(11));
  if (!time) return { ok: false, type: 'date_from_datetime_parsing', error: 'invalid character in hour' };
  const [, hh, mm, ss, frac] = time;
  if (Number(hh) > 23) return { ok: false, type: 'date_from_datetime_parsing', error: 'hour value is outside expected range of 0-23' };
  if (Number(mm) > 59) return { ok: false, type: 'date_from_datetime_parsing', error: 'minute value is outside expected range of 0-59' };
  if (Number(ss ?? 0) > 59)
    return { ok: false, type: 'date_from_datetime_parsing', error: 'second value is outside expected range of 0-59' };
  const midnight = Number(hh) === 0 && Number(mm) === 0 && Number(ss ?? 0) === 0 && Number(frac ?? 0) === 0;
  return midnight ? { ok: true, value: input.slice(0, 10) } : { ok: false, type: 'date_from_datetime_inexact' };
}

// speedate's range for timestamps: 0000-01-01 to 9999-12-31.
const FIRST_SECOND = -62_167_219_200;
const AFTER_LAST_SECOND = 253_402_300_800;

function fromTimestamp(value: number): DateResult {
  const seconds = Math.abs(value) > MS_THRESHOLD ? value / 1000 : value;
  if (seconds >= AFTER_LAST_SECOND)
    return { ok: false, type: 'date_from_datetime_parsing', error: 'dates after 9999 are not supported as unix timestamps' };
  if (seconds < FIRST_SECOND)
    return { ok: false, type: 'date_from_datetime_parsing', error: 'dates before 0000 are not supported as unix timestamps' };
  if (!Number.isInteger(seconds) || seconds % SECONDS_PER_DAY !== 0) return { ok: false, type: 'date_from_datetime_inexact' };
  // Python's date has no year 0.
  if (seconds < FIRST_SECOND + 366 * SECONDS_PER_DAY) return { ok: false, type: 'date_parsing', error: 'year 0 is out of range' };
  return { ok: true, value: new Date(seconds * 1000).toISOString().slice(0, 10) };
}

function parseDatePart(s: string): { ok: true } | { ok: false; error: string } {
  if (s.length < 10) return { ok: false, error: 'input is too short' };
  const digit = (i: number) => s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
  for (let i = 0; i < 4; i++) if (!digit(i)) return { ok: false, error: 'invalid character in year' };
  if (s[4] !== '-') return { ok: false, error: 'invalid date separator, expected `-`' };
  if (!digit(5) || !digit(6)) return { ok: false, error: 'invalid character in month' };
  if (s[7] !== '-') return { ok: false, error: 'invalid date separator, expected `-`' };
  if (!digit(8) || !digit(9)) return { ok: false, error: 'invalid character in day' };
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  if (month < 1 || month > 12) return { ok: false, error: 'month value is outside expected range of 1-12' };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, error: 'day value is outside expected range' };
  return { ok: true };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
