import { outcomeField, type RequirementSheet } from '../../pages/operator-automation-page.js';
import type { AutomationOutcome } from '../automations/automations.types.js';

/** Longest value of a data attribute, a username or a password (the accounts service's own limits are the same or larger). */
const MAX_VALUE = 200;
const MAX_SECRET = 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export type OutcomeCheck = { outcome: AutomationOutcome } | { errors: Record<string, string> };

const isRealDate = (value: string) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A PDF's first bytes; the mail intake checks the rest (its trailer) when the document is stored. */
export const looksLikePdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * The outcome form (and the operator API's body, in the same terms) checked against the catalog's outputs:
 * every account data attribute and date filled in, a login complete or absent, a PDF. Errors by form field.
 */
export function checkOutcome(sheet: RequirementSheet, input: {
  text: (field: string) => string;
  document: { fileName: string; bytes: Buffer } | null;
}): OutcomeCheck {
  const errors: Record<string, string> = {};
  const outcome: AutomationOutcome = {};
  const account = sheet.outputs.account;
  if (account) {
    outcome.accountData = account.data.map((d, i) => {
      const value = input.text(outcomeField.accountData(i)).trim();
      if (!value) errors[outcomeField.accountData(i)] = `Enter the ${d.name.toLowerCase()}`;
      else if (value.length > MAX_VALUE) errors[outcomeField.accountData(i)] = `At most ${MAX_VALUE} characters`;
      return { name: d.name, value };
    });
  }
  const dates: Record<string, string> = {};
  for (const d of sheet.outputs.dates) {
    const value = input.text(outcomeField.date(d.name)).trim();
    if (!value) errors[outcomeField.date(d.name)] = `Enter the ${d.label.toLowerCase()}`;
    else if (!isRealDate(value)) errors[outcomeField.date(d.name)] = 'Enter a real date as YYYY-MM-DD';
    else dates[d.name] = value;
  }
  if (sheet.outputs.dates.length) outcome.dates = dates;
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
  else if (!looksLikePdf(input.document.bytes)) errors[outcomeField.document] = 'The file is not a PDF';
  else outcome.document = { fileName: input.document.fileName || 'confirmation.pdf', bytes: input.document.bytes };
  return Object.keys(errors).length ? { errors } : { outcome };
}

/** Where a domain error of `complete` (InvalidInputError's path in the outcome) shows on the form. */
export function outcomeFieldOf(sheet: RequirementSheet, path: (string | number)[]): string | null {
  const [head, next] = path;
  if (head === 'accountData' && typeof next === 'number') return outcomeField.accountData(next);
  if (head === 'accountData' && typeof next === 'string') {
    const index = sheet.outputs.account?.data.findIndex((d) => d.name === next) ?? -1;
    return index >= 0 ? outcomeField.accountData(index) : null;
  }
  if (head === 'dates' && typeof next === 'string') return outcomeField.date(next);
  if (head === 'login') return next === 'password' ? outcomeField.password : outcomeField.username;
  if (head === 'document') return outcomeField.document;
  return null;
}
