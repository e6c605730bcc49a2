import type { AutomationField } from '../../catalog/catalog.schema.js';
import { InvalidInputError } from '../../lib/errors.js';
import { isSensitive, MASK } from './contract.js';

export { isSensitive, MASK } from './contract.js';

/** Checks one submitted value against its field definition; returns an error message or the clean value. */
export function checkField(field: AutomationField, raw: string | undefined): { value: unknown } | { error: string } {
  const value = (raw ?? '').trim();
  if (value === '') return field.required ? { error: `${field.label} is required` } : { value: null };
  switch (field.type) {
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? { value } : { error: 'Enter a date' };
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value) ? { value: Number(value) } : { error: 'Enter a number' };
    case 'boolean':
      return value === 'yes' || value === 'no' ? { value: value === 'yes' } : { error: 'Choose yes or no' };
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value) ? { value } : { error: 'Enter an email address like name@example.com' };
    case 'phone':
      return /^\+?[0-9][0-9 ().-]{5,30}$/.test(value) ? { value } : { error: 'Enter a phone number' };
    case 'ssn-last4':
      return /^\d{4}$/.test(value) ? { value } : { error: 'Enter exactly 4 digits' };
    case 'ein':
      return /^\d{2}-?\d{7}$/.test(value)
        ? { value: value.replace(/^(\d{2})-?(\d{7})$/, '$1-$2') }
        : { error: 'Enter the 9-digit EIN, e.g. 12-3456789' };
    default:
      return value.length <= 500 ? { value } : { error: 'Keep this under 500 characters' };
  }
}

/** A JSON value as the form would have sent it: booleans as yes/no, numbers as text; anything else is refused. */
function asFormValue(field: AutomationField, value: unknown): string | undefined | { error: string } {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return field.type === 'boolean' ? (value ? 'yes' : 'no') : { error: 'Enter text, not true or false' };
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return { error: 'Enter a single value' };
}

/**
 * The input of an automation from JSON (`POST /tasks/{id}/automate`, an owner's answer): every field checked
 * against the catalog; unknown names refused. All problems are reported together, one error per field.
 * `partial`: fields left out are not required (an answer changes only what it names).
 */
export function checkInput(
  fields: readonly AutomationField[],
  body: Record<string, unknown>,
  options: { partial?: boolean; extra?: readonly string[] } = {},
) {
  const errors: InvalidInputError[] = [];
  const input: Record<string, unknown> = {};
  const known = new Set([...fields.map((f) => f.name), ...(options.extra ?? [])]);
  for (const field of fields) {
    if (options.partial && !(field.name in body)) continue;
    const raw = asFormValue(field, body[field.name]);
    // Sensitive values are never echoed back in an error.
    const shown = isSensitive(field) ? '[redacted]' : body[field.name];
    const result = typeof raw === 'object' ? raw : checkField(field, raw);
    if ('error' in result) errors.push(new InvalidInputError([field.name], result.error, shown ?? null));
    else input[field.name] = result.value;
  }
  for (const name of Object.keys(body)) {
    if (!known.has(name))
      errors.push(
        new InvalidInputError(
          [name],
          `'${name}' is not a field of this automation; its fields: ${fields.map((f) => f.name).join(', ') || 'none'}`,
          '[not shown]',
        ),
      );
  }
  return { input, errors };
}

/**
 * Splits an input into what is stored in clear and what is sealed. The clear part keeps every name, with the
 * mask in place of a sensitive value, so every view shows the input without opening the vault.
 */
export function splitSensitive(fields: readonly AutomationField[], input: Record<string, unknown>) {
  const sensitive = new Set(fields.filter(isSensitive).map((f) => f.name));
  const clear: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (sensitive.has(name) && value !== null) {
      secret[name] = value;
      clear[name] = MASK;
    } else {
      clear[name] = value;
    }
  }
  return { clear, secret };
}
