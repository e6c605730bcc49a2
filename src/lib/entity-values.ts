// The legal-entity fields' allowed values: the API schemas (modules/legal-entities/legal-entities.schemas.ts)
// and the hosted signup pages (pages/signup-options.ts) both list them.
export const ENTITY_TYPES = ['unset', 'c_corp', 'p_corp', 'pllc', 'llc', 'llp', 'lp', 'gp'] as const;
export const TAX_CLASSES = ['unset', 'corp', 's_corp', 'partnership', 'disregarded', 'tax_exempt'] as const;
export const LLC_MANAGED_TYPES = ['member_managed', 'manager_managed'] as const;
export const ACCOUNTING_METHODS = ['accrual', 'cash'] as const;
export const ACCOUNTING_PERIODS = ['fiscal', 'calendar'] as const;
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
