import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString, errorResponses, Nullable } from '../../http/schemas.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { OperatorAutomations } from './back-office.views.js';
import { OPERATOR_SECURITY, operatorPrincipalOf, type OperatorHook } from './operator-auth.js';
import { AutomationParams, oneAutomation, toOperatorAutomation } from './operator-automations.views.js';
import type { OperatorsService } from './operators.service.js';

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

/**
 * The operator API of what operators do to an automation (claim, reveal, complete, send back, cancel): the same
 * service calls as the back office's pages, each audited. Each answers the automation as it now is.
 */
export function operatorAutomationActionRoutes(deps: {
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
    const get = async (id: string) => toOperatorAutomation(await deps.automations.get(id));

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
          params: AutomationParams,
          body: Type.Optional(Nullable(ClaimBody)),
          response: oneAutomation,
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
          params: AutomationParams,
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
          params: AutomationParams,
          body: CompleteBody,
          response: { ...oneAutomation, ...errorResponses(401, 404, 409, 413, 422) },
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
          params: AutomationParams,
          body: RequestResponseBody,
          response: oneAutomation,
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
          params: AutomationParams,
          body: CancelBody,
          response: oneAutomation,
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
