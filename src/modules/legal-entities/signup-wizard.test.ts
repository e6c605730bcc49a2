import { describe, expect, it } from 'vitest';
import type { LegalEntityRow } from '../../db/schema.js';
import { prefilledSteps, resumeStep, startStep, validateStep } from './signup-wizard.js';

/** An inactive entity as a platform's hosted signup session leaves it: a name and the owner's email. */
function entity(overrides: Partial<LegalEntityRow> = {}): LegalEntityRow {
  return {
    id: 'le_1',
    platform_id: 'pl_1',
    status: 'inactive',
    business_name: 'Rose & Thorn Florists',
    user_email: 'rose@example.com',
    entity_type: null,
    tax_classification: null,
    incorporation_region: null,
    incorporation_date: null,
    ein: null,
    llc_managed_type: null,
    business_purpose: null,
    business_phone: null,
    business_email: null,
    business_address: null,
    mailing_address: null,
    naics_code: null,
    accounting_method: null,
    accounting_period: null,
    accounting_year_end: null,
    futa_liability_year: null,
    external_company_id: null,
    authorization_callback_url: null,
    payroll_connected_at: null,
    last_payroll_update: null,
    activated_at: null,
    signup_step: null,
    signup_confirmed_steps: [],
    created_at: new Date(),
    updated_at: new Date(),
    ...overrides,
  } as LegalEntityRow;
}
const complete = {
  entity_type: 'llc',
  tax_classification: 'disregarded',
  incorporation_region: 'OR',
  incorporation_date: '2021-04-09',
} as const;

describe('resumeStep and startStep', () => {
  it('an owner who has not started sees the introduction', () => {
    expect(resumeStep(entity())).toBe('welcome');
    expect(resumeStep(entity(complete))).toBe('welcome');
  });

  it('Start leads to the first step with required details missing, else to the review', () => {
    expect(startStep(entity())).toBe('business');
    expect(startStep(entity(complete))).toBe('review');
  });

  it('a returning owner resumes at the first incomplete step, else where they left', () => {
    expect(resumeStep(entity({ signup_step: 'review' }))).toBe('business');
    expect(resumeStep(entity({ ...complete, signup_step: 'accounting', signup_confirmed_steps: ['business', 'contact'] }))).toBe(
      'accounting',
    );
  });
});

describe('prefilledSteps', () => {
  it('lists, per step not saved by the owner, the fields the platform gave (the address once, its default country never)', () => {
    const address = {
      id: null,
      address_line_1: '1 Main St',
      address_line_2: null,
      city: 'Portland',
      state: 'OR',
      country: 'US',
      postal_code: '97201',
    };
    expect(prefilledSteps(entity({ ...complete, business_address: address, naics_code: '453110' }))).toEqual({
      business: ['business_name', 'entity_type', 'tax_classification', 'incorporation_location', 'incorporation_date'],
      contact: ['user_email', 'business_address'],
      accounting: ['naics_code'],
    });
  });

  it('leaves out the steps the owner saved and the steps with nothing in them', () => {
    expect(prefilledSteps(entity({ signup_confirmed_steps: ['business'] }))).toEqual({ contact: ['user_email'] });
  });
});

describe('validateStep: the phone', () => {
  const contact = { user_email: 'rose@example.com' };

  it('stores E.164 whatever the format typed', () => {
    expect(validateStep('contact', { ...contact, business_phone: '(415) 555-0134' })).toMatchObject({
      ok: true,
      profile: { business_phone: '+14155550134' },
    });
  });

  it('a blank phone clears the stored one', () => {
    expect(validateStep('contact', { ...contact, business_phone: ' ' })).toMatchObject({ ok: true, profile: { business_phone: null } });
  });

  it('an invalid phone is an error on the field, alongside the others, in the order of the form', () => {
    const result = validateStep('contact', { user_email: 'rose@', business_phone: '555-0134' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors)).toEqual(['user_email', 'business_phone']);
    expect(result.errors.business_phone).toBe('Enter the full number with its area code, e.g. (415) 555-0134');
  });
});

describe('validateStep: the formation date against the app clock', () => {
  const form = { business_name: 'Rose', entity_type: 'llc', tax_classification: 'disregarded', incorporation_location: 'OR' };
  it('today is accepted, tomorrow is not', () => {
    const today = new Date('2026-03-10T12:00:00Z');
    expect(validateStep('business', { ...form, incorporation_date: '2026-03-10' }, today).ok).toBe(true);
    expect(validateStep('business', { ...form, incorporation_date: '2026-03-11' }, today)).toMatchObject({
      ok: false,
      errors: { incorporation_date: 'The date of incorporation or formation cannot be in the future' },
    });
  });
});
