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

describe('golden: fixed date every year', () => {
  const april15: Schedule = { every: '1y', due: { rule: 'fixed', month: 4, day: 15 } };

  it('home state, registered years ago: every April 15 in the window', () => {
    // Window 2026-11-01..2027-11-22 holds one April 15: 2027-04-15.
    expect(detail(april15)).toEqual([['2027-04-15', '2027-04-15', true, null]]);
  });

  it('foreign state, registration known: from the year after registration; first-due-date: the first one after it', () => {
    // Registered 2026-03-02: next-year (default) skips 2026 → 2027-04-15, 2028-04-15 (window 2026-01-01..2029-12-31: also 2029).
    expect(dues(april15, { ...LONG, registrationDate: '2026-03-02' })).toEqual(['2027-04-15', '2028-04-15', '2029-04-15']);
    // first-due-date: 2026-04-15 is the first April 15 after 2026-03-02.
    expect(dues({ ...april15, first: 'first-due-date' }, { ...LONG, registrationDate: '2026-03-02' })).toEqual([
      '2026-04-15',
      '2027-04-15',
      '2028-04-15',
      '2029-04-15',
    ]);
  });

  it('foreign state, registration unknown: estimated from onboarding (2026-11-01), the fact still asked', () => {
    // Assumed registered 2026-11-01 → first in 2027: 2027-04-15, keyed by its filing year.
    const result = plan(april15, { registrationDate: null });
    expect(result.missing).toEqual(['registration_date']);
    expect(result.occurrences.map((o) => [o.dueDate, o.periodKey, o.basis?.exact, o.basis?.pendingFact])).toEqual([
      ['2027-04-15', 'estimated:2027', false, 'registration_date'],
    ]);
    expect(result.occurrences[0]!.basis!.rule).toBe(
      'Due April 15 every year, from the year after registration (estimated: assumes registration on 2026-11-01, the day the business was onboarded, until the registration date is answered)',
    );
  });

  it('the last day of February follows leap years', () => {
    // 2028 is a leap year: 2027-02-28, 2028-02-29.
    expect(
      dues({ every: '1y', due: { rule: 'fixed', month: 2, day: 'last' } }, { windowStart: '2027-01-01', windowEnd: '2028-12-31' }),
    ).toEqual(['2027-02-28', '2028-02-29']);
  });
});

describe('golden: anniversary month', () => {
  it('last day, first day, same day, quarter end, month before (Illinois), month after across a year end', () => {
    const reg = { registrationDate: '2020-06-15' };
    // June anniversary: 2027-06-30 / 2027-06-01 / 2027-06-15 / quarter Apr-Jun ends 2027-06-30.
    expect(dues({ every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } }, reg)).toEqual([
      '2027-06-30',
    ]);
    expect(dues({ every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 1 } }, reg)).toEqual([
      '2027-06-01',
    ]);
    expect(dues({ every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'same' } }, reg)).toEqual([
      '2027-06-15',
    ]);
    expect(
      dues(
        { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'quarter-end' } },
        { registrationDate: '2020-05-03' },
      ),
    ).toEqual(['2027-06-30']);
    // The month before a June anniversary: May 31.
    expect(
      dues({ every: '1y', first: 'next-year', due: { rule: 'anniversary', of: 'registration_date', offset_months: -1, day: 'last' } }, reg),
    ).toEqual(['2027-05-31']);
    // Registered 2019-12-03, due the 15th of the month after: January 15 (2027-01-15 in the window).
    expect(
      dues(
        { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 1, day: 15 } },
        { registrationDate: '2019-12-03' },
      ),
    ).toEqual(['2027-01-15']);
  });

  it('foreign registration known and unknown: the first anniversary after registration, or one estimated from onboarding', () => {
    const endOfMonth: Schedule = { every: '1y', due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' } };
    // Registered 2026-02-10 (foreign): first anniversary month February 2027 → 2027-02-28.
    expect(detail(endOfMonth, { registrationDate: '2026-02-10' })).toEqual([['2027-02-28', '2027-02-28', true, null]]);
    // Unknown: assumed 2026-11-01 → first anniversary 2027-11-30, beyond 2027-11-22; a longer window shows it estimated.
    expect(detail(endOfMonth, { registrationDate: null })).toEqual([]);
    expect(detail(endOfMonth, { registrationDate: null, windowEnd: '2027-12-31' })).toEqual([
      ['2027-11-30', 'estimated:2027', false, 'registration_date'],
    ]);
  });
});

