import type { AutomationDefinition } from '../../catalog/catalog.schema.js';
import { InvalidInputError, InvalidInputsError } from '../../lib/errors.js';
import type { AutomationOutcome } from './contract.js';

const MAX_VALUE = 200;
const MAX_SECRET = 500;
const isDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
const text = (value: unknown, max: number) => typeof value === 'string' && value.trim() !== '' && value.length <= max;

/**
 * An operator's record of what the agency did, checked against what the catalog says the filing produces:
 * every identifier of the agency account (account numbers) is required, other data optional; names must be
 * the catalog's; the confirmation PDF is required; dates are YYYY-MM-DD (absent ones default to today).
 * Paths name the facts in snake case (`account_data`, `login`, `document`, `dates`).
 */
export function checkOutcome(automation: AutomationDefinition, outcome: AutomationOutcome): AutomationOutcome {
  const errors: InvalidInputError[] = [];
  const spec = automation.outputs.agency_account?.data ?? [];
  const given = outcome.accountData ?? [];
  given.forEach((d, i) => {
    if (!spec.some((s) => s.name === d.name)) {
      errors.push(
        new InvalidInputError(
          ['account_data', i, 'name'],
          `Not a data attribute of this account; expected one of: ${spec.map((s) => s.name).join(', ') || 'none'}`,
          d.name,
        ),
      );
    } else if (!text(d.value, MAX_VALUE)) {
      errors.push(new InvalidInputError(['account_data', i, 'value'], `Enter the value (at most ${MAX_VALUE} characters)`, d.value));
    }
  });
  for (const s of spec) {
    if (s.kind === 'identifier' && !given.some((d) => d.name === s.name && text(d.value, MAX_VALUE))) {
      errors.push(new InvalidInputError(['account_data', s.name], `${s.name} is required`, null));
    }
  }
  if (outcome.login) {
    if (!text(outcome.login.username, MAX_SECRET))
      errors.push(new InvalidInputError(['login', 'username'], 'Enter the username', '[redacted]'));
    if (!text(outcome.login.password, MAX_SECRET))
      errors.push(new InvalidInputError(['login', 'password'], 'Enter the password', '[redacted]'));
  }
  const bytes = outcome.document?.bytes;
  if (!bytes || bytes.length < 5 || bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
    errors.push(new InvalidInputError(['document'], `Attach the ${automation.outputs.document.title.toLowerCase()} as a PDF`, null));
  }
  for (const [name, value] of Object.entries(outcome.dates ?? {})) {
    if (!automation.outputs.dates.some((d) => d.name === name))
      errors.push(new InvalidInputError(['dates', name], 'Not a date this filing establishes', value));
    else if (!isDate(value)) errors.push(new InvalidInputError(['dates', name], 'Enter a date as YYYY-MM-DD', value));
  }
  if (errors.length > 0) throw new InvalidInputsError(errors);
  return outcome;
}
