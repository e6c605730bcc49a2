import type { CYCLES, Schedule } from '../catalog/schedule.schema.js';
import { addDays, addMonths, dateIn, dayOf, monthOf, yearOf } from './dates.js';
import { describeSchedule } from './describe.js';

/** How a due date was found: every planned date can say which rule produced it and whether it is exact. */
export interface DueDateBasis {
  /** The rule in words, e.g. "Due May 15 every year, from the year after registration"; an estimate adds what it assumed. */
  rule: string;
  /** false when a fact the rule needs is unknown and the date is the next occurrence it can determine. */
  exact: boolean;
  /** The fact whose answer makes an estimated date exact (its question is asked); null when exact. */
  pendingFact: ScheduleFact | null;
}

export interface Occurrence {
  /** 'once', the due date, or (estimated yearly filings) `estimated:<year due>`: with the definition and region it identifies a task. */
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
  /** Last digit (0-9) of the state registration number, when answered (`registration-number-digit` cycles). */
  registrationNumberDigit?: number | null;
  /** The entity type (`parity_by_entity_type`). */
  entityType?: string | null;
  /** Occurrences due in [windowStart, windowEnd] are planned; windowStart (onboarding) is the assumed date of an unknown one. */
  windowStart: string;
  windowEnd: string;
}

export type DateFact = 'registration_date' | 'operations_start_date';
/** Facts a schedule can depend on. */
export type ScheduleFact = DateFact | 'registration_number_digit';

export interface ScheduleResult {
  occurrences: Occurrence[];
  /**
   * The first due date after the window's end (recurring schedules; looked for up to LOOKAHEAD_YEARS past the end's
   * year), null without one: when the window, rolling forward, next gains an occurrence (src/engine/next-replan.ts).
   */
  nextDue: string | null;
  /** Facts without which the due dates cannot be computed exactly (their questions are asked). */
  missing: ScheduleFact[];
}

type Cycle = (typeof CYCLES)[number];

/** How many years past the window's end `nextDue` is looked for: past the longest cycle (3 years). */
export const LOOKAHEAD_YEARS = 4;

/** Period keys of estimated yearly filings: reconciliation matches `estimated:<year>` to the exact filing due that year. */
export const ESTIMATED_PREFIX = 'estimated:';
export const estimatedPeriodKey = (dueDate: string) => `${ESTIMATED_PREFIX}${yearOf(dueDate)}`;

const FACT_WORDS: Record<DateFact, string> = { registration_date: 'registration', operations_start_date: 'the start of operations' };

const baseOf = (fact: DateFact, ctx: ScheduleContext) => (fact === 'registration_date' ? ctx.registrationDate : ctx.operationsStartDate);

/** The cycle a biennial or triennial filing follows for this entity: by entity type first, then `parity`. */
export function cycleOf(schedule: Schedule, entityType: string | null | undefined): Cycle | undefined {
  const byType = schedule.parity_by_entity_type as Partial<Record<string, Cycle>> | undefined;
  return (entityType ? byType?.[entityType] : undefined) ?? schedule.parity;
}