describe('golden: months after the fiscal year end', () => {
  const fourthMonth15th: Schedule = { every: '1y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } };
  const june = { fiscalYearEndMonth: 6, windowStart: '2026-05-10', windowEnd: '2027-12-31' };

  it('default: the first fiscal year ending on or after registration (a tax return)', () => {
    // Incorporated 2026-05-10, June year end: fiscal year 2025-07-01..2026-06-30 is the first → due 2026-10-15.
    const result = plan(fourthMonth15th, { ...june, registrationDate: '2026-05-10' }).occurrences;
    expect(result.map((o) => [o.periodStartDate, o.periodEndDate, o.dueDate])).toEqual([
      ['2025-07-01', '2026-06-30', '2026-10-15'],
      ['2026-07-01', '2027-06-30', '2027-10-15'],
    ]);
  });

  it('first: next-year: the first due date in a calendar year after the registration year', () => {
    // Incorporated 2026-05-10, June year end: 2026-10-15 is in the registration year → first 2027-10-15.
    expect(dues({ ...fourthMonth15th, first: 'next-year' }, { ...june, registrationDate: '2026-05-10' })).toEqual(['2027-10-15']);
    // December year end: the first year (ending 2026-12-31) is already due in 2027 → 2027-04-15, no change.
    expect(dues({ ...fourthMonth15th, first: 'next-year' }, { ...june, fiscalYearEndMonth: 12, registrationDate: '2026-05-10' })).toEqual([
      '2027-04-15',
    ]);
  });

  it('first: first-due-date: the first due date after registration, even for a fiscal year that ended before it', () => {
    // Registered 2026-09-01, June year end: default skips the year ending 2026-06-30 → 2027-10-15;
    // first-due-date takes 2026-10-15 (after 2026-09-01).
    expect(dues(fourthMonth15th, { ...june, registrationDate: '2026-09-01' })).toEqual(['2027-10-15']);
    expect(dues({ ...fourthMonth15th, first: 'first-due-date' }, { ...june, registrationDate: '2026-09-01' })).toEqual([
      '2026-10-15',
      '2027-10-15',
    ]);
  });

  it('foreign registration unknown: estimated from onboarding', () => {
    // Assumed registered 2026-11-01, June year end: first year ending on or after it is 2027-06-30 → 2027-10-15.
    expect(detail(fourthMonth15th, { registrationDate: null, fiscalYearEndMonth: 6 })).toEqual([
      ['2027-10-15', 'estimated:2027', false, 'registration_date'],
    ]);
    // December year end: the year ending 2026-12-31 → 2027-04-15.
    expect(detail(fourthMonth15th, { registrationDate: null })).toEqual([['2027-04-15', 'estimated:2027', false, 'registration_date']]);
    // first: next-year, June year end: the year ending 2027-06-30 is the first (due 2027-10-15, after 2026) → the same date.
    expect(detail({ ...fourthMonth15th, first: 'next-year' }, { registrationDate: null, fiscalYearEndMonth: 6 })).toEqual([
      ['2027-10-15', 'estimated:2027', false, 'registration_date'],
    ]);
  });

  it('biennial and triennial on fiscal years: the cycle counts the year the fiscal year ends', () => {
    const biennial = (over: Partial<Schedule>): Schedule => ({
      every: '2y',
      due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 },
      ...over,
    });
    // Fiscal years ending in even years: 2026 → due 2027-04-15, 2028 → 2029-04-15 (not every year — the check the old engine skipped).
    expect(dues(biennial({ parity: 'even' }), { ...LONG, registrationDate: '2020-03-01' })).toEqual(['2027-04-15', '2029-04-15']);
    // Registration year's cycle, registered 2021: fiscal years ending 2021 + 2k → 2025 (due 2026-04-15), 2027 (due 2028-04-15).
    expect(dues(biennial({}), { ...LONG, registrationDate: '2021-03-01' })).toEqual(['2026-04-15', '2028-04-15']);
    // Triennial, registered 2020: fiscal years ending 2023, 2026, 2029 → due 2027-04-15 in the window.
    expect(
      dues({ every: '3y', due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 } }, { ...LONG, registrationDate: '2020-03-01' }),
    ).toEqual(['2027-04-15']);
    // Unknown foreign registration, even years: assumed 2026-11-01 → fiscal years 2026 (due 2027-04-15) and 2028 (due 2029-04-15).
    expect(detail(biennial({ parity: 'even' }), { registrationDate: null, windowEnd: '2029-12-31' })).toEqual([
      ['2027-04-15', 'estimated:2027', false, 'registration_date'],
      ['2029-04-15', 'estimated:2029', false, 'registration_date'],
    ]);
  });

  it('by the registration number digit (New Mexico): exact once known, estimated with the registration year until then', () => {
    const byDigit: Schedule = {
      every: '2y',
      parity: 'registration-number-digit',
      due: { rule: 'fiscal_year_end', offset_months: 4, day: 15 },
    };
    // Digit 7 (odd): fiscal years ending 2025 and 2027 → due 2026-04-15, 2028-04-15.
    expect(detail(byDigit, { ...LONG, registrationDate: '2020-03-01', registrationNumberDigit: 7 })).toEqual([
      ['2026-04-15', '2026-04-15', true, null],
      ['2028-04-15', '2028-04-15', true, null],
    ]);
    // Digit 4 (even): fiscal years ending 2026 and 2028 → due 2027-04-15, 2029-04-15.
    expect(dues(byDigit, { ...LONG, registrationDate: '2020-03-01', registrationNumberDigit: 4 })).toEqual(['2027-04-15', '2029-04-15']);
    // Unknown: registered 2020 (even) → the even fiscal years, estimated, the digit asked.
    const unknown = plan(byDigit, { ...LONG, registrationDate: '2020-03-01' });
    expect(unknown.missing).toEqual(['registration_number_digit']);
    expect(unknown.occurrences.map((o) => [o.dueDate, o.periodKey, o.basis?.exact, o.basis?.pendingFact])).toEqual([
      ['2027-04-15', 'estimated:2027', false, 'registration_number_digit'],
      ['2029-04-15', 'estimated:2029', false, 'registration_number_digit'],
    ]);
    // Neither known: both asked, the registration date named. Assumed registered 2026-11-01 (even year): fiscal years
    // ending 2026 and 2028 → due 2027-04-15, 2029-04-15.
    const neither = plan(byDigit, { ...LONG, windowStart: '2026-11-01', registrationDate: null });
    expect(neither.missing).toEqual(['registration_date', 'registration_number_digit']);
    expect(neither.occurrences.map((o) => [o.dueDate, o.basis?.pendingFact])).toEqual([
      ['2027-04-15', 'registration_date'],
      ['2029-04-15', 'registration_date'],
    ]);
  });
});

