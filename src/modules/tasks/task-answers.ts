import type { QuestionDefinition } from '../../catalog/catalog.schema.js';
import { addMonths, toIso } from '../../engine/dates.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { LocationConfigChange } from '../locations/contract.js';

/** Question facts that are a location's configuration: answering one updates the location. */
const LOCATION_FACTS = new Set<string>(['has_employees', 'has_physical_location', 'employee_count']);

/** The location change an answer makes, or null when the question's fact is not a location's. */
export const locationChangeOf = (question: QuestionDefinition, value: unknown): LocationConfigChange | null =>
  LOCATION_FACTS.has(question.fact) ? { [question.fact]: value } : null;

/**
 * Date facts that happened or are planned soon (a registration, the start of operations): an answer further ahead
 * than this is a typo (2031 for 2021), and it would push the due dates counted from it years out.
 */
const NEAR_DATE_FACTS = new Set<string>(['registration_date', 'operations_start_date']);
export const FUTURE_DATE_MESSAGE =
  'this date is more than one year in the future: enter the date the business registered or started (or plans to, within a year)';

/** Number facts whose answers run past the default 10 000 000: a business's sales into a state, in dollars and in number. */
const NUMBER_LIMITS: Record<string, number> = { annual_sales: 1_000_000_000_000, annual_transactions: 1_000_000_000 };

/**
 * An answer must fit the question: a boolean, a non-negative whole number, or a date (YYYY-MM-DD), at most one
 * year after `today` for the registration and operations start dates. Input: `{answer}`.
 */
export function checkAnswer(question: QuestionDefinition, answer: unknown, today: string): boolean | number | string {
  const fail = (msg: string) => new InvalidInputError(['answer'], msg, answer);
  switch (question.answer_type) {
    case 'boolean':
      if (typeof answer !== 'boolean') throw fail('this question takes a boolean answer (true or false)');
      return answer;
    case 'number': {
      const max = NUMBER_LIMITS[question.fact] ?? 10_000_000;
      if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer > max) {
        throw fail(`this question takes a whole number from 0 to ${max}`);
      }
      return answer;
    }
    case 'date':
      if (
        typeof answer !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}$/.test(answer) ||
        Number.isNaN(Date.parse(`${answer}T00:00:00Z`)) ||
        toIso(new Date(`${answer}T00:00:00Z`)) !== answer
      ) {
        throw fail('this question takes a date (YYYY-MM-DD)');
      }
      if (NEAR_DATE_FACTS.has(question.fact) && answer > addMonths(today, 12)) throw fail(FUTURE_DATE_MESSAGE);
      return answer;
  }
}
