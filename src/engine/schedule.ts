import type { Schedule } from '../catalog/catalog.schema.js';
import { addDays, addMonths, dateIn, dayOf, monthOf, yearOf } from './dates.js';
import { describeSchedule } from './describe.js';

/** How a due date was found: every planned date can say which rule produced it and whether it is exact. */
export interface DueDateBasis {
  /** The rule in words, e.g. "Due May 15 every year, from the year after registration". */
  rule: string;
  /** false when a fact the rule needs is unknown and the date is the next occurrence it can determine. */
  exact: boolean;
  /** The fact whose answer makes an estimated date exact (its question is asked); null when exact. */
  pendingFact: ScheduleFact | null;
}

export interface Occurrence {
  /** 'once', or the due date: with the definition and region it identifies a task. */
  periodKey: string;
  periodStartDate: string | null;
  periodEndDate: string | null;
  dueDate: string | null;
  /** null when there is no due date. */
  basis: DueDateBasis | null;
}

export interface ScheduleContext {
  registrationDate: string | null;
  operationsStartDate: string | null;
  /** Month (1-12) in which the fiscal year ends. */
  fiscalYearEndMonth: number;
  /** Occurrences due in [windowStart, windowEnd] are planned. */
  windowStart: string;
  windowEnd: string;
}

export type DateFact = 'registration_date' | 'operations_start_date';
/** Facts a schedule can depend on. */
export type ScheduleFact = DateFact | 'registration_number_digit';

export interface ScheduleResult {
  occurrences: Occurrence[];
  /** Facts without which the due dates cannot be computed exactly (their questions are asked). */
  missing: ScheduleFact[];
}

const baseOf = (fact: DateFact, ctx: ScheduleContext) => (fact === 'registration_date' ? ctx.registrationDate : ctx.operationsStartDate);

/** The due dates of a requirement within the planning window. */
export function occurrences(schedule: Schedule, ctx: ScheduleContext): ScheduleResult {
  const due = schedule.due;
  const basis: DueDateBasis = { rule: describeSchedule(schedule), exact: true, pendingFact: null };
  if (schedule.every === 'once') {
    if (due.rule !== 'within_days') return { occurrences: [{ periodKey: 'once', periodStartDate: null, periodEndDate: null, dueDate: null, basis: null }], missing: [] };
    const base = baseOf(due.of, ctx);
    return {
      occurrences: [{ periodKey: 'once', periodStartDate: null, periodEndDate: null, dueDate: base ? addDays(base, due.days) : null, basis: base ? basis : null }],
      missing: base ? [] : [due.of],
    };
  }

  const base = ctx.registrationDate;
  if (!base) return { occurrences: [], missing: ['registration_date'] };
  const years = schedule.every === '2y' ? 2 : 1;
  const baseYear = yearOf(base);
  const out: Occurrence[] = [];
  for (let year = yearOf(ctx.windowStart) - 2; year <= yearOf(ctx.windowEnd) + 1; year++) {
    let dueDate: string;
    let periodStartDate: string;
    let eligible: boolean;
    if (due.rule === 'fixed') {
      dueDate = dateIn(year, due.month, due.day);
      eligible = schedule.first === 'first-due-date' ? dueDate > base : year >= baseYear + 1;
    } else if (due.rule === 'anniversary') {
      const month = monthOf(base) + due.offset_months;
      dueDate = due.day === 'quarter-end'
        ? dateIn(year, Math.ceil(month / 3) * 3, 'last')
        : dateIn(year, month, due.day === 'same' ? dayOf(base) : due.day);
      eligible = schedule.first === 'first-due-date' ? dueDate > base : year >= baseYear + 1;
    } else if (due.rule === 'fiscal_year_end') {
      // The fiscal year ending in `year`; the first one due is the one in which the entity registered.
      const fiscalYearEnd = dateIn(year, ctx.fiscalYearEndMonth, 'last');
      dueDate = dateIn(year, ctx.fiscalYearEndMonth + due.offset_months, due.day);
      eligible = fiscalYearEnd >= base;
      periodStartDate = addDays(addMonths(fiscalYearEnd, -12), 1);
      if (eligible && inWindow(dueDate, ctx)) out.push({ periodKey: dueDate, periodStartDate, periodEndDate: fiscalYearEnd, dueDate, basis });
      continue;
    } else {
      return { occurrences: [], missing: [] };
    }
    if (years === 2) {
      const parity = schedule.parity ?? (schedule.first === 'next-year' ? 'from-next-year' : 'same-as-registration-year');
      eligible &&= parity === 'odd' ? year % 2 === 1
        : parity === 'even' ? year % 2 === 0
        : parity === 'from-next-year' ? (year - baseYear - 1) % 2 === 0
        : (year - baseYear) % 2 === 0;
    }
    if (!eligible || !inWindow(dueDate, ctx)) continue;
    periodStartDate = addDays(addMonths(dueDate, -12 * years), 1);
    out.push({ periodKey: dueDate, periodStartDate, periodEndDate: dueDate, dueDate, basis });
  }
  return { occurrences: out, missing: [] };
}

const inWindow = (date: string, ctx: ScheduleContext) => date >= ctx.windowStart && date <= ctx.windowEnd;
