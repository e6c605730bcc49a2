import { describe, expect, it } from 'vitest';
import { InvalidInputError, InvalidInputsError } from '../../lib/errors.js';
import type { RequirementSheet } from '../../pages/operator-automation-page.js';
import { checkOutcomeForm, outcomeFormErrors } from './outcome.input.js';

const sheet: RequirementSheet = {
  summary: 'Register with the EDD.',
  agency: { name: 'EDD', website: 'https://edd.ca.gov' },
  resources: [],
  fields: [],
  outputs: {
    account: {
      name: 'Withholding tax account',
      data: [
        { name: 'Account number', required: true },
        { name: 'Filing frequency', required: false },
      ],
    },
    login: true,
    documentTitle: 'Registration confirmation',
    dates: [{ name: 'effective_date', label: 'Effective date' }],
  },
};
const pdf = { fileName: 'c.pdf', bytes: Buffer.from('%PDF-1.4 …') };
const form = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('the outcome form', () => {
  it('needs the identifiers and the PDF; other data, dates and the login are optional', () => {
    expect(checkOutcomeForm(sheet, { text: form({}), document: null })).toEqual({
      errors: { account_data_0: 'Enter the Account number', document: 'Choose the registration confirmation (a PDF)' },
    });
    expect(checkOutcomeForm(sheet, { text: form({ account_data_0: ' 123 ' }), document: pdf })).toEqual({
      outcome: { accountData: [{ name: 'Account number', value: '123' }], document: pdf },
    });
  });

  it('takes a login whole or not at all, real dates only, and a PDF only', () => {
    const checked = checkOutcomeForm(sheet, {
      text: form({ account_data_0: '1', login_username: 'ada', date_effective_date: '2026-02-30' }),
      document: { fileName: 'x.txt', bytes: Buffer.from('hello') },
    });
    expect(checked).toEqual({
      errors: {
        login_password: 'Enter the password too, or neither',
        date_effective_date: 'Enter a real date as YYYY-MM-DD',
        document: 'The file is not a PDF',
      },
    });
    const ok = checkOutcomeForm(sheet, {
      text: form({
        account_data_0: '1',
        account_data_1: 'Quarterly',
        login_username: 'ada',
        login_password: 'pw',
        date_effective_date: '2026-02-28',
      }),
      document: pdf,
    });
    expect(ok).toEqual({
      outcome: {
        accountData: [
          { name: 'Account number', value: '1' },
          { name: 'Filing frequency', value: 'Quarterly' },
        ],
        dates: { effective_date: '2026-02-28' },
        login: { username: 'ada', password: 'pw' },
        document: pdf,
      },
    });
  });

  it("places the service's refusals on the form's fields", () => {
    const outcome = { accountData: [{ name: 'Filing frequency', value: 'x' }] };
    const error = new InvalidInputsError([
      new InvalidInputError(['account_data', 0, 'value'], 'Enter the value', 'x'),
      new InvalidInputError(['account_data', 'Account number'], 'Account number is required', null),
      new InvalidInputError(['dates', 'effective_date'], 'Enter a date as YYYY-MM-DD', 'x'),
      new InvalidInputError(['login', 'password'], 'Enter the password', '[redacted]'),
    ]);
    expect(outcomeFormErrors(sheet, outcome, error)).toEqual({
      account_data_1: 'Enter the value',
      account_data_0: 'Account number is required',
      date_effective_date: 'Enter a date as YYYY-MM-DD',
      login_password: 'Enter the password',
    });
    expect(outcomeFormErrors(sheet, outcome, new InvalidInputError(['document'], 'Attach the PDF', null))).toEqual({
      document: 'Attach the PDF',
    });
  });
});
