// The task records on the wire: the unversioned AccountTask and the v2 PlatformTask (what operations take is
// tasks-requests.schemas.ts).
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';
import { TASK_CATEGORIES } from '../../catalog/catalog-vocabulary.js';
import { LocationRefSchema } from '../locations/contract.js';
import { AUTOMATION_STATUSES } from '../automations/contract.js';

export const ACCOUNT_TASK_STATUSES = ['todo', 'dismissed', 'in-progress', 'done'] as const;
export const V2_TASK_STATUSES = ['todo', 'deferred', 'in-progress', 'done'] as const;
/** The unversioned document's tag list (a subset of the v2 list). */
export const ACCOUNT_TASK_TAGS = [
  'certificate-of-good-standing',
  'charity-registration',
  'charity-registration-renewal',
  'employee-final-wage-payment',
  'employee-new-hire-reporting',
  'employee-onboarding',
  'employee-termination',
  'exemption',
  'foreign-qualification',
  'initial-statement',
  'local-business-setup',
  'local-payroll-setup',
  'newspaper-publication',
  'notices',
  'payroll-setup',
  'registered-agent',
  'sos-report',
  'setup',
] as const;

export const AccountTaskStatus = StringEnum(ACCOUNT_TASK_STATUSES, { title: 'AccountTaskStatus' });
const Priority = StringEnum(['high', 'medium', 'low'] as const, { title: 'TaskPriority' });
const Resource = Type.Object({ title: Type.String(), url: Type.String() });
const Fee = Type.Union([
  Type.Object({ type: Type.Literal('fixed'), amount: Type.String() }, { title: 'FeeFixed' }),
  Type.Object({ type: Type.Literal('range'), min: Type.String(), max: Type.String() }, { title: 'FeeRange' }),
  Type.Object({ type: Type.Literal('variable'), reason: Type.String() }, { title: 'FeeVariable' }),
]);
const Eta = Type.Object(
  {
    estimation: Type.Object({ min: Type.Integer(), max: Type.Integer(), unit: StringEnum(['hour', 'day', 'week', 'month'] as const) }),
    earliest_date: Nullable(Type.String({ format: 'date-time' })),
    latest_date: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'AccountTaskETA' },
);
const Criteria = Type.Object(
  { key: Type.String(), reason: Type.String(), data: Type.Object({}, { additionalProperties: true }) },
  { title: 'AccountTaskCriteria' },
);
const ManualStep = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  paths: Type.Array(Type.Object({ type: Type.String(), value: Type.String(), text: Nullable(Type.String()) })),
  order: Type.Integer(),
});
const ManualResolution = Type.Object({ type: Type.Literal('manual'), steps: Type.Array(ManualStep) }, { title: 'ManualResolution' });
const ActionField = Type.Object({ name: Type.String(), description: Type.String(), required: Type.Boolean(), type: Type.String() });
/** One input of an automation, JSON-schema-like: the catalog's field type is `type` (the JSON type) plus `format`. */
const FormSpecProperty = Type.Object(
  {
    type: StringEnum(['string', 'number', 'boolean'] as const),
    format: Type.Optional(
      StringEnum(['date', 'email', 'phone', 'address', 'ssn-last4', 'ein'] as const, {
        description: 'Our field type, when `type` alone does not say it.',
      }),
    ),
    title: Type.String({ description: 'The label the hosted form shows.' }),
    description: Type.Optional(Type.String()),
    pattern: Type.Optional(Type.String()),
    maxLength: Type.Optional(Type.Integer()),
    writeOnly: Type.Optional(Type.Boolean({ description: 'Sensitive: sealed when stored, masked in every listing, never returned.' })),
  },
  { title: 'AccountTaskAutomationFormField' },
);
const FormSpec = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Record(Type.String(), FormSpecProperty, {
      description: 'One property per field, in the order the hosted form asks them.',
    }),
    required: Type.Array(Type.String()),
    additionalProperties: Type.Literal(false),
  },
  {
    title: 'AccountTaskAutomationFormSpec',
    description: 'The input the automation needs, as a JSON Schema of the body `submit_url` takes.',
  },
);
const AutomateResolution = Type.Object(
  {
    type: Type.Literal('automate'),
    form_spec: FormSpec,
    submit_url: Type.String({
      description:
        "POST the fields as JSON here with the entity's bearer token: starts the automation and answers its state. While the automation " +
        "is `waiting_on_customer_response` it is the answer operation (POST /tasks/{task_id}/automation/answer) and `form_spec` is the answer's body.",
    }),
    hosted_url: Type.String({
      description: "POST {callback_url} here with the entity's bearer token for a hosted page collecting the fields (`automation_url`).",
    }),
  },
  { title: 'AccountTaskResolutionAutomate' },
);
const HostedResolution = Type.Object(
  {
    type: Type.Literal('hosted'),
    description: Type.String(),
    method: Type.String(),
    url: Type.String(),
    content_type: Type.String(),
    fields: Type.Array(ActionField),
  },
  { title: 'PlatformTaskResolutionHosted' },
);
const EndpointResolution = (type: 'action' | 'endpoint') =>
  Type.Object({
    type: Type.Literal(type),
    description: Type.String(),
    method: Type.String(),
    url: Type.String(),
    content_type: Type.String(),
    fields: Type.Array(ActionField),
  });