describe('golden: biennial and triennial cycles on a fixed date', () => {
  const april15 = (over: Partial<Schedule>): Schedule => ({ every: '2y', due: { rule: 'fixed', month: 4, day: 15 }, ...over });
  const reg2021 = { ...LONG, registrationDate: '2021-06-01' };

  it('registration year (default): 2021 + 2k from 2023 → 2027, 2029', () => {
    expect(dues(april15({}), reg2021)).toEqual(['2027-04-15', '2029-04-15']);
    expect(dues(april15({ parity: 'same-as-registration-year' }), reg2021)).toEqual(['2027-04-15', '2029-04-15']);
  });

  it('first: next-year without a cycle: every two years from 2022 → 2026, 2028', () => {
    expect(dues(april15({ first: 'next-year' }), reg2021)).toEqual(['2026-04-15', '2028-04-15']);
  });

  it('opposite of the registration year (District of Columbia): registered 2021 (odd) → even years 2026, 2028', () => {
    expect(dues(april15({ parity: 'opposite-of-registration-year' }), reg2021)).toEqual(['2026-04-15', '2028-04-15']);
    // With first: next-year the first is 2022, the same years.
    expect(dues(april15({ parity: 'opposite-of-registration-year', first: 'next-year' }), reg2021)).toEqual(['2026-04-15', '2028-04-15']);
    // Registered 2026-03-01 (even): odd years from 2027 → 2027, 2029.
    expect(dues(april15({ parity: 'opposite-of-registration-year' }), { ...LONG, registrationDate: '2026-03-01' })).toEqual([
      '2027-04-15',
      '2029-04-15',
    ]);
  });

  it('odd and even calendar years', () => {
    expect(dues(april15({ parity: 'odd' }), reg2021)).toEqual(['2027-04-15', '2029-04-15']);
    expect(dues(april15({ parity: 'even' }), reg2021)).toEqual(['2026-04-15', '2028-04-15']);
  });

  it('by the registration number digit: even digit → even years; unknown → the registration year (2021: odd), estimated', () => {
    expect(detail(april15({ parity: 'registration-number-digit' }), { ...reg2021, registrationNumberDigit: 0 })).toEqual([
      ['2026-04-15', '2026-04-15', true, null],
      ['2028-04-15', '2028-04-15', true, null],
    ]);
    expect(detail(april15({ parity: 'registration-number-digit' }), reg2021)).toEqual([
      ['2027-04-15', 'estimated:2027', false, 'registration_number_digit'],
      ['2029-04-15', 'estimated:2029', false, 'registration_number_digit'],
    ]);
  });

  it('by entity type: corporations even, LLCs odd, other types by `parity` (or the registration year)', () => {
    const byType = april15({ parity_by_entity_type: { c_corp: 'even', llc: 'odd' } });
    expect(dues(byType, { ...reg2021, entityType: 'c_corp' })).toEqual(['2026-04-15', '2028-04-15']);
    expect(dues(byType, { ...reg2021, entityType: 'llc' })).toEqual(['2027-04-15', '2029-04-15']);
    // A limited partnership registered 2021: the registration year's cycle → 2027, 2029; with parity: even → 2026, 2028.
    expect(dues(byType, { ...reg2021, entityType: 'lp' })).toEqual(['2027-04-15', '2029-04-15']);
    expect(dues({ ...byType, parity: 'even' }, { ...reg2021, entityType: 'lp' })).toEqual(['2026-04-15', '2028-04-15']);
  });

  it('triennial, foreign registration unknown: assumed 2026-11-01 → 2029 (2026 + 3), estimated', () => {
    expect(
      detail({ every: '3y', due: { rule: 'fixed', month: 4, day: 15 } }, { ...LONG, windowStart: '2026-11-01', registrationDate: null }),
    ).toEqual([['2029-04-15', 'estimated:2029', false, 'registration_date']]);
  });

  it('triennial: registered 2020 → 2023, 2026, 2029; from the year after (2021) → 2024, 2027', () => {
    expect(dues({ every: '3y', due: { rule: 'fixed', month: 4, day: 15 } }, { ...LONG, registrationDate: '2020-06-01' })).toEqual([
      '2026-04-15',
      '2029-04-15',
    ]);
    expect(
      dues({ every: '3y', first: 'next-year', due: { rule: 'fixed', month: 4, day: 15 } }, { ...LONG, registrationDate: '2020-06-01' }),
    ).toEqual(['2027-04-15']);
  });

  it('biennial on the anniversary (registration year cycle), known and unknown foreign registration', () => {
    const anniversary: Schedule = {
      every: '2y',
      parity: 'same-as-registration-year',
      due: { rule: 'anniversary', of: 'registration_date', offset_months: 0, day: 'last' },
    };
    // Registered 2021-06-15: June 30 of 2023, 2025, 2027, 2029.
    expect(dues(anniversary, reg2021)).toEqual(['2027-06-30', '2029-06-30']);
    // Unknown: assumed 2026-11-01 → 2028-11-30, estimated.
    expect(detail(anniversary, { ...LONG, windowStart: '2026-11-01', registrationDate: null })).toEqual([
      ['2028-11-30', 'estimated:2028', false, 'registration_date'],
    ]);
  });
});

