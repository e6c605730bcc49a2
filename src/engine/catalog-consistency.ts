import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import type { Schedule } from '../catalog/schedule.schema.js';
import { occurrences } from './schedule.js';
import { lastDayOfMonth } from './dates.js';

/**
 * Checks of the catalog's content that its schema cannot express (scripts/check-catalog.ts runs them in CI):
 * sources that only name an agency's home page, confidence without its evidence, and prose that states a due
 * date other than the one the schedule computes.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ORDINAL_WORDS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
];

/** A source that names only a site (`https://agency.gov`, `…/`, `…/index.html`) rather than the page that states the rule. */
export function isHomePage(url: string): boolean {
  const { pathname, search } = new URL(url);
  return search === '' && /^\/?((index|default|home)\.(html?|aspx?|php|jsp))?$/i.test(pathname);
}

/** The evidence a requirement must carry: one line per problem. */
export function evidenceProblems(definition: RequirementDefinition): string[] {
  const problems: string[] = [];
  if (definition.sources.every(isHomePage)) problems.push('cites only home pages: add the page that states the rule to sources');
  if (definition.confidence === 'uncertain' && !definition.notes)
    problems.push('is uncertain without notes saying what could not be confirmed');
  if (definition.confidence === 'confirmed' && !definition.verification)
    problems.push('is confirmed without a verification entry (url, verified_on, says)');
  for (const [i, entry] of (definition.verification ?? []).entries()) {
    if (Number.isNaN(Date.parse(entry.verified_on))) problems.push(`verification ${i}: verified_on is not a date`);
  }
  return problems;
}

/** A due date stated in prose. */
type Stated =
  | { kind: 'date'; text: string; month: number; day: number | 'last' }
  | { kind: 'after-year-end'; text: string; offsetMonths: number; day: number | 'last' }
  | { kind: 'within'; text: string; days: number }
  /** "the 15th day of the 4th month after registration": `month` counts the month of the date as the first (offset 3). */
  | { kind: 'months-after'; text: string; month: number; day: number | 'last' };

// A sentence about a deadline other than the requirement's own (extensions, payments, returns of the account…) is skipped.
const OTHER_DEADLINE =
  /\b(extensions?|extended|monthly|semi-?monthly|semi-?weekly|weekly|payments?|pay|paid|estimated|deposits?|penalt(y|ies)|late|grace|renewals?|renew(ed)?)\b/i;
