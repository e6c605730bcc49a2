// The builder's HTML forms read into the services' inputs, and the services' problems put back on the forms'
// fields. Reading checks what a form can get wrong (not a number, not one of the options); the services check
// the rest again, whoever calls them.
import type { HandbookQuestion } from '../../catalog/handbook.schema.js';
import type { HandbookAnswer, PolicyChoice } from '../../db/schema.js';
import { countProblem, missingAnswerProblem } from './handbook-drafts.service.js';
import { answerProblem, parseAnswer } from './handbook.fns.js';
import type { EmployeeInput, Problems } from './handbook.types.js';

/** Field name → message, for a form shown again with what was typed. */
export type FormErrors = Record<string, string>;

export const countField = (regionCode: string) => `count_${regionCode}`;
export const answerField = (questionId: string) => `q_${questionId}`;
const CHOICE_PREFIX = 'policy_';
export const choiceField = (policyId: string) => `${CHOICE_PREFIX}${policyId}`;

/** A service's problems on the fields that name them. */
export const fieldErrors = (problems: Problems, field: (key: string) => string): FormErrors =>
  Object.fromEntries(Object.entries(problems).map(([key, message]) => [field(key), message]));

/** Step 1: the count of each of these states (`count_<CODE>`), a whole number. */
export function countsFromForm(form: Record<string, string>, regionCodes: readonly string[]) {
  const counts: Record<string, number> = {};
  const errors: FormErrors = {};
  for (const code of regionCodes) {
    const raw = (form[countField(code)] ?? '').trim();
    const count = /^\d{1,7}$/.test(raw) ? Number(raw) : undefined;
    const problem = countProblem(count);
    if (problem) errors[countField(code)] = problem;
    else counts[code] = count!;
  }
  return { counts, errors };
}

/** Step 2: an answer to each of these questions (`q_<id>`), read as the question's type. */
export function answersFromForm(form: Record<string, string>, questions: readonly HandbookQuestion[]) {
  const answers: Record<string, HandbookAnswer> = {};
  const errors: FormErrors = {};
  for (const question of questions) {
    const value = parseAnswer(question, form[answerField(question.id)]);
    if (value === undefined) errors[answerField(question.id)] = missingAnswerProblem(question);
    else if (value === null) errors[answerField(question.id)] = answerProblem(question);
    else answers[question.id] = value;
  }
  return { answers, errors };
}

/** Step 3: the options as typed (`policy_<id>`), by policy id, to show the form again. */
export const typedChoices = (form: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([field]) => field.startsWith(CHOICE_PREFIX))
      .map(([field, value]) => [field.slice(CHOICE_PREFIX.length), value]),
  );

/** Step 3: the policies adopted or skipped (any other value is no choice). */
export const choicesFromForm = (form: Record<string, string>): Record<string, PolicyChoice> =>
  Object.fromEntries(
    Object.entries(typedChoices(form)).filter((entry): entry is [string, PolicyChoice] => entry[1] === 'adopt' || entry[1] === 'skip'),
  );

/** Step 4: an employee's `name` and `email`, as typed (to show again) and as the service takes them. */
export function employeeFromForm(form: Record<string, string>): { typed: { name: string; email: string }; employee: EmployeeInput } {
  const typed = { name: form.name ?? '', email: form.email ?? '' };
  return { typed, employee: { name: typed.name.trim(), email: typed.email.trim() || null } };
}