export const AccountTaskDefinitionSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    summary: Nullable(Type.String()),
    description: Type.String(),
    type: StringEnum(['requirement', 'data-collection', 'criteria-collection'] as const),
    resources: Type.Array(Resource),
    location: LocationRefSchema,
  },
  { title: 'AccountTaskDefinition' },
);

/** How a task's due date was found (an extension of the reference shapes: their clients ignore unknown fields). */
const DueDateBasis = Nullable(
  Type.Object(
    {
      rule: Type.String({
        description:
          'The rule that produced the due date, in words, e.g. "Due January 31 every year, from the first due date after registration".',
      }),
      exact: Type.Boolean({
        description:
          'true when the date follows from known facts; false when it is estimated because a fact the rule needs is not known yet (`question_id` names the question that makes it exact).',
      }),
      question_id: Nullable(
        Type.String({
          description:
            'The question (the `question_id` of a question task of the same region) whose answer makes an estimated date exact; null when exact.',
        }),
      ),
    },
    { title: 'DueDateBasis' },
  ),
);
const DUE_DATE_BASIS_DOC = 'The rule behind `due_date` and whether the date is exact or estimated; null when the task has no due date.';

export const AccountTaskSchema = Type.Object(
  {
    id: Type.String(),
    context: Type.Object({ scope: Type.Literal('legal-entity'), legal_entity_id: Type.String() }),
    definition: AccountTaskDefinitionSchema,
    resolutions: Type.Object({
      manual: Type.Optional(ManualResolution),
      action: Type.Optional(EndpointResolution('action')),
      automate: Type.Optional(AutomateResolution),
    }),
    default_resolution_name: Type.String({
      description: 'The resolution to offer first: `automate` while an automatable task is open, else `manual` (`action` for questions).',
    }),
    managed_provider: Type.Null(),
    status: AccountTaskStatus,
    period_start_date: Nullable(Type.String({ format: 'date' })),
    period_end_date: Nullable(Type.String({ format: 'date' })),
    due_date: Nullable(Type.String({ format: 'date' })),
    due_date_basis: { ...DueDateBasis, description: DUE_DATE_BASIS_DOC },
    unblocks: Type.Array(AccountTaskDefinitionSchema, { description: 'Requirements that can start once this task is done.' }),
    fee: Nullable(Fee),
    eta: Nullable(Eta),
    priority: Priority,
    criteria_met: Type.Array(Criteria, { description: 'Why the task applies.' }),
    tags: Nullable(Type.Array(Type.String())),
    category: StringEnum(TASK_CATEGORIES),
    blocked_by: Type.Array(Type.String(), { description: 'Requirement ids of the same region that must be done first.' }),
    agency: Nullable(Type.Object({ id: Type.String(), name: Type.String(), website: Type.String() })),
    answer: Type.Optional(Nullable(Type.Union([Type.Boolean(), Type.Number(), Type.String()]))),
  },
  { title: 'AccountTask' },
);