describe('golden: quarterly (Form 941: the last day of the month after each quarter)', () => {
  const quarterly: Schedule = { every: '1q', due: { rule: 'quarter_end', offset_months: 1, day: 'last' } };

  it('every calendar quarter due in the window, the period being the quarter', () => {
    // Window 2026-11-01..2027-11-22: Q4 2026 → 2027-01-31, Q1 → 04-30, Q2 → 07-31, Q3 → 10-31 (Q3 2026's 2026-10-31 is before it).
    expect(plan(quarterly).occurrences.map((o) => [o.periodStartDate, o.periodEndDate, o.dueDate, o.periodKey])).toEqual([
      ['2026-10-01', '2026-12-31', '2027-01-31', '2027-01-31'],
      ['2027-01-01', '2027-03-31', '2027-04-30', '2027-04-30'],
      ['2027-04-01', '2027-06-30', '2027-07-31', '2027-07-31'],
      ['2027-07-01', '2027-09-30', '2027-10-31', '2027-10-31'],
    ]);
  });

  it('a registration after onboarding: from the first quarter ending on or after it; unknown: estimated from onboarding', () => {
    // Registered 2027-02-10: the first quarter ending on or after it is Q1 2027 → 2027-04-30, 07-31, 10-31.
    expect(dues(quarterly, { registrationDate: '2027-02-10' })).toEqual(['2027-04-30', '2027-07-31', '2027-10-31']);
    // Unknown: from onboarding's quarter (Q4 2026); the dates are the calendar's, so they keep their own keys.
    expect(detail(quarterly, { registrationDate: null })).toEqual([
      ['2027-01-31', '2027-01-31', false, 'registration_date'],
      ['2027-04-30', '2027-04-30', false, 'registration_date'],
      ['2027-07-31', '2027-07-31', false, 'registration_date'],
      ['2027-10-31', '2027-10-31', false, 'registration_date'],
    ]);
  });

  it("the 15th of the second month after the quarter; the quarter's last day", () => {
    // Q3 2026 → 2026-11-15 (after the 2026-11-01 start), Q4 → 2027-02-15, Q1 → 05-15, Q2 → 08-15, Q3 → 11-15 (before 11-22).
    expect(dues({ every: '1q', due: { rule: 'quarter_end', offset_months: 2, day: 15 } })).toEqual([
      '2026-11-15',
      '2027-02-15',
      '2027-05-15',
      '2027-08-15',
      '2027-11-15',
    ]);
    // Quarter ends: 2026-12-31, 2027-03-31, 06-30, 09-30.
    expect(dues({ every: '1q', due: { rule: 'quarter_end', offset_months: 0, day: 'last' } })).toEqual([
      '2026-12-31',
      '2027-03-31',
      '2027-06-30',
      '2027-09-30',
    ]);
  });
});
