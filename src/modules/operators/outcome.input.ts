import { outcomeField, type RequirementSheet } from '../../pages/operator-automation-page.js';
import type { AutomationOutcome } from '../automations/contract.js';
import { InvalidInputError, InvalidInputsError } from '../../lib/errors.js';

/** The automations service's own limits (automation-outcome.ts): the form says so before the service would. */
const MAX_VALUE = 200;
const MAX_SECRET = 500;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export type OutcomeCheck = { outcome: AutomationOutcome } | { errors: Record<string, string> };

const isRealDate = (value: string) =>
  ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/**
 * The outcome form checked against the catalog's outputs, by the service's rules: identifiers (account
 * numbers) required, other data optional, dates optional (the service takes today), a login complete or
 * absent, a PDF. Errors by form field, so each shows next to its field.
 */
export function checkOutcomeForm(
  sheet: RequirementSheet,
  input: {
    text: (field: string) => string;
    document: { fileName: string; bytes: Buffer } | null;
  },
): OutcomeCheck {
  const errors: Record<string, string> = {};
  const outcome: AutomationOutcome = {};
  const accountData: { name: string; value: string }[] = [];
  (sheet.outputs.account?.data ?? []).forEach((d, i) => {
    const field = outcomeField.accountData(i);
    const value = input.text(field).trim();
    if (!value && d.required) errors[field] = `Enter the ${d.name}`;
    else if (value.length > MAX_VALUE) errors[field] = `At most ${MAX_VALUE} characters`;
    else if (value) accountData.push({ name: d.name, value });
  });
  if (accountData.length) outcome.accountData = accountData;
  const dates: Record<string, string> = {};
  for (const d of sheet.outputs.dates) {
    const value = input.text(outcomeField.date(d.name)).trim();
    if (value && !isRealDate(value)) errors[outcomeField.date(d.name)] = 'Enter a real date as YYYY-MM-DD';
    else if (value) dates[d.name] = value;
  }
  if (Object.keys(dates).length) outcome.dates = dates;
  if (sheet.outputs.login) {
    const username = input.text(outcomeField.username).trim();
    const password = input.text(outcomeField.password);
    if (username && !password) errors[outcomeField.password] = 'Enter the password too, or neither';
    else if (!username && password) errors[outcomeField.username] = 'Enter the username too, or neither';
    else if (username.length > MAX_SECRET) errors[outcomeField.username] = `At most ${MAX_SECRET} characters`;
    else if (password.length > MAX_SECRET) errors[outcomeField.password] = `At most ${MAX_SECRET} characters`;
    else if (username) outcome.login = { username, password };
  }
  if (!input.document) errors[outcomeField.document] = `Choose the ${sheet.outputs.documentTitle.toLowerCase()} (a PDF)`;
  else if (input.document.bytes.subarray(0, 5).toString('latin1') !== '%PDF-') errors[outcomeField.document] = 'The file is not a PDF';
  else outcome.document = { fileName: input.document.fileName || 'confirmation.pdf', bytes: input.document.bytes };
  return Object.keys(errors).length ? { errors } : { outcome };
}

/** The service's refusals of `complete` (paths in the outcome, snake case) placed on the form's fields. */
export function outcomeFormErrors(
  sheet: RequirementSheet,
  outcome: AutomationOutcome,
  error: InvalidInputError | InvalidInputsError,
): Record<string, string> {
  const fieldOf = ([head, next]: (string | number)[]): string => {
    const spec = sheet.outputs.account?.data ?? [];
    const name = typeof next === 'number' ? outcome.accountData?.[next]?.name : next;
    if (head === 'account_data') {
      const index = spec.findIndex((d) => d.name === name);
      return index >= 0 ? outcomeField.accountData(index) : outcomeField.document;
    }
    if (head === 'dates' && typeof next === 'string') return outcomeField.date(next);
    if (head === 'login') return next === 'password' ? outcomeField.password : outcomeField.username;
    return outcomeField.document;
  };
  const errors = error instanceof InvalidInputsError ? error.errors : [error];
  return Object.fromEntries(errors.map((e) => [fieldOf(e.path), e.reason]));
}
