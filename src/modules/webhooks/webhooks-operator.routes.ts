import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.js';
import type { AuditService } from '../audit/contract.js';
import { OPERATOR_SECURITY, operatorPrincipalOf, type OperatorHook } from '../operators/contract.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import {
  EndpointParamsSchema,
  OperatorListQuerySchema,
  OperatorUpdateBodySchema,
  OperatorWebhookEndpointSchema,
  toOperatorEndpointView,
} from './webhooks.schemas.js';

/** Operators see every platform's endpoints and switch them off and on; each change is audited in its transaction. */
export function webhookOperatorRoutes(deps: {
  endpoints: WebhookEndpointsService;
  operatorAuth: OperatorHook;
  audit: Pick<AuditService, 'record'>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Operator'];

    r.get(
      '/operator/v1/webhook_endpoints',
      {
        onRequest: deps.operatorAuth,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'operatorListWebhookEndpoints',
          tags,
          security: OPERATOR_SECURITY,
          summary: 'Webhook endpoints of every platform (or of one)',
          querystring: OperatorListQuerySchema,
          response: { 200: Type.Array(OperatorWebhookEndpointSchema), ...errorResponses(401, 422) },
        },
      },
      async (request) => (await deps.endpoints.listAll(request.query.platform_id)).map(toOperatorEndpointView),
    );

    r.patch(
      '/operator/v1/webhook_endpoints/:id',
      {
        onRequest: deps.operatorAuth,
        schema: {
          operationId: 'operatorUpdateWebhookEndpoint',
          tags,
          security: OPERATOR_SECURITY,
          summary: 'Disable or enable a webhook endpoint',
          description:
            'Disabling records `reason` (or "disabled by an operator") as the endpoint\'s disabled reason; enabling forgets its failures. Audited.',
          params: EndpointParamsSchema,
          body: OperatorUpdateBodySchema,
          response: { 200: OperatorWebhookEndpointSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const operator = operatorPrincipalOf(request);
        const { status, reason } = request.body;
        const updated = await deps.endpoints.update(
          { operator: true },
          request.params.id,
          { status },
          {
            disabledReason: reason?.trim() || `disabled by an operator (${operator.name})`,
            inTransaction: (trx, before, after) =>
              deps.audit.record(trx, {
                operator,
                action: status === 'enabled' ? 'webhook_endpoint.enable' : 'webhook_endpoint.disable',
                subjectType: 'webhook_endpoint',
                subjectId: after.id,
                legalEntityId: null,
                details: { platform_id: after.platform_id, previous_status: before.status, ...(reason ? { reason } : {}) },
              }),
          },
        );
        return toOperatorEndpointView(updated);
      },
    );
  };
}
