import { describe, expect, it } from 'vitest';
import type { Schedule } from '../catalog/schedule.schema.js';
import { describeSchedule } from './describe.js';

/** Every schedule kind in words, as the task pages and the catalog listing show it (the dates: golden-schedules*.test.ts). */
describe('describeSchedule: every kind in words', () => {
  const words = (schedule: Schedule) => describeSchedule(schedule);
  it.each<[Schedule, string]>([
    [{ every: 'once', due: { rule: 'none' } }, 'No fixed due date'],
    [{ every: 'once', due: { rule: 'within_days', of: 'registration_date', days: 90 } }, 'Due within 90 days of registration'],
    [
      { every: 'once', due: { rule: 'months_after', of: 'registration_date', offset_months: 3, day: 15 } },
      'Due the 15th day of the fourth month counting the month of registration as the first',
    ],
    [
      { every: 'once', due: { rule: 'months_after', of: 'operations_start_date', offset_months: 0, day: 'last' } },
      'Due the last day of the month of the start of operations',
    ],
    [{ every: '1y', due: { rule: 'fixed', month: 4, day: 15 } }, 'Due April 15 every year, from the year after registration'],
    [
      { every: '1y', first: 'first-due-date', due: { rule: 'fixed', month: 4, day: 'last' } },
      'Due April 30 every year, from the first due date after registration',
    ],
    [
      { every: '1y', due: { rule: 'fixed', month: 2, day: 'last' } },
      'Due the last day of February every year, from the year after registration',
    ],
    [
      { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: -1, day: 'last' } },
      'Due the last day of the month before the anniversary month of registration every year, from the first anniversary of registration',
    ],
    [
      { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } },
      'Due the 15th day of the fourth month after the fiscal year ends every year, from the first fiscal year ending on or after registration',
    ],
    [
      { every: '1y', first: 'next-year', due: { rule: 'fiscal_year_end', offset_months: 3, day: 15 } },
      'Due the 15th day of the third month after the fiscal year ends every year, from the first fiscal year ending on or after registration whose due date falls after the registration year',
    ],
    [
      { every: '2y', parity: 'even', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } },
      'Due the 15th day of the fourth month after the fiscal year ends, every two years for fiscal years ending in even-numbered years, from the first fiscal year ending on or after registration',
    ],
    [{ every: '2y', due: { rule: 'fixed', month: 4, day: 1 } }, 'Due April 1, every two years counted from the registration year'],
    [
      { every: '2y', first: 'next-year', due: { rule: 'fixed', month: 4, day: 1 } },
      'Due April 1, every two years counted from the year after registration',
    ],
    [
      { every: '2y', parity: 'opposite-of-registration-year', due: { rule: 'fixed', month: 4, day: 1 } },
      "Due April 1, every two years in the years the registration year's cycle skips (odd-numbered years if registered in an even year, even-numbered if in an odd one), from the year after registration",
    ],
    [
      { every: '2y', parity: 'registration-number-digit', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } },
      'Due the 15th day of the fourth month after the fiscal year ends, every two years for fiscal years ending in even-numbered years if the last digit of the state registration number is even, odd-numbered years if it is odd, from the first fiscal year ending on or after registration',
    ],
    [
      { every: '2y', parity_by_entity_type: { c_corp: 'even', llc: 'odd' }, due: { rule: 'fixed', month: 4, day: 15 } },
      'Due April 15, every two years for corporations in even-numbered years; for LLCs in odd-numbered years; for other entities counted from the registration year, from the year after registration',
    ],
    [
      { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 2, day: 15 } },
      'Due the 15th day of the second month after the anniversary month of registration every year, from the first anniversary of registration',
    ],
    [
      { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'same' } },
      'Due on the anniversary of registration every year, from the first anniversary of registration',
    ],
    [
      { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'quarter-end' } },
      'Due the last day of the calendar quarter containing the anniversary month of registration every year, from the first anniversary of registration',
    ],
    [
      { every: '3y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } },
      'Due the last day of the anniversary month of registration, every three years counted from the registration year',
    ],
    [
      { every: '1q', due: { rule: 'quarter_end', offset_months: 1, day: 'last' } },
      'Due April 30, July 31, October 31 and January 31 (the last day of the month after each calendar quarter ends), every quarter from the first quarter ending on or after registration',
    ],
    [
      { every: '1q', due: { rule: 'quarter_end', offset_months: 0, day: 'last' } },
      "Due March 31, June 30, September 30 and December 31 (the last day of each calendar quarter's last month), every quarter from the first quarter ending on or after registration",
    ],
  ])('%j', (schedule, expected) => {
    expect(words(schedule)).toBe(expected);
  });
});
