import { Type, type Static } from 'typebox';

/**
 * The format of the compliance catalog's data files (catalog/regions/<CODE>.yaml and
 * catalog/questions.yaml). catalog/README.md explains every field with examples.
 */

const Id = Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 80 });
const Url = Type.String({ pattern: '^https://', maxLength: 500 });
/** A date as YYYY-MM-DD. */
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Text = (maxLength = 2000) => Type.String({ minLength: 1, maxLength });

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

const Literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as unknown as ReturnType<typeof Type.Unsafe<T[number]>>;

export const AgencySchema = Type.Object(
  {
    id: Id,
    name: Text(200),
    website: Url,
    administers: Type.Array(Text(200), { minItems: 1 }),
  },
  { additionalProperties: false },
);

const FeeSchema = Type.Union([
  Type.Object({ type: Type.Literal('fixed'), amount: Type.String({ pattern: '^\\d+\\.\\d{2}$' }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('range'), min: Type.String({ pattern: '^\\d+\\.\\d{2}$' }), max: Type.String({ pattern: '^\\d+\\.\\d{2}$' }) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('variable'), reason: Text(500) }, { additionalProperties: false }),
]);

const EtaSchema = Type.Object(
  { min: Type.Integer({ minimum: 0 }), max: Type.Integer({ minimum: 0 }), unit: Literals(['hour', 'day', 'week', 'month'] as const) },
  { additionalProperties: false },
);

/** Conditions, all of which must hold; `any` holds when one of its branches does. Unknown facts raise questions. */
export interface Criteria {
  scope?: 'home' | 'foreign' | 'any';
  has_employees?: boolean;
  has_physical_location?: boolean;
  employee_count_gte?: number;
  entity_types?: (typeof ENTITY_TYPES)[number][];
  tax_classifications?: (typeof TAX_CLASSES)[number][];
  /** The business has employees or premises in this locality (an id of the region file's `localities`); asked per locality. */
  in_locality?: string;
  /** The business sells at least one of these (each asked once per business). */
  sells?: (keyof typeof PRODUCT_KINDS)[];
  offers_retirement_plan?: boolean;
  pays_contractors?: boolean;
  /** Sales into this region in the current or previous calendar year, whichever is more: at least N US dollars. */
  annual_sales_gte?: number;
  /** Separate sales into this region in the current or previous calendar year: at least N. */
  annual_transactions_gte?: number;
  any?: Criteria[];
}

export const CriteriaSchema = Type.Cyclic(
  {
    Criteria: Type.Object(
      {
        scope: Type.Optional(Literals(['home', 'foreign', 'any'] as const)),
        has_employees: Type.Optional(Type.Boolean()),
        has_physical_location: Type.Optional(Type.Boolean()),
        employee_count_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        entity_types: Type.Optional(Type.Array(Literals(ENTITY_TYPES), { minItems: 1 })),
        tax_classifications: Type.Optional(Type.Array(Literals(TAX_CLASSES), { minItems: 1 })),
        in_locality: Type.Optional(Id),
        sells: Type.Optional(Type.Array(Literals(Object.keys(PRODUCT_KINDS) as (keyof typeof PRODUCT_KINDS)[]), { minItems: 1, uniqueItems: true })),
        offers_retirement_plan: Type.Optional(Type.Boolean()),
        pays_contractors: Type.Optional(Type.Boolean()),
        annual_sales_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        annual_transactions_gte: Type.Optional(Type.Integer({ minimum: 1 })),
        any: Type.Optional(Type.Array(Type.Ref('Criteria'), { minItems: 2 })),
      },
      { additionalProperties: false },
    ),
  },
  'Criteria',
);

const DayOfMonth = Type.Union([Type.Integer({ minimum: 1, maximum: 31 }), Type.Literal('last')]);

/** When one occurrence is due. */
export const DueRuleSchema = Type.Union([
  Type.Object({ rule: Type.Literal('none'), note: Type.Optional(Text(300)) }, { additionalProperties: false }),
  Type.Object({ rule: Type.Literal('fixed'), month: Type.Integer({ minimum: 1, maximum: 12 }), day: DayOfMonth }, { additionalProperties: false }),
  Type.Object(
    {
      rule: Type.Literal('anniversary'),
      of: Literals(['registration_date'] as const),
      offset_months: Type.Integer({ minimum: -11, maximum: 11 }),
      /** 'quarter-end': the last day of the calendar quarter containing that month. */
      day: Type.Union([DayOfMonth, Type.Literal('same'), Type.Literal('quarter-end')]),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { rule: Type.Literal('fiscal_year_end'), offset_months: Type.Integer({ minimum: 0, maximum: 12 }), day: DayOfMonth },
    { additionalProperties: false },
  ),
  /** Quarterly filings (`every: 1q`): `day` of the `offset_months`-th month after each calendar quarter ends (941: 1, last). */
  Type.Object(
    { rule: Type.Literal('quarter_end'), offset_months: Type.Integer({ minimum: 0, maximum: 3 }), day: DayOfMonth },
    { additionalProperties: false },
  ),
  Type.Object(
    { rule: Type.Literal('within_days'), of: Literals(['registration_date', 'operations_start_date'] as const), days: Type.Integer({ minimum: 0, maximum: 730 }) },
    { additionalProperties: false },
  ),
  /**
   * One-time filings only: the `day` of the `offset_months`-th month after the month of the date (registration
   * 2027-10-01, offset 3, day 15: 2028-01-15 — "the 15th day of the 4th month", counting the registration month as the first).
   */
  Type.Object(
    {
      rule: Type.Literal('months_after'),
      of: Literals(['registration_date', 'operations_start_date'] as const),
      offset_months: Type.Integer({ minimum: 0, maximum: 24 }),
      day: DayOfMonth,
    },
    { additionalProperties: false },
  ),
]);

/**
 * Which years a biennial or triennial filing falls in: the registration (incorporation, in the home state) year's
 * cycle (default), the opposite parity of it, odd or even calendar years, or the parity of the last digit of the
 * state's registration number (asked; estimated from the registration year until answered).
 */
export const CYCLES = ['same-as-registration-year', 'opposite-of-registration-year', 'odd', 'even', 'registration-number-digit'] as const;

export const ScheduleSchema = Type.Object(
  {
    /** once; quarterly (1q, calendar quarters); every year, two years or three years. */
    every: Literals(['once', '1q', '1y', '2y', '3y'] as const),
    due: DueRuleSchema,
    /**
     * Biennial (and triennial: only 'same-as-registration-year') filings: see CYCLES. Without it: the registration
     * year's cycle, the first one two (three) years after registration, or — with `first: next-year` — every two
     * years from the year after registration.
     */
    parity: Type.Optional(Literals(CYCLES)),
    /** The cycle by entity type, where a state sets it so (e.g. corporations in even years, LLCs in odd years); overrides `parity`. */
    parity_by_entity_type: Type.Optional(Type.Partial(Type.Record(Literals(ENTITY_TYPES), Literals(CYCLES)))),
    /** The first recurring filing is due in the year after registration ('next-year') or at the first due date after it ('first-due-date'). */
    first: Type.Optional(Literals(['next-year', 'first-due-date'] as const)),
  },
  { additionalProperties: false },
);

const ManualStepSchema = Type.Object(
  { title: Text(200), description: Text(), url: Type.Optional(Url) },
  { additionalProperties: false },
);

const FieldSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
    label: Text(200),
    description: Type.Optional(Text(500)),
    type: Literals(['string', 'date', 'number', 'boolean', 'email', 'phone', 'address', 'ssn-last4', 'ein'] as const),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** One value a filing produces on the agency account (an account number, a rate, a filing frequency). */
const OutputDataSchema = Type.Object(
  {
    name: Text(200),
    description: Type.Optional(Text(500)),
    kind: Literals(['identifier', 'rate', 'text'] as const),
    /** How the agency writes it: `#` a digit, `A` a capital letter, anything else literal (e.g. `###-####-#`). The sandbox generates values from it. */
    format: Type.Optional(Type.String({ pattern: '^[#A0-9A-Z ./-]{1,40}$' })),
  },
  { additionalProperties: false },
);

/** What completing the automation produces, written in one transaction when it completes. */
const AutomationOutputsSchema = Type.Object(
  {
    /** The agency account the filing opens or confirms, with its data attributes. */
    agency_account: Type.Optional(Type.Object({ name: Text(200), data: Type.Array(OutputDataSchema, { minItems: 1 }) }, { additionalProperties: false })),
    /** Whether the filing leaves a login to the agency's portal (sealed in the vault). */
    login: Type.Boolean(),
    /** The confirmation the agency issues, stored as a document of the entity's mail. */
    document: Type.Object({ title: Text(200) }, { additionalProperties: false }),
    /** Dates the filing establishes (e.g. the account's effective date). */
    dates: Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), label: Text(200) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

/**
 * How a requirement is done for the business: `connector` (a machine files it: the sandbox today, an agency
 * connector in production) or `operator` (a person on the operator back office always does it), the input it
 * needs (one form field each) and the outputs it produces.
 */
const AutomationSchema = Type.Object(
  {
    fulfilment: Literals(['connector', 'operator'] as const),
    fields: Type.Array(FieldSchema),
    outputs: AutomationOutputsSchema,
  },
  { additionalProperties: false },
);

/** One page read to confirm a requirement. The URL is the page as read (an archived copy may be http). */
export const VerificationSchema = Type.Object(
  {
    url: Type.String({ pattern: '^https?://', maxLength: 500 }),
    verified_on: IsoDate,
    says: Text(1000),
  },
  { additionalProperties: false },
);

export const RequirementSchema = Type.Object(
  {
    id: Id,
    family: Literals(FAMILIES),
    title: Text(200),
    summary: Text(500),
    description: Text(4000),
    category: Literals(TASK_CATEGORIES),
    tags: Type.Array(Literals(TASK_TAGS), { minItems: 1 }),
    priority: Literals(['high', 'medium', 'low'] as const),
    agency: Id,
    resources: Type.Array(Type.Object({ title: Text(200), url: Url }, { additionalProperties: false }), { minItems: 1 }),
    fee: FeeSchema,
    eta: Type.Optional(EtaSchema),
    applies_when: CriteriaSchema,
    schedule: ScheduleSchema,
    /** Requirements that can start only once this one is done. */
    unlocks: Type.Optional(Type.Array(Id)),
    resolutions: Type.Object(
      {
        manual: Type.Array(ManualStepSchema, { minItems: 1 }),
        automation: Type.Optional(AutomationSchema),
      },
      { additionalProperties: false },
    ),
    /** Official pages the facts above come from: pages that state the rule, never only an agency's home page. */
    sources: Type.Array(Url, { minItems: 1 }),
    /**
     * The verification pass: each page read to confirm the requirement, when, and what it says (quoted or closely
     * paraphrased). Every `confirmed` requirement has one (scripts/check-catalog.ts).
     */
    verification: Type.Optional(Type.Array(VerificationSchema, { minItems: 1 })),
    /** 'uncertain' when a fact could not be confirmed; `notes` then says which. */
    confidence: Literals(['confirmed', 'uncertain'] as const),
    notes: Type.Optional(Text(1000)),
  },
  { additionalProperties: false },
);
export type RequirementDefinition = Static<typeof RequirementSchema>;
/** One field an automated resolution asks for (the hosted automation form shows one input per field). */
export type AutomationField = NonNullable<RequirementDefinition['resolutions']['automation']>['fields'][number];
/** A requirement's automation: how it is fulfilled, its input fields and its outputs. */
export type AutomationDefinition = NonNullable<RequirementDefinition['resolutions']['automation']>;

/** A locality of a region: asked about ("Does the business have employees or premises in Philadelphia?") only where a requirement needs it. */
export const LocalitySchema = Type.Object(
  { id: Id, name: Text(120), kind: Literals(['city', 'county', 'district'] as const) },
  { additionalProperties: false },
);
export type Locality = Static<typeof LocalitySchema>;

/** A region file (catalog/regions/<CODE>.yaml); catalog/federal.yaml has the same shape with region US. */
export const RegionFileSchema = Type.Object(
  {
    region: Type.String({ pattern: '^[A-Z]{2}$' }),
    /** Whether the region taxes wages (decides a withholding account). */
    wage_income_tax: Type.Boolean(),
    agencies: Type.Array(AgencySchema, { minItems: 1 }),
    /** Cities, counties or districts with taxes of their own; a requirement names one with `in_locality`. */
    localities: Type.Optional(Type.Array(LocalitySchema)),
    requirements: Type.Array(RequirementSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type RegionFile = Static<typeof RegionFileSchema>;

/** A cited page that shows a coverage cell (a state without the obligation): read on `verified_on`, it `says` so. */
const CitationSchema = Type.Object({ url: Type.String({ pattern: '^https?://', maxLength: 500 }), verified_on: IsoDate, says: Text(2000) }, { additionalProperties: false });

/**
 * One family's requirements in one region (catalog/families/<family>/<CODE>.yaml, US for federal ones), merged into
 * the region's catalog at load. With no requirements it says why the region has none (`not_applicable`) or which
 * requirement of the region file already is the obligation (`covered_by`): the coverage matrix's cell.
 */
export const FamilyFileSchema = Type.Object(
  {
    region: Type.String({ pattern: '^[A-Z]{2}$' }),
    family: Literals(FAMILIES),
    agencies: Type.Optional(Type.Array(AgencySchema)),
    localities: Type.Optional(Type.Array(LocalitySchema)),
    requirements: Type.Optional(Type.Array(RequirementSchema)),
    not_applicable: Type.Optional(Type.Object({ reason: Text(1000), sources: Type.Array(CitationSchema, { minItems: 1 }) }, { additionalProperties: false })),
    covered_by: Type.Optional(Type.Object({ requirements: Type.Array(Id, { minItems: 1 }), reason: Text(1000) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type FamilyFile = Static<typeof FamilyFileSchema>;
export type Agency = Static<typeof AgencySchema>;
export type DueRule = Static<typeof DueRuleSchema>;
export type Schedule = Static<typeof ScheduleSchema>;

/** Questions that collect a fact the criteria need, in every region (catalog/questions.yaml). */
export const QuestionSchema = Type.Object(
  {
    id: Id,
    fact: Literals(FACTS),
    /** `{region}` is replaced by the region's name. */
    title: Text(200),
    description: Text(1000),
    /** `business`: asked once for the whole business (its title names no region); `region` (default): per region. */
    per: Type.Optional(Literals(['region', 'business'] as const)),
    answer_type: Literals(['boolean', 'number', 'date'] as const),
    category: Literals(TASK_CATEGORIES),
    priority: Literals(['high', 'medium', 'low'] as const),
  },
  { additionalProperties: false },
);
export type QuestionDefinition = Static<typeof QuestionSchema>;

export const QuestionsFileSchema = Type.Object({ questions: Type.Array(QuestionSchema, { minItems: 1 }) }, { additionalProperties: false });
