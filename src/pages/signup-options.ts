// The hosted signup's steps and the choices its pages offer, with their labels: used by the pages
// (signup-pages.ts) and by the wizard's logic (modules/legal-entities/signup-wizard.ts).
import { REGIONS } from '../catalog/regions.js';
import { ACCOUNTING_METHODS, ACCOUNTING_PERIODS, ENTITY_TYPES, LLC_MANAGED_TYPES, MONTH_NAMES, TAX_CLASSES } from '../lib/entity-values.js';

/** The hosted signup's steps, in order; `review` submits. */
export const STEPS = ['business', 'contact', 'accounting', 'review'] as const;
export type Step = (typeof STEPS)[number];
/** The steps with a form; `review` only shows and confirms. */
export const FORM_STEPS = ['business', 'contact', 'accounting'] as const;
export type FormStep = (typeof FORM_STEPS)[number];

export const ENTITY_TYPE_LABELS: Record<(typeof ENTITY_TYPES)[number], string> = {
  c_corp: 'C corporation',
  p_corp: 'Professional corporation',
  pllc: 'Professional LLC (PLLC)',
  llc: 'Limited liability company (LLC)',
  llp: 'Limited liability partnership (LLP)',
  lp: 'Limited partnership (LP)',
  gp: 'General partnership',
  unset: 'Not sure yet',
};
export const TAX_CLASS_LABELS: Record<(typeof TAX_CLASSES)[number], string> = {
  corp: 'Corporation (C corporation)',
  s_corp: 'S corporation (Form 2553 election)',
  partnership: 'Partnership',
  disregarded: 'Disregarded entity (single-member LLC)',
  tax_exempt: 'Tax-exempt organization',
  unset: 'Not sure yet',
};

export const OPTIONS = {
  entity_type: ENTITY_TYPES.map((v) => [v, ENTITY_TYPE_LABELS[v]] as const),
  tax_classification: TAX_CLASSES.map((v) => [v, TAX_CLASS_LABELS[v]] as const),
  llc_managed_type: LLC_MANAGED_TYPES.map((v) => [v, v === 'member_managed' ? 'Member-managed' : 'Manager-managed'] as const),
  incorporation_location: REGIONS.map((r) => [r.code, r.name] as const),
  /** The 50 states and DC, stored as the two-letter code. */
  state: REGIONS.map((r) => [r.code, r.name] as const),
  // US addresses only (the platform's compliance is US state compliance).
  country: [['US', 'United States']] as const,
  accounting_method: ACCOUNTING_METHODS.map((v) => [v, v === 'cash' ? 'Cash' : 'Accrual'] as const),
  accounting_period: ACCOUNTING_PERIODS.map((v) => [v, v === 'calendar' ? 'Calendar year' : 'Fiscal year'] as const),
  accounting_year_end: MONTH_NAMES.map((m, i) => [String(i + 1), m] as const),
};
