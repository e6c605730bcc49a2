import { describe, expect, it } from 'vitest';
import { loadHandbookCatalog } from '../../catalog/handbook.js';
import { answersFromForm, choicesFromForm, countsFromForm, employeeFromForm, fieldErrors, typedChoices } from './handbook-forms.js';

const catalog = loadHandbookCatalog();

describe('handbook forms', () => {
  it('counts: a whole number from 1 for each state, read from count_<CODE>', () => {
    expect(countsFromForm({ count_CA: ' 3 ', count_NY: '-1', count_TX: '1.5' }, ['CA', 'NY', 'TX', 'WA'])).toEqual({
      counts: { CA: 3 },
      errors: {
        count_NY: 'Enter a whole number of employees, 1 or more.',
        count_TX: 'Enter a whole number of employees, 1 or more.',
        count_WA: 'Enter a whole number of employees, 1 or more.',
      },
    });
    expect(countsFromForm({ count_CA: '0' }, ['CA']).errors).toEqual({ count_CA: 'Enter a whole number of employees, 1 or more.' });
  });

  it("answers: each question's field read as its type; blank and ill-fitting ones are errors", () => {
    const questions = [...catalog.questions.values()];
    const boolean = questions.find((q) => q.type === 'boolean')!;
    const text = questions.find((q) => q.type === 'text')!;
    const integer = questions.find((q) => q.type === 'integer')!;
    const { answers, errors } = answersFromForm({ [`q_${boolean.id}`]: 'true', [`q_${text.id}`]: '  ', [`q_${integer.id}`]: 'many' }, [
      boolean,
      text,
      integer,
    ]);
    expect(answers).toEqual({ [boolean.id]: true });
    expect(errors).toEqual({ [`q_${text.id}`]: 'Enter an answer.', [`q_${integer.id}`]: expect.stringMatching(/^Enter a whole number/) });
  });

  it('choices: adopt or skip by policy id; anything else is no choice but is shown again as typed', () => {
    const form = { policy_a: 'adopt', policy_b: 'skip', policy_c: 'maybe', name: 'x' };
    expect(choicesFromForm(form)).toEqual({ a: 'adopt', b: 'skip' });
    expect(typedChoices(form)).toEqual({ a: 'adopt', b: 'skip', c: 'maybe' });
  });

  it('employee: trimmed, an empty e-mail is none; the typed values are kept to show again', () => {
    expect(employeeFromForm({ name: ' Dana ', email: ' ' })).toEqual({
      typed: { name: ' Dana ', email: ' ' },
      employee: { name: 'Dana', email: null },
    });
    expect(employeeFromForm({})).toEqual({ typed: { name: '', email: '' }, employee: { name: '', email: null } });
  });

  it("a service's problems land on the fields that name them", () => {
    expect(fieldErrors({ CA: 'too many' }, (code) => `count_${code}`)).toEqual({ count_CA: 'too many' });
  });
});
