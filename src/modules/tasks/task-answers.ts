import type { QuestionDefinition } from '../../catalog/catalog.schema.js';
import { toIso } from '../../engine/dates.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { LocationConfigChange } from '../locations/locations.fns.js';

/** Question facts that are a location's configuration: answering one updates the location. */
const LOCATION_FACTS = new Set<string>(['has_employees', 'has_physical_location', 'employee_count']);

/** The location change an answer makes, or null when the question's fact is not a location's. */
export const locationChangeOf = (question: QuestionDefinition, value: unknown): LocationConfigChange | null =>
  LOCATION_FACTS.has(question.fact) ? { [question.fact]: value } : null;

/** An answer must fit the question: a boolean, a non-negative whole number, or a date (YYYY-MM-DD). Input: `{answer}`. */
export function checkAnswer(question: QuestionDefinition, answer: unknown): boolean | number | string {
  const fail = (msg: string) => new InvalidInputError(['answer'], msg, answer);
  switch (question.answer_type) {
    case 'boolean':
      if (typeof answer !== 'boolean') throw fail('this question takes a boolean answer (true or false)');
      return answer;
    case 'number':
      if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer > 10_000_000) {
        throw fail('this question takes a whole number from 0 to 10000000');
      }
      return answer;
    case 'date':
      if (typeof answer !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(answer) || Number.isNaN(Date.parse(`${answer}T00:00:00Z`)) || toIso(new Date(`${answer}T00:00:00Z`)) !== answer) {
        throw fail('this question takes a date (YYYY-MM-DD)');
      }
      return answer;
  }
}
