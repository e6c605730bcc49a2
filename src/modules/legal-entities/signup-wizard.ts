import { Type, type TSchema } from 'typebox';
import type { LegalEntityRow } from '../../db/schema.js';
import { compile, type ValidationIssue } from '../../http/validation/validator.js';
import type { EntityProfile } from './legal-entities.fns.js';
import { AddressSchema, EmbeddedSignupRequestSchema } from './legal-entities.schemas.js';
import { ENTITY_TYPE_LABELS, FORM_STEPS, STEPS, type FormStep, type Step } from '../../pages/signup-options.js';
import { REGIONS } from '../../catalog/regions.js';
import { formatPhone, normalisePhone } from '../../lib/phone-number.js';

const p = EmbeddedSignupRequestSchema.properties;
const optional = (schema: TSchema) => Type.Optional(schema);

/** Each step validates with the same field schemas as the API (POST /accounts/signup). */
const STEP_SCHEMAS: Record<FormStep, TSchema> = {
  business: Type.Object({
    business_name: p.business_name,
    entity_type: p.entity_type,
    tax_classification: p.tax_classification,
    llc_managed_type: optional(p.llc_managed_type),
    incorporation_location: p.incorporation_location,
    incorporation_date: p.incorporation_date,
    ein: optional(p.ein),
  }),
  contact: Type.Object({
    user_email: p.user_email,
    business_email: optional(p.business_email),
    // Read by libphonenumber-js after the schema (readPhone): people type (415) 555-0134, which the API's pattern refuses.
    business_phone: optional(Type.String({ maxLength: 40 })),
    business_address: optional(AddressSchema),
  }),
  accounting: Type.Object({
    naics_code: optional(p.naics_code),
    accounting_method: optional(p.accounting_method),
    accounting_period: optional(p.accounting_period),
    accounting_year_end: optional(p.accounting_year_end),
    futa_liability_year: optional(p.futa_liability_year),
  }),
};

const ADDRESS_FIELDS = ['address_line_1', 'address_line_2', 'city', 'state', 'postal_code', 'country'] as const;

/** Form values → the body the schema validates: blank optional fields are left out, addresses grouped. */
function toInput(step: FormStep, form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const schema = STEP_SCHEMAS[step] as unknown as { properties: Record<string, unknown> };
  for (const name of Object.keys(schema.properties)) {
    if (name === 'business_address') {
      const address = Object.fromEntries(
        ADDRESS_FIELDS.map((f) => [f, (form[`business_address.${f}`] ?? '').trim()]).filter(([, v]) => v !== ''),
      );
      // The country is prefilled (US): an address is given when anything else is.
      if (Object.keys(address).some((k) => k !== 'country')) out.business_address = address;
      continue;
    }
    const value = (form[name] ?? '').trim();
    if (value !== '') out[name] = value;
  }
  return out;
}

const FRIENDLY: Record<string, string> = {
  enum: 'Choose one of the options',
  string_pattern_mismatch: 'This does not look right',
};

/** What to do when a required field is empty, naming the field (the API's "missing" says only that it is). */
const REQUIRED: Record<string, string> = {
  business_name: 'Enter the business name',
  entity_type: 'Choose the entity type',
  tax_classification: 'Choose the tax classification',
  incorporation_location: 'Choose the state of incorporation or formation',
  incorporation_date: 'Enter the date of incorporation or formation',
  user_email: 'Enter your email',
  'business_address.address_line_1': 'Enter the street address',
  'business_address.city': 'Enter the city',
  'business_address.state': 'Choose the state',
  'business_address.postal_code': 'Enter the ZIP code',
  'business_address.country': 'Choose the country',
};

/** Pattern errors that say what is expected. */
const EXPECTED: Record<string, string> = {
  ein: 'Enter the 9-digit EIN, e.g. 12-3456789',
  naics_code: 'A NAICS code has 2 to 6 digits',
  futa_liability_year: 'Enter a four-digit year, like 2024',
};

/** Field name (dotted for the address) → a message for people. */
function fieldErrors(issues: ValidationIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const name = issue.loc.slice(1).join('.');
    const friendly =
      issue.type === 'missing'
        ? (REQUIRED[name] ?? 'Enter this detail')
        : issue.type === 'string_pattern_mismatch' && EXPECTED[name]
          ? EXPECTED[name]
          : issue.type === 'value_error'
            ? issue.msg.replace(/^value is not a valid email address: /, 'Enter a valid email address. ')
            : (FRIENDLY[issue.type] ?? issue.msg.replace(/^Input should be a valid date or datetime, .*/, 'Enter a valid date'));
    out[name] ??= friendly;
  }
  return out;
}

