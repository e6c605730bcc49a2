import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';
import { AUTOMATION_STATUSES, type AutomationView } from './contract.js';

const StatusSchema = StringEnum(AUTOMATION_STATUSES, { title: 'AutomationStatus' });

export const AutomationInputSchema = Type.Record(Type.String(), Type.Unknown(), {
  title: 'AutomationInput',
  description:
    "The task's automation fields by name (the task's `resolutions.automate.form_spec`): text, dates as YYYY-MM-DD, numbers, booleans.",
});

export const AutomationAnswerSchema = Type.Record(Type.String(), Type.Unknown(), {
  title: 'AutomationAnswer',
  description: "`response`: the owner's answer as text; beside it, any of the task's automation fields (its `form_spec`) to correct.",
  examples: [{ response: 'The officer is Ada Lovelace, CEO since 2021.' }],
});

export const AutomationStateSchema = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    requirement_id: Type.String(),
    region: Type.String({ description: 'Two-letter state code.' }),
    agency_id: Type.String(),
    status: StatusSchema,
    status_reason: Nullable(Type.String()),
    customer_message: Nullable(Type.String({ description: 'The question to answer while the status is waiting_on_customer_response.' })),
    fulfilment: StringEnum(['connector', 'operator'] as const, {
      description: 'From the catalog: filed by a machine, or always by a person.',
    }),
    performer: Type.String({ description: "Who is doing it now: a connector's name (e.g. sandbox), or operator (our team)." }),
    steps: Type.Array(
      Type.Object(
        { key: Type.String(), label: Type.String(), state: StringEnum(['done', 'current', 'pending', 'failed'] as const) },
        { title: 'AutomationStep' },
      ),
    ),
    status_logs: Type.Array(
      Type.Object(
        { status: StatusSchema, reason: Nullable(Type.String()), actor: Type.String(), updated_at: Type.String({ format: 'date-time' }) },
        { title: 'AutomationStatusLog' },
      ),
    ),
    input: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The input as collected; sensitive values (SSN digits, bank details) are masked as ••••.',
    }),
    outputs: Nullable(
      Type.Object(
        {
          agency_account_id: Nullable(Type.String({ description: 'Listed by GET /accounts.' })),
          login_id: Nullable(Type.String()),
          document_id: Nullable(Type.String({ description: 'The confirmation, a mail item listed by GET /mail.' })),
          dates: Type.Record(Type.String(), Type.String({ format: 'date' })),
          account_data: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
        },
        { title: 'AutomationOutputs' },
      ),
    ),
    last_error: Nullable(Type.String({ description: 'The last failed try of a step (it is retried, or waits on our team).' })),
    due_date: Nullable(Type.String({ format: 'date' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'AutomationState' },
);

/** The wire shape of an automation (snake case, like the rest of the API). */
export const toAutomationState = (v: AutomationView) => ({
  id: v.id,
  task_id: v.taskId,
  requirement_id: v.requirementId,
  region: v.region,
  agency_id: v.agencyId,
  status: v.status,
  status_reason: v.statusReason,
  customer_message: v.customerMessage,
  fulfilment: v.fulfilment,
  performer: v.performer,
  steps: v.steps.map((s) => ({ ...s })),
  status_logs: v.logs.map((l) => ({ status: l.status, reason: l.reason, actor: l.actor, updated_at: l.at })),
  input: v.input,
  outputs: v.outputs && {
    agency_account_id: v.outputs.agencyAccountId,
    login_id: v.outputs.loginId,
    document_id: v.outputs.documentId,
    dates: v.outputs.dates,
    account_data: v.outputs.accountData,
  },
  last_error: v.lastError,
  due_date: v.dueDate,
  created_at: v.createdAt,
  updated_at: v.updatedAt,
  completed_at: v.completedAt,
});
