import { describe, expect, it } from 'vitest';
import type { QuestionDefinition } from '../src/catalog/catalog.schema.js';
import { checkAnswer } from '../src/modules/tasks/task-answers.js';
import { InvalidInputError } from '../src/lib/errors.js';

const question = (fact: string) => ({ id: 'q', fact, answer_type: 'date' }) as unknown as QuestionDefinition;

describe('checkAnswer: dates', () => {
  it('refuses a registration or operations start date more than one year after today, and accepts up to it', () => {
    for (const fact of ['registration_date', 'operations_start_date']) {
      expect(checkAnswer(question(fact), '2027-11-24', '2026-11-24')).toBe('2027-11-24');
      expect(checkAnswer(question(fact), '2020-01-01', '2026-11-24')).toBe('2020-01-01');
      for (const far of ['2027-11-25', '2031-01-01']) {
        expect(() => checkAnswer(question(fact), far, '2026-11-24')).toThrow(InvalidInputError);
        expect(() => checkAnswer(question(fact), far, '2026-11-24')).toThrow(/more than one year in the future/);
      }
    }
  });

  it('a year from February 29 is February 28', () => {
    expect(checkAnswer(question('registration_date'), '2029-02-28', '2028-02-29')).toBe('2029-02-28');
    expect(() => checkAnswer(question('registration_date'), '2029-03-01', '2028-02-29')).toThrow(InvalidInputError);
  });
});
