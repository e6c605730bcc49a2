import { Type } from 'typebox';

// The catalog's closed value lists (categories, tags, facts, families) and the string formats its fields share.

export const Id = Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 80 });
export const Url = Type.String({ pattern: '^https://', maxLength: 500 });
/** A date as YYYY-MM-DD. */
export const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const Text = (maxLength = 2000) => Type.String({ minLength: 1, maxLength });

export const Literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as unknown as ReturnType<typeof Type.Unsafe<T[number]>>;

export const TASK_CATEGORIES = ['hr', 'insurance', 'payroll', 'registration', 'registration-maintenance', 'tax', 'sales-tax'] as const;
export const TASK_TAGS = [
  'certificate-of-good-standing', 'charity-registration', 'charity-registration-renewal', 'employee-final-wage-payment',
  'employee-new-hire-reporting', 'employee-onboarding', 'employee-requirement', 'employee-termination', 'exemption',
  'foreign-qualification', 'handbook', 'initial-statement', 'local-business-exemption-setup', 'local-business-setup',
  'local-business-registration-renewal', 'local-payroll-setup', 'local-business-tax-setup', 'newspaper-publication', 'notices',
  'payroll-setup', 'registered-agent', 'sales-tax', 'setup', 'sos-report', 'warn-notice',
] as const;
export const ENTITY_TYPES = ['unset', 'c_corp', 'p_corp', 'pllc', 'llc', 'llp', 'lp', 'gp'] as const;
export const TAX_CLASSES = ['unset', 'corp', 's_corp', 'partnership', 'disregarded', 'tax_exempt'] as const;
export const FACTS = [
  'has_employees', 'has_physical_location', 'employee_count', 'registration_date', 'operations_start_date',
  /** The last digit of the state's registration (business id) number: some biennial reports follow it. */
  'registration_number_digit',
  /** Whether the business has employees or premises in one locality (a city or county of the region's `localities`). */
  'in_locality',
  /** What the business sells (asked once per business): sales taxes and their permits depend on it. */
  'sells_tangible_goods', 'sells_digital_products', 'sells_services',
  /** Whether the business offers its employees a retirement plan (state auto-IRA mandates exempt those that do). */
  'offers_retirement_plan',
  /** Whether the business pays independent contractors for services (information returns). */
  'pays_contractors',
  /** Sales to customers in the region, in US dollars and in number, in the current or previous calendar year (economic nexus). */
  'annual_sales', 'annual_transactions',
] as const;
/** Facts about the whole business, asked once (in its federal anchor region) rather than per region. */
export const BUSINESS_FACTS = ['sells_tangible_goods', 'sells_digital_products', 'sells_services', 'offers_retirement_plan', 'pays_contractors'] as const;
/** What a business sells, as the `sells` criterion names it, and the fact that answers each. */
export const PRODUCT_KINDS = { tangible_goods: 'sells_tangible_goods', digital_products: 'sells_digital_products', services: 'sells_services' } as const;
/** What a requirement is, for coverage checks across the 51 regions. */
export const FAMILIES = [
  'foreign-qualification', 'registered-agent', 'initial-statement', 'publication', 'annual-report', 'franchise-tax-report',
  'withholding', 'unemployment-insurance', 'paid-leave', 'disability-insurance', 'workers-compensation', 'local-payroll-tax',
  'new-hire-reporting', 'sales-tax-permit', 'local-business-tax', 'posters', 'minimum-tax',
  'federal-registration', 'federal-employment-tax', 'federal-income-tax', 'beneficial-ownership', 'other',
  // Issue 24: the obligations realistic businesses were missing.
  'income-tax-return', 'gross-receipts-tax', 'retirement-mandate', 'e-verify', 'employment-eligibility', 'information-return',
] as const;
