import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { BoundedString, errorResponses, Nullable, StringEnum } from '../../http/schemas.js';
import { InvalidInputError } from '../../lib/errors.js';
import { AUTOMATION_STATUSES, type AutomationQueueItem, type AutomationView } from '../automations/contract.js';
import type { OperatorAutomations } from './back-office.views.js';
import { OPERATOR_SECURITY, operatorPrincipalOf, type OperatorHook } from './operator-auth.js';
import type { OperatorsService } from './operators.service.js';

const MAX_PAGE = 200;
const Status = StringEnum(AUTOMATION_STATUSES);

const QueueQuery = Type.Object({
  region: Type.Optional(BoundedString(2, { description: 'Two-letter state code.' })),
  agency_id: Type.Optional(BoundedString(100)),
  status: Type.Optional(Status),
  platform_id: Type.Optional(BoundedString(64)),
  assigned_to: Type.Optional(BoundedString(64, { description: '`me`, `unassigned`, or an operator key id; all when absent.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 50 })),
  cursor: Type.Optional(BoundedString(500, { description: 'The `next_cursor` of the previous page.' })),
});
const Params = Type.Object({ automation_id: BoundedString(64) });

const OperatorAutomation = Type.Object(
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
    status: Status,
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
      Type.Object({ status: Status, reason: Nullable(Type.String()), actor: Type.String(), at: Type.String({ format: 'date-time' }) }),
    ),
    last_error: Nullable(Type.String()),
    due_date: Nullable(Type.String({ format: 'date' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'OperatorAutomation' },
);

const ClaimBody = Type.Object(
  {
    assignee_key_id: Type.Optional(
      Nullable(BoundedString(64, { description: "Another operator's key id; null to unassign; absent: yourself." })),
    ),
  },
  { title: 'OperatorClaim', additionalProperties: false },
);
const TextBody = (name: 'message' | 'reason', title: string, description: string) =>
  Type.Object({ [name]: BoundedString(2000, { minLength: 1, description }) }, { title, additionalProperties: false });
const RequestResponseBody = TextBody(
  'message',
  'OperatorRequestResponse',
  'The question for the business owner, shown on their task page.',
);
const CancelBody = TextBody('reason', 'OperatorCancel', 'Why the automation is canceled (kept in its status log).');

const CompleteBody = Type.Object(
  {
    account_data: Type.Optional(
      Type.Array(
        Type.Object(
          { name: BoundedString(200, { minLength: 1 }), value: BoundedString(200, { minLength: 1 }) },
          { additionalProperties: false },
        ),
        {
          maxItems: 50,
          description: "One value per data attribute of the catalog's `outputs.agency_account.data`, by name.",
        },
      ),
    ),
    login: Type.Optional(
      Type.Object(
        {
          username: BoundedString(500, { minLength: 1 }),
          password: BoundedString(500, { minLength: 1 }),
        },
        { additionalProperties: false, description: 'Sealed in the vault; never returned or logged.' },
      ),
    ),
    dates: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Type.String({ format: 'date' }), {
        description: "The catalog's `outputs.dates`, by name.",
      }),
    ),
    document: Type.Object(
      {
        file_name: BoundedString(200, { minLength: 1 }),
        content_base64: Type.String({
          minLength: 1,
          description: 'The confirmation PDF, base64-encoded (at most MAIL_MAX_BYTES decoded).',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'OperatorCompleteAutomation', additionalProperties: false },
);

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

/** The operator API of automations (/operator/v1/automations…): the same service calls as the back office's pages. */
export function operatorAutomationRoutes(deps: {
  automations: OperatorAutomations;
  operators: Pick<OperatorsService, 'listKeys'>;
  operatorAuth: OperatorHook;
  maxUploadBytes: number;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Operator'];
    const security = OPERATOR_SECURITY;
    const common = { onRequest: deps.operatorAuth };
    const one = { 200: OperatorAutomation, ...errorResponses(401, 404, 409, 422) };
    const get = async (id: string) => toOperatorAutomation(await deps.automations.get(id));

    r.get(
      '/operator/v1/automations',
      {
        ...common,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'operatorAutomationQueue',
          tags,
          security,
          summary: 'The work queue: automations waiting on a person, due first',
          querystring: QueueQuery,
          response: {
            200: Type.Object(
              { items: Type.Array(OperatorAutomation), next_cursor: Nullable(Type.String()) },
              { title: 'OperatorAutomationQueue' },
            ),
            ...errorResponses(401, 422),
          },
        },
      },
      async (request) => {
        const q = request.query;
        const assignedTo = q.assigned_to === 'me' ? operatorPrincipalOf(request).keyId : q.assigned_to;
        const page = await deps.automations.queue({
          limit: q.limit ?? 50,
          ...(q.region && { region: q.region.toUpperCase() }),
          ...(q.agency_id && { agencyId: q.agency_id }),
          ...(q.status && { status: q.status }),
          ...(q.platform_id && { platformId: q.platform_id }),
          ...(assignedTo && { assignedTo }),
          ...(q.cursor && { cursor: q.cursor }),
        });
        return { items: page.items.map(toOperatorAutomation), next_cursor: page.nextCursor };
      },
    );

    r.get(
      '/operator/v1/automations/:automation_id',
      {
        ...common,
        schema: {
          operationId: 'operatorGetAutomation',
          tags,
          security,
          summary: 'One automation: its task, input (masked), log and outputs',
          params: Params,
          response: one,
        },
      },
      async (request) => get(request.params.automation_id),
    );

    r.post(
      '/operator/v1/automations/:automation_id/claim',
      {
        ...common,
        schema: {
          operationId: 'operatorClaimAutomation',
          tags,
          security,
          summary: 'Claim an automation, or assign it to another operator',
          description: 'An empty body (or `{}`) assigns it to you. Audited.',
          params: Params,
          body: Type.Optional(Nullable(ClaimBody)),
          response: one,
        },
      },
      async (request) => {
        const chosen = request.body?.assignee_key_id;
        let assignee: { keyId: string; name: string } | null | undefined;
        if (chosen === null) assignee = null;
        else if (chosen !== undefined) {
          const key = (await deps.operators.listKeys()).find((k) => k.id === chosen && !k.revoked_at);
          if (!key) throw new InvalidInputError(['assignee_key_id'], `No live operator key '${chosen}'`, chosen);
          assignee = { keyId: key.id, name: key.name };
        }
        await deps.automations.claim(request.params.automation_id, operatorPrincipalOf(request), assignee);
        return get(request.params.automation_id);
      },
    );

    r.post(
      '/operator/v1/automations/:automation_id/reveal',
      {
        ...common,
        schema: {
          operationId: 'operatorRevealAutomationInput',
          tags,
          security,
          summary: 'The collected input, unmasked (audited)',
          params: Params,
          response: {
            200: Type.Object({ input: Type.Object({}, { additionalProperties: true }) }, { title: 'OperatorRevealedInput' }),
            ...errorResponses(401, 404, 409),
          },
        },
      },
      async (request) => ({ input: await deps.automations.revealInput(request.params.automation_id, operatorPrincipalOf(request)) }),
    );

    r.post(
      '/operator/v1/automations/:automation_id/complete',
      {
        ...common,
        // The base64 of a PDF as large as MAIL_MAX_BYTES, and the rest of the body.
        bodyLimit: Math.ceil(deps.maxUploadBytes / 3) * 4 + 64 * 1024,
        config: { secretInputs: [['body', 'login']] },
        schema: {
          operationId: 'operatorCompleteAutomation',
          tags,
          security,
          summary: 'Record the outcome: account data, login, confirmation PDF, dates; the task is then done',
          description:
            'Checked against the outputs the catalog declares for the requirement: every identifier of the agency account (account numbers) and the PDF are required; ' +
            'other data and a login are optional; dates left out are today. All of it is written in one transaction with the task `done`. Audited.',
          params: Params,
          body: CompleteBody,
          response: { ...one, ...errorResponses(401, 404, 409, 413, 422) },
        },
      },
      async (request) => {
        const id = request.params.automation_id;
        const body = request.body;
        const bytes = Buffer.from(body.document.content_base64, 'base64');
        if (bytes.length > deps.maxUploadBytes)
          throw new InvalidInputError(['document', 'content_base64'], `The file is larger than ${deps.maxUploadBytes} bytes`, '[file]');
        // The service checks the outcome against the catalog's outputs (422s named in this body's terms).
        await deps.automations.complete(id, operatorPrincipalOf(request), {
          document: { fileName: body.document.file_name, bytes },
          ...(body.account_data && { accountData: body.account_data }),
          ...(body.login && { login: body.login }),
          ...(body.dates && { dates: body.dates }),
        });
        return get(id);
      },
    );

    r.post(
      '/operator/v1/automations/:automation_id/request-response',
      {
        ...common,
        schema: {
          operationId: 'operatorRequestCustomerResponse',
          tags,
          security,
          summary: 'Send it back to the business owner (`waiting_on_customer_response`)',
          description: "The message is shown on the owner's task page with a way to answer. Audited.",
          params: Params,
          body: RequestResponseBody,
          response: one,
        },
      },
      async (request) => {
        await deps.automations.requestCustomerResponse(
          request.params.automation_id,
          operatorPrincipalOf(request),
          (request.body as { message: string }).message,
        );
        return get(request.params.automation_id);
      },
    );

    r.post(
      '/operator/v1/automations/:automation_id/cancel',
      {
        ...common,
        schema: {
          operationId: 'operatorCancelAutomation',
          tags,
          security,
          summary: 'Cancel the automation with a reason',
          description: 'Audited.',
          params: Params,
          body: CancelBody,
          response: one,
        },
      },
      async (request) => {
        await deps.automations.cancel(
          request.params.automation_id,
          operatorPrincipalOf(request),
          (request.body as { reason: string }).reason,
        );
        return get(request.params.automation_id);
      },
    );
  };
}
