import { Type, type Static } from 'typebox';
import { BoundedString, errorResponses, Nullable, StringEnum } from '../../http/schemas.js';
import { AUTOMATION_STATUSES, type AutomationQueueItem, type AutomationView } from '../automations/contract.js';

// The wire view of an automation, shared by the operator API's queue and action routes.

export const AutomationStatus = StringEnum(AUTOMATION_STATUSES);
export const AutomationParams = Type.Object({ automation_id: BoundedString(64) });

export const OperatorAutomation = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    task_title: Type.String(),
    legal_entity_id: Type.String(),
    entity_name: Type.String(),
    platform_id: Type.String(),
    platform_name: Type.String(),
    requirement_id: Type.String(),
    region: Type.String(),
    agency_id: Type.String(),
    fulfilment: StringEnum(['connector', 'operator'] as const),
    performer: Type.String(),
    status: AutomationStatus,
    status_reason: Nullable(Type.String()),
    customer_message: Nullable(Type.String()),
    assigned_to: Nullable(Type.Object({ key_id: Type.String(), name: Type.String() })),
    input: Type.Object({}, { additionalProperties: true, description: 'The collected input; sensitive fields masked (see `reveal`).' }),
    outputs: Nullable(
      Type.Object({
        agency_account_id: Nullable(Type.String()),
        login_id: Nullable(Type.String()),
        document_id: Nullable(Type.String()),
        dates: Type.Object({}, { additionalProperties: true }),
        account_data: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
      }),
    ),
    logs: Type.Array(
      Type.Object({
        status: AutomationStatus,
        reason: Nullable(Type.String()),
        actor: Type.String(),
        at: Type.String({ format: 'date-time' }),
      }),
    ),
    last_error: Nullable(Type.String()),
    due_date: Nullable(Type.String({ format: 'date' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'OperatorAutomation' },
);

/** The response of an operation on one automation: the automation as it now is. */
export const oneAutomation = { 200: OperatorAutomation, ...errorResponses(401, 404, 409, 422) };

type Snake = Static<typeof OperatorAutomation>;
export function toOperatorAutomation(
  a: AutomationView & Partial<Pick<AutomationQueueItem, 'entityName' | 'platformName' | 'taskTitle'>>,
): Snake {
  return {
    id: a.id,
    task_id: a.taskId,
    task_title: a.taskTitle ?? '',
    legal_entity_id: a.legalEntityId,
    entity_name: a.entityName ?? '',
    platform_id: a.platformId,
    platform_name: a.platformName ?? '',
    requirement_id: a.requirementId,
    region: a.region,
    agency_id: a.agencyId,
    fulfilment: a.fulfilment,
    performer: a.performer,
    status: a.status,
    status_reason: a.statusReason,
    customer_message: a.customerMessage,
    assigned_to: a.assignedTo && { key_id: a.assignedTo.keyId, name: a.assignedTo.name },
    input: a.input,
    outputs: a.outputs && {
      agency_account_id: a.outputs.agencyAccountId,
      login_id: a.outputs.loginId,
      document_id: a.outputs.documentId,
      dates: a.outputs.dates,
      account_data: a.outputs.accountData,
    },
    logs: a.logs,
    last_error: a.lastError,
    due_date: a.dueDate,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    completed_at: a.completedAt,
  };
}
