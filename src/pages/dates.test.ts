import { describe, expect, it } from 'vitest';
import { dayTime, daysBetween, dueHint, formatDay, formatMoment, momentTime } from './dates.js';

describe('hosted page dates', () => {
  it('writes a day as "March 4, 2026", in UTC whatever the reader\'s zone', () => {
    expect(formatDay('2026-03-04')).toBe('March 4, 2026');
    expect(formatDay(new Date('2026-12-31T23:30:00Z'))).toBe('December 31, 2026');
    expect(formatDay('2024-13-01')).toBe('2024-13-01');
    expect(formatDay('soon')).toBe('soon');
    expect(dayTime('2026-03-04').value).toBe('<time datetime="2026-03-04">March 4, 2026</time>');
  });

  it('writes a moment with its time of day and zone', () => {
    expect(formatMoment('2026-06-01T14:05:09.000Z')).toBe('June 1, 2026 at 2:05 PM UTC');
    expect(momentTime(new Date('2026-06-01T00:00:00Z')).value).toBe(
      '<time datetime="2026-06-01T00:00:00.000Z">June 1, 2026 at 12:00 AM UTC</time>',
    );
  });

  it('shows text that is not a date as it is, never "Invalid Date" or an exception', () => {
    expect(formatDay('next spring')).toBe('next spring');
    expect(formatMoment('soon')).toBe('soon');
  });

  it('says how far a due date is: today, tomorrow, within two weeks, or how late', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(dueHint('2026-03-04', '2026-03-04')).toBe('due today');
    expect(dueHint('2026-03-04', '2026-03-05')).toBe('due tomorrow');
    expect(dueHint('2026-03-04', '2026-03-07')).toBe('due in 3 days');
    expect(dueHint('2026-03-04', '2026-03-18')).toBe('due in 14 days');
    expect(dueHint('2026-03-04', '2026-03-19')).toBeNull();
    expect(dueHint('2026-03-04', '2026-03-03')).toBe('overdue by 1 day');
    expect(dueHint('2026-03-04', '2026-02-25')).toBe('overdue by 7 days');
  });
});
