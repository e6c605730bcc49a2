import { Type, type Static } from 'typebox';

/**
 * The format of the handbook's policy catalog (catalog/handbook/questions.yaml and
 * catalog/handbook/policies/<US|CODE>.yaml). catalog/README.md, "The handbook's policies", explains each field.
 */

const Id = Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 80 });
const Url = Type.String({ pattern: '^https://', maxLength: 500 });
const Text = (maxLength = 2000) => Type.String({ minLength: 1, maxLength });
const Literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as unknown as ReturnType<typeof Type.Unsafe<T[number]>>;

/** What a policy is about; the builder and the published handbook group policies by it, in this order. */
export const POLICY_CATEGORIES = ['employment', 'conduct', 'pay', 'time', 'leave', 'benefits', 'safety', 'privacy', 'separation'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

export const HANDBOOK_QUESTION_TYPES = ['boolean', 'integer', 'text', 'choice'] as const;

/** A question the builder asks the owner, once per entity; its answer fills policy text and decides optional policies. */
export const HandbookQuestionSchema = Type.Object(
  {
    id: Id,
    prompt: Text(300),
    help: Type.Optional(Text(1000)),
    type: Literals(HANDBOOK_QUESTION_TYPES),
    /** Only for type choice: the allowed values and how the builder shows them. */
    choices: Type.Optional(Type.Array(Type.Object({ value: Id, label: Text(200) }, { additionalProperties: false }), { minItems: 2 })),
    /** Only for type integer. */
    min: Type.Optional(Type.Integer()),
    max: Type.Optional(Type.Integer()),
    /** What the builder proposes before the owner answers (an answer is still required unless the question is optional). */
    default: Type.Optional(Type.Union([Type.Boolean(), Type.Integer(), Type.String({ maxLength: 500 })])),
    /**
     * Only in a state's file: the question asks whether employees work in this place (a city or county of the
     * state, named as the handbook prints it, e.g. "Chicago"). It is a yes/no question without a default: the owner
     * states a fact, and a yes brings in the policies whose `applies_when.in_locality` names the question.
     */
    locality: Type.Optional(Text(100)),
  },
  { additionalProperties: false },
);

export const AnswerValueSchema = Type.Union([Type.Boolean(), Type.Integer(), Type.String({ maxLength: 500 })]);

/** When a policy applies; every stated condition must hold. No condition: it applies to every employer with employees in its region. */
export const PolicyConditionSchema = Type.Object(
  {
    /** At least this many employees, counted as `employees_counted` says. */
    min_employees: Type.Optional(Type.Integer({ minimum: 1 })),
    /** 'region': employees in the policy's state (default for a state policy); 'total': in every state (default for US). */
    employees_counted: Type.Optional(Literals(['region', 'total'] as const)),
    /** The owner's answers to handbook questions (e.g. only when the business offers paid vacation). */
    answers: Type.Optional(Type.Array(Type.Object({ question: Id, equals: AnswerValueSchema }, { additionalProperties: false }), { minItems: 1 })),
    /**
     * Employees work in a city or county of the policy's state: the id of a locality question of the same file
     * (one with `locality`), answered yes. A required policy may depend on it (where employees work is a fact, not a
     * choice); until it is answered the policy does not apply and the handbook cannot be published.
     */
    in_locality: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const PolicySourceSchema = Type.Object(
  {
    title: Text(300),
    /** The page that states the rule (a statute section, a regulation, the agency's page on it), not a home page. */
    url: Url,
    /** What that page says that this policy relies on, in a sentence. */
    says: Type.Optional(Text(1000)),
  },
  { additionalProperties: false },
);

export const PolicySchema = Type.Object(
  {
    /** '<us|region code in lower case>-…', stable forever. */
    id: Id,
    title: Text(200),
    category: Literals(POLICY_CATEGORIES),
    /** required: the law requires it (or a written notice of it) for the employers it applies to; the owner cannot skip it. optional: good practice the owner adopts or skips. */
    adoption: Literals(['required', 'optional'] as const),
    /** One plain sentence for the builder's list. */
    summary: Text(500),
    /**
     * The policy as the handbook states it, in plain language written by us. Paragraphs are separated by a
     * blank line; a line starting with '- ' is a bullet. Placeholders: {company}, {region} (the state's
     * name) and {answer:<question-id>} (the owner's answer; the question must be listed in `uses`).
     */
    body: Text(6000),
    /** Handbook questions whose answers this policy's text uses (the builder asks them when the policy is in). */
    uses: Type.Optional(Type.Array(Id, { minItems: 1 })),
    applies_when: Type.Optional(PolicyConditionSchema),
    sources: Type.Array(PolicySourceSchema, { minItems: 1 }),
    confidence: Literals(['confirmed', 'uncertain'] as const),
    /** Required when confidence is uncertain: what could not be confirmed. */
    notes: Type.Optional(Text(1000)),
  },
  { additionalProperties: false },
);

export const HandbookQuestionsFileSchema = Type.Object({ questions: Type.Array(HandbookQuestionSchema) }, { additionalProperties: false });

export const PolicyFileSchema = Type.Object(
  {
    /** 'US' for federal policies, or the region code the file is named after. */
    region: Type.String({ pattern: '^[A-Z]{2}$' }),
    /** Questions only this file's policies use; ids start with the file's prefix. */
    questions: Type.Optional(Type.Array(HandbookQuestionSchema)),
    policies: Type.Array(PolicySchema),
  },
  { additionalProperties: false },
);

export type HandbookQuestion = Static<typeof HandbookQuestionSchema>;
export type PolicyCondition = Static<typeof PolicyConditionSchema>;
export type PolicySource = Static<typeof PolicySourceSchema>;
export type PolicyDefinition = Static<typeof PolicySchema>;
export type PolicyFile = Static<typeof PolicyFileSchema>;
export type AnswerValue = Static<typeof AnswerValueSchema>;
