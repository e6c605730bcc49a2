import { describe, expect, it } from 'vitest';
import type { Schedule } from '../catalog/schedule.schema.js';
import { occurrences, type ScheduleContext } from './schedule.js';

/**
 * Golden dates, one per schedule kind and per combination with fiscal years and foreign registrations (known and
 * unknown registration date). Every expectation is worked out by hand in the comment next to it.
 * Unless a case says otherwise: onboarded 2026-11-01 (the window start), planned through 2027-11-22, December year end.
 */
const base: ScheduleContext = {
  registrationDate: '2020-06-15',
  operationsStartDate: null,
  fiscalYearEndMonth: 12,
  registrationNumberDigit: null,
  entityType: 'c_corp',
  windowStart: '2026-11-01',
  windowEnd: '2027-11-22',
};
const plan = (schedule: Schedule, over: Partial<ScheduleContext> = {}) => occurrences(schedule, { ...base, ...over });
const dues = (schedule: Schedule, over: Partial<ScheduleContext> = {}) => plan(schedule, over).occurrences.map((o) => o.dueDate);
/** Due date, period key, exact or estimated, and the fact that would make it exact. */
const detail = (schedule: Schedule, over: Partial<ScheduleContext> = {}) =>
  plan(schedule, over).occurrences.map((o) => [o.dueDate, o.periodKey, o.basis?.exact, o.basis?.pendingFact]);
const LONG = { windowStart: '2026-01-01', windowEnd: '2029-12-31' };

describe('golden: within N days', () => {
  it('of a known date; of an unknown one, estimated from onboarding', () => {
    const ninety: Schedule = { every: 'once', due: { rule: 'within_days', of: 'registration_date', days: 90 } };
    // 2026-11-10 + 90 days = 2027-02-08 (20 left in November, 31, 31, 8).
    expect(detail(ninety, { registrationDate: '2026-11-10' })).toEqual([['2027-02-08', 'once', true, null]]);
    // Unknown: 2026-11-01 + 90 = 2027-01-30.
    expect(detail(ninety, { registrationDate: null })).toEqual([['2027-01-30', 'once', false, 'registration_date']]);
    expect(plan(ninety, { registrationDate: null }).missing).toEqual(['registration_date']);
  });
});

describe('golden: the Nth month after a date (months_after)', () => {
  const firstYear: Schedule = { every: 'once', due: { rule: 'months_after', of: 'registration_date', offset_months: 3, day: 15 } };
  it('of a known date: the day of the offset-th month after the month of the date, across a year end', () => {
    // Registered 2027-10-01: October + 3 = January 2028, the 15th ("the 15th day of the 4th month", October the first).
    expect(detail(firstYear, { registrationDate: '2027-10-01' })).toEqual([['2028-01-15', 'once', true, null]]);
    // The day of the month does not matter: registered 2027-10-31 → still 2028-01-15.
    expect(dues(firstYear, { registrationDate: '2027-10-31' })).toEqual(['2028-01-15']);
    // Registered 2027-02-01: February + 3 = May → 2027-05-15.
    expect(dues(firstYear, { registrationDate: '2027-02-01' })).toEqual(['2027-05-15']);
    // 'last' clamps to the month: registered 2027-11-20, offset 3 → February 2028 (a leap year), the 29th.
    expect(
      dues(
        { every: 'once', due: { rule: 'months_after', of: 'registration_date', offset_months: 3, day: 'last' } },
        { registrationDate: '2027-11-20' },
      ),
    ).toEqual(['2028-02-29']);
    // Offset 0: the month of the date itself; of the start of operations (2027-03-10, offset 0, day 31 → 2027-03-31).
    expect(
      detail(
        { every: 'once', due: { rule: 'months_after', of: 'operations_start_date', offset_months: 0, day: 31 } },
        { operationsStartDate: '2027-03-10' },
      ),
    ).toEqual([['2027-03-31', 'once', true, null]]);
    expect(plan(firstYear, { registrationDate: '2027-10-01' }).missing).toEqual([]);
  });
  it('of an unknown date: estimated from onboarding (2026-11-01 → February 15, 2027), the fact still asked', () => {
    expect(detail(firstYear, { registrationDate: null })).toEqual([['2027-02-15', 'once', false, 'registration_date']]);
    expect(plan(firstYear, { registrationDate: null }).missing).toEqual(['registration_date']);
    expect(plan(firstYear, { registrationDate: null }).occurrences[0]!.basis!.rule).toBe(
      'Due the 15th day of the fourth month counting the month of registration as the first (estimated: assumes registration on 2026-11-01, the day the business was onboarded, until the registration date is answered)',
    );
    expect(
      detail(
        { every: 'once', due: { rule: 'months_after', of: 'operations_start_date', offset_months: 1, day: 'last' } },
        { operationsStartDate: null },
      ),
    ).toEqual([['2026-12-31', 'once', false, 'operations_start_date']]);
  });
  it('with the later years on a default fiscal rule (California LLC annual tax): every taxable year once, none before registration', () => {
    const later: Schedule = { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } };
    const all = (over: Partial<ScheduleContext>) => [...dues(firstYear, { ...LONG, ...over }), ...dues(later, { ...LONG, ...over })].sort();
    // Registered 2027-10-01, December year end: first taxable year 2027-10-01…2027-12-31 due 2028-01-15; then April 15 each year.
    expect(all({ registrationDate: '2027-10-01' })).toEqual(['2028-01-15', '2028-04-15', '2029-04-15']);
    // Registered 2027-02-01: 2027-05-15 for 2027, then 2028-04-15 (nothing on 2027-04-15 for a year before it existed).
    expect(all({ registrationDate: '2027-02-01' })).toEqual(['2027-05-15', '2028-04-15', '2029-04-15']);
    // June year end, registered 2027-02-01: first year to 2027-06-30 due 2027-05-15; the next taxable year begins 2027-07-01, due 2027-10-15.
    expect(all({ registrationDate: '2027-02-01', fiscalYearEndMonth: 6 })).toEqual([
      '2027-05-15',
      '2027-10-15',
      '2028-10-15',
      '2029-10-15',
    ]);
  });
});