const LLCS = ['llc', 'pllc'];
const CORPS = ['c_corp', 'p_corp'];
/** Tax classifications that cannot be true of every entity type; 'unset' (not sure yet) is never a contradiction. */
const TAX_RULES: Record<string, { types: string[]; message: string }> = {
  disregarded: { types: LLCS, message: 'Only an LLC or PLLC can be a disregarded entity' },
  s_corp: { types: [...CORPS, ...LLCS], message: 'Only a corporation or an LLC can elect S corporation status' },
  partnership: { types: [...LLCS, 'llp', 'lp', 'gp'], message: 'Only an LLC, PLLC or partnership can be taxed as a partnership' },
  corp: { types: [...CORPS, ...LLCS], message: 'Only a corporation, or an LLC that elected it, can be taxed as a C corporation' },
};
const US_COUNTRY = /^(us|usa|u\.s\.a?\.?|united states( of america)?)$/i;
const EARLIEST_FORMATION = '1800-01-01';

/**
 * The hosted signup's own checks beyond the API's field schemas (docs/decisions/0041-hosted-signup-for-new-owners.md): a real formation
 * date, a profile
 * that can be true, a US address. The API keeps accepting what it always did; these only guide the owner.
 */
function hostedChecks(value: Record<string, unknown>, today: Date, errors: Record<string, string>): void {
  const date = value.incorporation_date;
  if (typeof date === 'string' && !errors.incorporation_date) {
    if (date > today.toISOString().slice(0, 10))
      errors.incorporation_date = 'The date of incorporation or formation cannot be in the future';
    else if (date < EARLIEST_FORMATION) errors.incorporation_date = 'Enter a date from 1 January 1800 onwards';
  }
  const type = value.entity_type as string | undefined;
  if (type && type !== 'unset') {
    const of = ` (the entity type is ${ENTITY_TYPE_LABELS[type as keyof typeof ENTITY_TYPE_LABELS] ?? type})`;
    const rule = TAX_RULES[value.tax_classification as string];
    if (rule && !rule.types.includes(type) && !errors.tax_classification) errors.tax_classification = rule.message + of;
    if (value.llc_managed_type && !LLCS.includes(type) && !errors.llc_managed_type)
      errors.llc_managed_type = `Only an LLC or PLLC has LLC management: leave it blank${of}`;
  }
  const address = value.business_address as Record<string, string> | undefined;
  if (address) {
    // Stored as the API's own examples store them: the two-letter state code and country "US".
    const state = REGIONS.find((r) => r.code === address.state?.toUpperCase() || r.name.toLowerCase() === address.state?.toLowerCase());
    if (state) address.state = state.code;
    else if (address.state) errors['business_address.state'] = 'Choose the state';
    if (address.postal_code && !/^\d{5}(-\d{4})?$/.test(address.postal_code))
      errors['business_address.postal_code'] = 'Enter a 5-digit ZIP code, like 78701, or ZIP+4, like 78701-1234';
    if (address.country && US_COUNTRY.test(address.country)) address.country = 'US';
    else if (address.country) errors['business_address.country'] = 'Only addresses in the United States can be given';
  }
}

export type StepResult =
  { ok: true; profile: Partial<EntityProfile> } | { ok: false; errors: Record<string, string>; values: Record<string, string> };

/** The names of a step's form fields, in the order the form shows them (the address's parts dotted). */
export function stepFieldNames(step: FormStep): string[] {
  const schema = STEP_SCHEMAS[step] as unknown as { properties: Record<string, unknown> };
  return Object.keys(schema.properties).flatMap((name) =>
    name === 'business_address' ? ADDRESS_FIELDS.map((f) => `business_address.${f}`) : [name],
  );
}

/** Errors in the order of the form's fields, so the summary at the top reads like the form. */
function inFormOrder(step: FormStep, errors: Record<string, string>): Record<string, string> {
  const order = [...stepFieldNames(step), 'business_address'];
  const rank = (name: string) => (order.indexOf(name) === -1 ? order.length : order.indexOf(name));
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b)));
}

