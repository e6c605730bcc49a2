import type { CYCLES, Schedule } from '../catalog/schedule.schema.js';
import { dateIn } from './dates.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];
const FACT_NAMES = { registration_date: 'registration', operations_start_date: 'the start of operations' } as const;
const SPANS = { '2y': 'two', '3y': 'three' } as const;
const ENTITY_TYPE_NAMES: Record<string, string> = {
  unset: 'entities of no stated type',
  c_corp: 'corporations',
  p_corp: 'professional corporations',
  pllc: 'PLLCs',
  llc: 'LLCs',
  llp: 'LLPs',
  lp: 'limited partnerships',
  gp: 'general partnerships',
};

const nth = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const dayText = (day: number | 'last') => (day === 'last' ? 'the last day' : `the ${nth(day)} day`);
/** "April 30": a month (may run past December into January) and day in words; 'last' as a year without a leap day prints it. */
const monthDay = (month: number, day: number | 'last') => {
  const m = ((month - 1) % 12) + 1;
  return `${MONTHS[m - 1]} ${day === 'last' ? Number(dateIn(2025, m, 'last').slice(8, 10)) : day}`;
};

/** The words of a due rule, without its recurrence. */
function dueText(schedule: Schedule): string {
  const due = schedule.due;
  switch (due.rule) {
    case 'none':
      return due.note ? `No fixed due date (${due.note.replace(/\.$/, '')})` : 'No fixed due date';
    case 'within_days':
      return `Due within ${due.days} days of ${FACT_NAMES[due.of]}`;
    // "the 15th day of the fourth month after registration" counts the registration month as the first: offset 3.
    case 'months_after':
      return due.offset_months === 0
        ? `Due ${dayText(due.day)} of the month of ${FACT_NAMES[due.of]}`
        : `Due ${dayText(due.day)} of the ${ORDINALS[due.offset_months + 1] ?? nth(due.offset_months + 1)} month counting the month of ${FACT_NAMES[due.of]} as the first`;
    case 'fixed':
      return due.day === 'last' && due.month === 2 ? 'Due the last day of February' : `Due ${monthDay(due.month, due.day)}`;
    case 'anniversary': {
      const month =
        due.offset_months === 0
          ? 'the anniversary month of registration'
          : `the ${Math.abs(due.offset_months) === 1 ? '' : `${ORDINALS[Math.abs(due.offset_months)]} `}month ${due.offset_months > 0 ? 'after' : 'before'} the anniversary month of registration`;
      if (due.day === 'same')
        return due.offset_months === 0 ? 'Due on the anniversary of registration' : `Due on the registration day of ${month}`;
      if (due.day === 'quarter-end') return `Due the last day of the calendar quarter containing ${month}`;
      return `Due ${dayText(due.day)} of ${month}`;
    }
    case 'fiscal_year_end':
      return due.offset_months === 0
        ? `Due ${dayText(due.day)} of the month the fiscal year ends`
        : `Due ${dayText(due.day)} of the ${ORDINALS[due.offset_months]} month after the fiscal year ends`;
    case 'quarter_end': {
      // The four dates a compliance calendar shows, e.g. "April 30, July 31, October 31 and January 31".
      const dates = [3, 6, 9, 12].map((end) => monthDay(end + due.offset_months, due.day));
      const words =
        due.offset_months === 0
          ? `${dayText(due.day)} of each calendar quarter's last month`
          : `${dayText(due.day)} of the ${due.offset_months === 1 ? '' : `${ORDINALS[due.offset_months]} `}month after each calendar quarter ends`;
      return `Due ${dates.slice(0, 3).join(', ')} and ${dates[3]} (${words})`;
    }
  }
}

/** When the first filing falls, in words ("from the year after registration"). */
function firstText(schedule: Schedule): string {
  if (schedule.every === '1q') return 'from the first quarter ending on or after registration';
  if (schedule.first === 'first-due-date') return 'from the first due date after registration';
  if (schedule.due.rule === 'fiscal_year_end') {
    return schedule.first === 'next-year'
      ? 'from the first fiscal year ending on or after registration whose due date falls after the registration year'
      : 'from the first fiscal year ending on or after registration';
  }
  return schedule.due.rule === 'anniversary' ? 'from the first anniversary of registration' : 'from the year after registration';
}

/** Which years of a two- or three-year cycle, in words ("in even-numbered years"); fiscal-year rules count the year the fiscal year ends. */
function cycleText(cycle: (typeof CYCLES)[number] | undefined, schedule: Schedule): string {
  const years = schedule.due.rule === 'fiscal_year_end' ? 'for fiscal years ending in' : 'in';
  switch (cycle) {
    case 'odd':
      return `${years} odd-numbered years`;
    case 'even':
      return `${years} even-numbered years`;
    case 'opposite-of-registration-year':
      return `${years} the years the registration year's cycle skips (odd-numbered years if registered in an even year, even-numbered if in an odd one)`;
    case 'registration-number-digit':
      return `${years} even-numbered years if the last digit of the state registration number is even, odd-numbered years if it is odd`;
    default:
      return !cycle && schedule.first === 'next-year' ? 'counted from the year after registration' : 'counted from the registration year';
  }
}

/**
 * A schedule in words, as a compliance calendar would put it, e.g. "Due April 15 every year, from the year after
 * registration"; "Due the 15th day of the fourth month after the fiscal year ends, every two years in even-numbered years".
 */
export function describeSchedule(schedule: Schedule): string {
  const due = dueText(schedule);
  if (schedule.every === 'once') return due;
  if (schedule.every === '1q') return `${due}, every quarter ${firstText(schedule)}`;
  if (schedule.every === '1y') return `${due} every year, ${firstText(schedule)}`;
  const span = `every ${SPANS[schedule.every]} years`;
  const byType = Object.entries(schedule.parity_by_entity_type ?? {});
  const cycle =
    byType.length === 0
      ? cycleText(schedule.parity, schedule)
      : `${byType.map(([type, c]) => `for ${ENTITY_TYPE_NAMES[type] ?? type} ${cycleText(c, schedule)}`).join('; ')}; for other entities ${cycleText(schedule.parity, schedule)}`;
  // A cycle counted from registration says when it starts; a calendar cycle says which filing is the first.
  const counted = byType.length === 0 && (!schedule.parity || schedule.parity === 'same-as-registration-year');
  return counted && schedule.due.rule !== 'fiscal_year_end' && schedule.first !== 'first-due-date'
    ? `${due}, ${span} ${cycle}`
    : `${due}, ${span} ${cycle}, ${firstText(schedule)}`;
}