const QUARTERLY = /\bquarterly\b/i;
const DUE_WORD = /\b(due|deadline|no later than|on or before|by|before|within)\b/i;
/** A calendar date counts as a stated due date only right after a due word ("by May 15", "due on or before March 1"). */
const DUE_JUST_BEFORE = /\b(due|deadline(?: is| of)?|by|before|no later than|until)\s+(?:(?:on|or|before|the|of|each|every)\s+){0,3}$/i;
const MONTH_DAY = new RegExp(`\\b(${MONTHS.join('|')})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'gi');
const LAST_OF_MONTH = new RegExp(`\\blast day of (${MONTHS.join('|')})\\b`, 'gi');
const DAY = '(?:the\\s+)?(?:(\\d{1,2})(?:st|nd|rd|th)?(?: day)?|last day)';
const MONTH_COUNT = `(\\d{1,2}(?:st|nd|rd|th)?|${ORDINAL_WORDS.join('|')})`;
const AFTER_YEAR_END = new RegExp(
  `${DAY} of the ${MONTH_COUNT} month (?:after|following) the (?:end of the )?(?:close of the )?(?:(?:fiscal|tax(?:able)?|accounting) )?year(?:[- ]end)?`,
  'gi',
);
/** "the 15th day of the fourth month after incorporation or qualification" (a one-time, first-period deadline). */
const MONTHS_AFTER_DATE = new RegExp(
  `${DAY} of the ${MONTH_COUNT} month (?:after|following) (?:the (?:date of )?)?(?:its |the business's |the entity's )?(?:registration|incorporation|qualification|formation|organization)\\b`,
  'gi',
);
/** Sentences about another deadline, for the months-after phrase, which names a deadline by itself (payments included). */
const OTHER_THAN_FIRST_PERIOD = /\b(extensions?|extended|penalt(y|ies)|late|grace)\b/i;
const WITHIN_DAYS = /\bwithin (\d{1,3}) (?:calendar )?days\b/gi;

const monthCount = (text: string) => {
  const word = ORDINAL_WORDS.indexOf(text.toLowerCase());
  return word >= 0 ? word + 1 : Number.parseInt(text, 10);
};

/** The due dates a text states, in its sentences that speak of the requirement's own deadline. */
export function statedDueDates(text: string, schedule: Schedule): Stated[] {
  const out: Stated[] = [];
  for (const sentence of text.replace(/\s+/g, ' ').split(/(?<=[.;:!?])\s+(?=[A-Z(])/)) {
    // The months-after phrase is a deadline by itself: checked without a due word, in sentences about payments too.
    if (!OTHER_THAN_FIRST_PERIOD.test(sentence)) {
      for (const m of sentence.matchAll(MONTHS_AFTER_DATE))
        out.push({ kind: 'months-after', text: m[0], day: m[1] ? Number(m[1]) : 'last', month: monthCount(m[2]!) });
    }
    if (!DUE_WORD.test(sentence) || OTHER_DEADLINE.test(sentence)) continue;
    if (schedule.every !== '1q' && QUARTERLY.test(sentence)) continue;
    // An example ("for example by June 30 for one registered in May") illustrates the rule rather than stating a date.
    const afterDueWord = (m: RegExpMatchArray) => {
      const before = sentence.slice(Math.max(0, m.index! - 40), m.index);
      return DUE_JUST_BEFORE.test(before) && !/\b(for example|e\.g\.|such as|for instance)\b/i.test(before);
    };
    for (const m of sentence.matchAll(MONTH_DAY)) {
      if (afterDueWord(m)) out.push({ kind: 'date', text: m[0], month: MONTHS.indexOf(m[1]!.toLowerCase()) + 1, day: Number(m[2]) });
    }
    for (const m of sentence.matchAll(LAST_OF_MONTH)) {
      if (afterDueWord(m)) out.push({ kind: 'date', text: m[0], month: MONTHS.indexOf(m[1]!.toLowerCase()) + 1, day: 'last' });
    }
    for (const m of sentence.matchAll(AFTER_YEAR_END))
      out.push({ kind: 'after-year-end', text: m[0], day: m[1] ? Number(m[1]) : 'last', offsetMonths: monthCount(m[2]!) });
    for (const m of sentence.matchAll(WITHIN_DAYS)) out.push({ kind: 'within', text: m[0], days: Number(m[1]) });
  }
  return out;
}

/** Sample businesses the schedule is computed for: registered in March 2024 (and, for quarterly rules, every quarter). */
const SAMPLE = {
  registrationDate: '2024-03-10',
  operationsStartDate: '2024-03-10',
  fiscalYearEndMonth: 12,
  windowStart: '2024-01-01',
  windowEnd: '2029-12-31',
};

/** Month and day of every due date the schedule computes for the sample business. */
function computedMonthDays(schedule: Schedule): Set<string> {
  const dates = occurrences(schedule, SAMPLE)
    .occurrences.map((o) => o.dueDate)
    .filter((d): d is string => d !== null);
  return new Set(dates.map((d) => d.slice(5)));
}

const monthDay = (month: number, day: number | 'last') => {
  // 'last' and a stated 28/29 for February both match the last day of the month in any year.
  const d = day === 'last' ? lastDayOfMonth(2025, month) : day;
  return `${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** Due dates the requirement's prose states that its schedule does not compute; one line each. */
export function proseDateProblems(definition: RequirementDefinition): string[] {
  const { schedule } = definition;
  const due = schedule.due;
  const stated = [...statedDueDates(definition.summary, schedule), ...statedDueDates(definition.description, schedule)];
  const problems: string[] = [];
  const computed = schedule.every === 'once' ? null : computedMonthDays(schedule);
  for (const s of stated) {
    if (s.kind === 'within') {
      if (due.rule === 'within_days' && due.days !== s.days) problems.push(`says "${s.text}" but the schedule is within ${due.days} days`);
    } else if (s.kind === 'months-after') {
      if (due.rule !== 'months_after')
        problems.push(
          `says "${s.text}" but the schedule has no months_after rule: give that deadline its own one-time requirement (every: once, due months_after)`,
        );
      else if (due.offset_months + 1 !== s.month || due.day !== s.day) {
        problems.push(
          `says "${s.text}" but the schedule is day ${due.day} of month ${due.offset_months} after the month of the date (month ${due.offset_months + 1} counting that month as the first)`,
        );
      }
    } else if (s.kind === 'after-year-end') {
      if (
        due.rule === 'fiscal_year_end' &&
        (due.offset_months !== s.offsetMonths || (due.day !== s.day && !(due.day === 'last' && s.day === 'last')))
      ) {
        problems.push(`says "${s.text}" but the schedule is day ${due.day} of month ${due.offset_months} after the fiscal year end`);
      }
    } else if (computed && due.rule !== 'anniversary') {
      const md = monthDay(s.month, s.day);
      const february = s.month === 2 && (s.day === 28 || s.day === 29) && computed.has('02-28');
      if (!computed.has(md) && !february)
        problems.push(
          `says "${s.text}" but the schedule computes ${[...computed].sort().slice(0, 4).join(', ')} (month-day) for a business registered ${SAMPLE.registrationDate} with a December year end`,
        );
    } else if (due.rule === 'anniversary') {
      problems.push(`says "${s.text}" but the schedule is counted from the registration anniversary: state the rule, not a calendar date`);
    }
  }
  return [...new Set(problems)];
}
