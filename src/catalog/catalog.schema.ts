import { Type, type Static } from 'typebox';

/**
 * The format of the compliance catalog's data files (catalog/regions/<CODE>.yaml and
 * catalog/questions.yaml). catalog/README.md explains every field with examples. The conditions are
 * criteria.schema.ts, the due dates schedule.schema.ts, the closed value lists catalog-vocabulary.ts.
 */
import { CriteriaSchema } from './criteria.schema.js';
import { FACTS, FAMILIES, Id, IsoDate, Literals, TASK_CATEGORIES, TASK_TAGS, Text, Url } from './catalog-vocabulary.js';
import { ScheduleSchema } from './schedule.schema.js';

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