/** Validates one step's form like the API would (the phone with libphonenumber-js) and returns the profile fields to store. */
export function validateStep(step: FormStep, form: Record<string, string>, today: Date = new Date()): StepResult {
  const issues: ValidationIssue[] = [];
  const input = toInput(step, form);
  const value = compile(STEP_SCHEMAS[step] as never)(input, ['body'], issues) as Record<string, unknown>;
  const errors = fieldErrors(issues);
  hostedChecks(value, today, errors);
  const phone = typeof input.business_phone === 'string' && !errors.business_phone ? normalisePhone(input.business_phone) : null;
  if (phone && !phone.ok) errors.business_phone = phone.message;
  if (Object.keys(errors).length > 0) return { ok: false, errors: inFormOrder(step, errors), values: form };
  const profile: Record<string, unknown> = { ...value, ...(phone?.ok && { business_phone: phone.e164 }) };
  if ('incorporation_location' in profile) {
    profile.incorporation_region = profile.incorporation_location;
    delete profile.incorporation_location;
  }
  if (typeof profile.ein === 'string') profile.ein = profile.ein.replace(/^(\d{2})-?(\d{7})$/, '$1-$2');
  if (profile.business_address) profile.business_address = { id: null, address_line_2: null, ...(profile.business_address as object) };
  // Optional fields left blank are cleared, so a user can remove what the platform prefilled.
  const schema = STEP_SCHEMAS[step] as unknown as { properties: Record<string, unknown> };
  for (const name of Object.keys(schema.properties)) {
    const key = name === 'incorporation_location' ? 'incorporation_region' : name;
    if (!(key in profile)) profile[key] = null;
  }
  return { ok: true, profile: profile as Partial<EntityProfile> };
}

/** The stored entity as form values (to prefill every step). */
export function formValues(entity: LegalEntityRow): Record<string, string> {
  const v = (x: unknown) => (x === null || x === undefined ? '' : String(x));
  const address = entity.business_address;
  return {
    business_name: v(entity.business_name),
    entity_type: v(entity.entity_type),
    tax_classification: v(entity.tax_classification),
    llc_managed_type: v(entity.llc_managed_type),
    incorporation_location: v(entity.incorporation_region),
    incorporation_date: v(entity.incorporation_date),
    ein: v(entity.ein),
    user_email: v(entity.user_email),
    business_email: v(entity.business_email),
    business_phone: entity.business_phone ? formatPhone(entity.business_phone) : '',
    // The form offers only the United States; an API-given "USA" shows as it.
    ...Object.fromEntries(
      ADDRESS_FIELDS.map((f) => [
        `business_address.${f}`,
        f === 'country' && (!address || US_COUNTRY.test(address.country)) ? 'US' : v(address?.[f]),
      ]),
    ),
    naics_code: v(entity.naics_code),
    accounting_method: v(entity.accounting_method),
    accounting_period: v(entity.accounting_period),
    accounting_year_end: v(entity.accounting_year_end),
    futa_liability_year: v(entity.futa_liability_year),
  };
}

/** The first required step whose required details are not all stored, if any. */
export function firstIncompleteStep(entity: LegalEntityRow, today?: Date): 'business' | 'contact' | null {
  for (const step of ['business', 'contact'] as const) {
    if (!validateStep(step, formValues(entity), today).ok) return step;
  }
  return null;
}

/** Where the owner lands: the introduction before they started, else the first incomplete step, else where they left. */
export function resumeStep(entity: LegalEntityRow): Step | 'welcome' {
  if (entity.signup_step === null && entity.signup_confirmed_steps.length === 0) return 'welcome';
  const incomplete = firstIncompleteStep(entity);
  if (incomplete) return incomplete;
  const stored = entity.signup_step as Step | null;
  return stored && STEPS.includes(stored) ? stored : 'accounting';
}

/** Where the introduction's Start leads: the first step the owner must fill in, or the review when the platform gave it all. */
export const startStep = (entity: LegalEntityRow): Step => firstIncompleteStep(entity) ?? 'review';

/**
 * The steps the platform filled in and the owner has not saved yet, each with the fields given. The pages say so, so that
 * the owner checks them (docs/hosted-pages.md); the address and the default country count as one field.
 */
export function prefilledSteps(entity: LegalEntityRow): Partial<Record<FormStep, string[]>> {
  const values = formValues(entity);
  const out: Partial<Record<FormStep, string[]>> = {};
  for (const step of FORM_STEPS) {
    if (entity.signup_confirmed_steps.includes(step)) continue;
    const filled = stepFieldNames(step).filter((name) => values[name] !== '' && name !== 'business_address.country');
    const names = [...new Set(filled.map((name) => (name.startsWith('business_address.') ? 'business_address' : name)))];
    if (names.length > 0) out[step] = names;
  }
  return out;
}

/** The steps confirmed once the owner saves `step`. */
export const confirmedWith = (entity: LegalEntityRow, step: FormStep): string[] => [...new Set([...entity.signup_confirmed_steps, step])];

export const nextStep = (step: Step): Step => STEPS[Math.min(STEPS.indexOf(step) + 1, STEPS.length - 1)]!;
export const previousStep = (step: Step): Step | 'welcome' => (STEPS.indexOf(step) > 0 ? STEPS[STEPS.indexOf(step) - 1]! : 'welcome');