const AutomationStatus = StringEnum(AUTOMATION_STATUSES, { title: 'PlatformRequirementTaskAutomationStatus' });
const RegionRef = Type.Object({ id: Type.String(), name: Type.String(), parent_region: Type.Null() }, { title: 'RegionRef' });
const Unlock = Type.Object(
  {
    requirement_id: Type.String(),
    title: Type.String(),
    definition: Type.String(),
    summary: Nullable(Type.String()),
    resources: Type.Array(Resource),
    region: RegionRef,
    tags: Nullable(Type.Array(Type.String())),
    source: Type.Literal('requirement'),
  },
  { title: 'PlatformTaskUnlocks' },
);

const RequirementSource = Type.Object(
  {
    type: Type.Literal('requirement'),
    context: Type.Object({ scope: Type.Literal('legal-entity'), legal_entity_id: Type.String() }),
    requirement_id: Type.String(),
    definition: Type.String(),
    summary: Nullable(Type.String()),
    resources: Type.Array(Resource),
    period_start_date: Nullable(Type.String({ format: 'date' })),
    period_end_date: Nullable(Type.String({ format: 'date' })),
    due_date: Nullable(Type.String({ format: 'date' })),
    due_date_basis: { ...DueDateBasis, description: DUE_DATE_BASIS_DOC },
    region: RegionRef,
    fee: Nullable(Fee),
    eta: Nullable(Eta),
    tags: Nullable(Type.Array(Type.String())),
    default_resolution_name: Nullable(StringEnum(['manual', 'hosted', 'endpoint'] as const, { title: 'PlatformTaskResolutionType' })),
    resolutions: Type.Object({ hosted: Nullable(HostedResolution), manual: Nullable(ManualResolution) }),
    criteria_met: Nullable(Type.Array(Type.Object({ type: Type.String(), reason: Type.String(), task_id: Type.String() }))),
    unlocks: Nullable(Type.Array(Unlock)),
    category: StringEnum(TASK_CATEGORIES),
    automation_status: Nullable(AutomationStatus),
    automation_status_logs: Nullable(
      Type.Array(
        Type.Object(
          {
            status: AutomationStatus,
            updated_at: Type.String({ format: 'date-time' }),
            reason: Nullable(Type.String({ description: 'Why it changed, when known.' })),
          },
          { title: 'PlatformRequirementTaskAutomationStatusChange' },
        ),
        { description: "Every status change of the task's latest automation, oldest first." },
      ),
    ),
    agency_accounts: Nullable(Type.Array(Type.Object({}, { additionalProperties: true }))),
  },
  { title: 'PlatformTaskRequirement' },
);

const QuestionSource = Type.Object(
  {
    type: Type.Literal('question'),
    question_id: Type.String(),
    regions: Type.Array(RegionRef),
    region_scope: StringEnum(['entity', 'region', 'zip', 'city'] as const),
    description: Nullable(Type.String()),
    answer: Nullable(Type.String({ description: 'The answer, as text (true/false, a number or a date).' })),
    answer_type: StringEnum(['boolean', 'number', 'date'] as const),
    is_editable: Type.Boolean(),
    resolutions: Type.Object({ hosted: Type.Null(), endpoint: Nullable(EndpointResolution('endpoint')) }),
    categories: Type.Array(StringEnum(TASK_CATEGORIES)),
  },
  { title: 'PlatformTaskQuestion' },
);

export const PlatformTaskSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: StringEnum(V2_TASK_STATUSES, { title: 'PlatformTaskStatus' }),
    source: Type.Union([RequirementSource, QuestionSource]),
    priority: Nullable(Priority),
    is_managed: Type.Boolean(),
  },
  { title: 'PlatformTask' },
);