/** The due dates of a requirement within the planning window; estimated from onboarding when a fact is unknown. */
export function occurrences(schedule: Schedule, ctx: ScheduleContext): ScheduleResult {
  const due = schedule.due;
  const rule = describeSchedule(schedule);
  if (schedule.every === 'once') {
    const none: Occurrence = { periodKey: 'once', periodStartDate: null, periodEndDate: null, dueDate: null, basis: null };
    if (due.rule !== 'within_days' && due.rule !== 'months_after') return { occurrences: [none], missing: [], nextDue: null };
    const base = baseOf(due.of, ctx);
    const basis: DueDateBasis = base
      ? { rule, exact: true, pendingFact: null }
      : estimated(rule, `${FACT_WORDS[due.of]} on ${ctx.windowStart}, the day the business was onboarded`, due.of);
    const from = base ?? ctx.windowStart;
    // months_after: the `day` of the `offset_months`-th month after the month of the date (offset 3 from October: January).
    const dueDate = due.rule === 'within_days' ? addDays(from, due.days) : dateIn(yearOf(from), monthOf(from) + due.offset_months, due.day);
    return { occurrences: [{ ...none, dueDate, basis }], missing: base ? [] : [due.of], nextDue: null };
  }

  const registration = ctx.registrationDate ?? ctx.windowStart;
  const cycle = cycleOf(schedule, ctx.entityType);
  const digit = ctx.registrationNumberDigit ?? null;
  const digitPending = cycle === 'registration-number-digit' && digit === null;
  const missing: ScheduleFact[] = [
    ...(ctx.registrationDate ? [] : ['registration_date' as const]),
    ...(digitPending ? ['registration_number_digit' as const] : []),
  ];
  const basis: DueDateBasis = !ctx.registrationDate
    ? estimated(rule, `registration on ${registration}, the day the business was onboarded`, 'registration_date')
    : digitPending
      ? estimated(rule, `the filing years of the registration year's cycle (${yearOf(registration)})`, 'registration_number_digit')
      : { rule, exact: true, pendingFact: null };
  const occurrence = (dueDate: string, periodStartDate: string, periodEndDate: string, quarterly = false): Occurrence => ({
    periodKey: basis.exact || quarterly ? dueDate : estimatedPeriodKey(dueDate),
    periodStartDate,
    periodEndDate,
    dueDate,
    basis,
  });

  const out: Occurrence[] = [];
  const fromYear = yearOf(ctx.windowStart) - 3;
  // Past the window's end only to find the next due date beyond it (no occurrence is made for those years).
  const toYear = yearOf(ctx.windowEnd) + 1 + LOOKAHEAD_YEARS;
  let nextDue: string | null = null;
  const beyond = (dueDate: string) => {
    if (dueDate > ctx.windowEnd && (nextDue === null || dueDate < nextDue)) nextDue = dueDate;
  };
  if (due.rule === 'quarter_end') {
    // Calendar quarters; the first is the one ending on or after registration. The due dates do not depend on it.
    for (let year = fromYear; year <= toYear; year++) {
      for (let quarter = 1; quarter <= 4; quarter++) {
        const quarterEnd = dateIn(year, quarter * 3, 'last');
        const dueDate = dateIn(year, quarter * 3 + due.offset_months, due.day);
        if (quarterEnd < registration) continue;
        if (inWindow(dueDate, ctx)) out.push(occurrence(dueDate, dateIn(year, quarter * 3 - 2, 1), quarterEnd, true));
        else beyond(dueDate);
      }
    }
    return { occurrences: out, missing, nextDue };
  }

  const span = schedule.every === '3y' ? 3 : schedule.every === '2y' ? 2 : 1;
  const registrationYear = yearOf(registration);
  // The year a cycle counts from: the registration year, or the year after it when `first: next-year` sets no other cycle.
  const cycleStart = !cycle && schedule.first === 'next-year' ? registrationYear + 1 : registrationYear;
  const inCycle = (year: number) => {
    if (span === 1) return true;
    // Until the digit is known, a digit cycle is estimated with the registration year's.
    const effective =
      cycle === 'registration-number-digit'
        ? digit === null
          ? 'from-start'
          : 'digit'
        : !cycle || cycle === 'same-as-registration-year'
          ? 'from-start'
          : cycle;
    switch (effective) {
      case 'odd':
        return year % 2 === 1;
      case 'even':
        return year % 2 === 0;
      case 'opposite-of-registration-year':
        return (year - registrationYear) % 2 !== 0;
      case 'from-start':
        return (year - cycleStart) % span === 0;
      case 'digit':
        return year % 2 === digit! % 2;
    }
  };

  for (let year = fromYear; year <= toYear; year++) {
    let dueDate: string;
    let periodStartDate: string;
    let periodEndDate: string;
    let filingYear: number;
    let eligible: boolean;
    if (due.rule === 'fiscal_year_end') {
      // The fiscal year ending in `year`. By default the first is the one ending on or after registration. A cycle
      // counts the year the fiscal year ends (New Mexico: "even-numbered taxable year ends", 12.3.2.9 NMAC).
      const fiscalYearEnd = dateIn(year, ctx.fiscalYearEndMonth, 'last');
      dueDate = dateIn(year, ctx.fiscalYearEndMonth + due.offset_months, due.day);
      filingYear = year;
      eligible =
        schedule.first === 'first-due-date'
          ? dueDate > registration
          : fiscalYearEnd >= registration && (schedule.first !== 'next-year' || yearOf(dueDate) > registrationYear);
      periodStartDate = addDays(addMonths(fiscalYearEnd, -12), 1);
      periodEndDate = fiscalYearEnd;
    } else {
      if (due.rule === 'fixed') {
        dueDate = dateIn(year, due.month, due.day);
      } else if (due.rule === 'anniversary') {
        // The anniversary falling in `year` (its due date may cross into the next or previous year with an offset).
        const month = monthOf(registration) + due.offset_months;
        dueDate =
          due.day === 'quarter-end'
            ? dateIn(year, Math.ceil(month / 3) * 3, 'last')
            : dateIn(year, month, due.day === 'same' ? dayOf(registration) : due.day);
      } else {
        return { occurrences: [], missing: [], nextDue: null };
      }
      filingYear = year;
      eligible = schedule.first === 'first-due-date' ? dueDate > registration : year >= registrationYear + 1;
      periodStartDate = addDays(addMonths(dueDate, -12 * span), 1);
      periodEndDate = dueDate;
    }
    if (!eligible || !inCycle(filingYear)) continue;
    if (inWindow(dueDate, ctx)) out.push(occurrence(dueDate, periodStartDate, periodEndDate));
    else beyond(dueDate);
  }
  return { occurrences: out, missing, nextDue };
}

/** An estimated basis: the rule, what it assumed, and the fact whose answer makes it exact. */
function estimated(rule: string, assumption: string, fact: ScheduleFact): DueDateBasis {
  return {
    rule: `${rule} (estimated: assumes ${assumption}, until the ${FACT_QUESTION[fact]} is answered)`,
    exact: false,
    pendingFact: fact,
  };
}

const FACT_QUESTION: Record<ScheduleFact, string> = {
  registration_date: 'registration date',
  operations_start_date: 'operations start date',
  registration_number_digit: "registration number's last digit",
};

const inWindow = (date: string, ctx: ScheduleContext) => date >= ctx.windowStart && date <= ctx.windowEnd;
