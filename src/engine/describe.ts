import type { Schedule } from '../catalog/catalog.schema.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];
const FACT_NAMES = { registration_date: 'registration', operations_start_date: 'the start of operations' } as const;

const nth = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const dayText = (day: number | 'last') => (day === 'last' ? 'the last day' : `the ${nth(day)} day`);

/** The words of a due rule, without its recurrence. */
function dueText(schedule: Schedule): string {
  const due = schedule.due;
  switch (due.rule) {
    case 'none': return due.note ? `No fixed due date (${due.note.replace(/\.$/, '')})` : 'No fixed due date';
    case 'within_days': return `Due within ${due.days} days of ${FACT_NAMES[due.of]}`;
    case 'fixed': return `Due ${MONTHS[due.month - 1]} ${due.day === 'last' ? 'the last day' : due.day}`;
    case 'anniversary': {
      const month = due.offset_months === 0 ? 'the anniversary month of registration'
        : `the ${ORDINALS[Math.abs(due.offset_months)]} month ${due.offset_months > 0 ? 'after' : 'before'} the anniversary month of registration`;
      if (due.day === 'same') return due.offset_months === 0 ? 'Due on the anniversary of registration' : `Due on the registration day of ${month}`;
      if (due.day === 'quarter-end') return `Due the last day of the calendar quarter containing ${month}`;
      return `Due ${dayText(due.day)} of ${month}`;
    }
    case 'fiscal_year_end':
      return due.offset_months === 0 ? `Due ${dayText(due.day)} of the month the fiscal year ends`
        : `Due ${dayText(due.day)} of the ${ORDINALS[due.offset_months]} month after the fiscal year ends`;
    case 'quarter_end':
      return due.offset_months === 0 ? `Due ${dayText(due.day)} of each quarter's last month`
        : `Due ${dayText(due.day)} of the ${ORDINALS[due.offset_months]} month after each calendar quarter ends`;
  }
}

/** A schedule in words, e.g. "Due May 15, every year from the year after registration". */
export function describeSchedule(schedule: Schedule): string {
  const due = dueText(schedule);
  if (schedule.every === 'once') return due;
  if (schedule.every === '1q') return `${due}, every quarter`;
  const first = schedule.first === 'first-due-date' ? 'from the first due date after registration' : 'from the year after registration';
  if (schedule.every === '1y') return `${due}, every year ${first}`;
  const span = schedule.every === '2y' ? 'two' : 'three';
  const cycle = schedule.parity === 'odd' ? 'in odd-numbered years'
    : schedule.parity === 'even' ? 'in even-numbered years'
    : schedule.parity === 'opposite-of-registration-year' ? 'in the years of the opposite parity to the registration year'
    : schedule.parity === 'registration-number-digit' ? 'in odd or even years as the last digit of the state registration number is odd or even'
    : schedule.first === 'next-year' && !schedule.parity ? 'from the year after registration'
    : `counted from the registration year`;
  return `${due}, every ${span} years ${cycle}`;
}
