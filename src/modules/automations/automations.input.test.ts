import { describe, expect, it } from 'vitest';
import type { AutomationField } from '../../catalog/catalog.schema.js';
import { checkInput, isSensitive, MASK, splitSensitive } from './automations.input.js';

const fields: AutomationField[] = [
  { name: 'officer_name', label: 'Officer', type: 'string', required: true },
  { name: 'officer_ssn_last4', label: 'SSN', type: 'ssn-last4', required: true },
  { name: 'bank_routing_number', label: 'Routing number', type: 'string', required: false },
  { name: 'has_office', label: 'Office', type: 'boolean', required: false },
  { name: 'employees', label: 'Employees', type: 'number', required: false },
];

describe('automation input', () => {
  it('sensitive: SSN digits by type, bank details by name', () => {
    expect(fields.filter(isSensitive).map((f) => f.name)).toEqual(['officer_ssn_last4', 'bank_routing_number']);
    expect(isSensitive({ name: 'account_number', type: 'string' })).toBe(true);
    expect(isSensitive({ name: 'accountant_name', type: 'string' })).toBe(false);
  });

  it('JSON values as the form would send them; every problem reported, sensitive ones redacted', () => {
    expect(checkInput(fields, { officer_name: 'Ada', officer_ssn_last4: '1234', has_office: true, employees: 3 })).toEqual({
      input: { officer_name: 'Ada', officer_ssn_last4: '1234', bank_routing_number: null, has_office: true, employees: 3 },
      errors: [],
    });
    const { errors } = checkInput(fields, { officer_ssn_last4: 12345, has_office: 'maybe', extra: 1 });
    expect(errors.map((e) => [e.path, e.reason, e.input])).toEqual([
      [['officer_name'], 'Officer is required', null],
      [['officer_ssn_last4'], 'Enter exactly 4 digits', '[redacted]'],
      [['has_office'], 'Choose yes or no', 'maybe'],
      [['extra'], expect.stringContaining("'extra' is not a field"), '[not shown]'],
    ]);
    expect(checkInput(fields, { officer_name: { a: 1 } }, { partial: true }).errors[0]!.reason).toBe('Enter a single value');
    expect(checkInput(fields, { employees: 2 }, { partial: true })).toEqual({ input: { employees: 2 }, errors: [] });
  });

  it('splits the sealed part out and leaves the mask in its place', () => {
    expect(splitSensitive(fields, { officer_name: 'Ada', officer_ssn_last4: '1234', bank_routing_number: null })).toEqual({
      clear: { officer_name: 'Ada', officer_ssn_last4: MASK, bank_routing_number: null },
      secret: { officer_ssn_last4: '1234' },
    });
  });
});
