import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses, PlatformErrorSchema } from '../../http/schemas.js';
import type { AttemptRow, DeliveryRow } from './webhook-deliveries.repository.js';
import {
  DeliveryParamsSchema,
  EndpointParamsSchema,
  ListDeliveriesQuerySchema,
  WebhookDeliverySchema,
  WebhookDeliveryWithAttemptsSchema,
} from './webhook-deliveries.schemas.js';
import type { WebhookDeliveriesService } from './webhook-deliveries.service.js';

const errors = { 401: PlatformErrorSchema, 404: PlatformErrorSchema, 409: PlatformErrorSchema, ...errorResponses(422) };

const toDelivery = (row: DeliveryRow) => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_type: row.event_type,
  status: row.status,
  attempt_count: row.attempts,
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

const toAttempt = (row: AttemptRow) => ({ ...row, attempted_at: row.attempted_at.toISOString() });

/** A webhook endpoint's deliveries and their attempts, and manual redelivery (platform API key). */
export function webhookDeliveriesRoutes(deps: { deliveries: WebhookDeliveriesService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { deliveries } = deps;
    const common = { onRequest: deps.auth.apiKey, config: { errorStyle: 'platform' as const } };
    const tags = ['Webhooks'];
    const security = [{ apiKey: [] }];

    r.get(
      '/v2/webhook_endpoints/:endpoint_id/deliveries',
      {
        ...common,
        config: { ...common.config, inputAt: 'query' as const },
        schema: {
          operationId: 'listWebhookDeliveries',
          tags,
          security,
          summary: "An endpoint's deliveries, newest first",
          description:
            'Paginated with `starting_after` and `limit`. Headers: X-Page-Size and, when there is a next page, X-Next-Page (its URL) and a Link header with rel="next".',
          params: EndpointParamsSchema,
          querystring: ListDeliveriesQuerySchema,
          response: { 200: Type.Array(WebhookDeliverySchema), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const limit = q.limit ?? 50;
        const page = await deliveries.list(platformOf(request).platformId, request.params.endpoint_id, {
          limit,
          ...(q.status && { status: q.status }),
          ...(q.starting_after && { startingAfter: q.starting_after }),
        });
        reply.header('x-page-size', String(limit));
        if (page.nextStartingAfter) {
          const next = new URL(request.url, 'http://localhost');
          next.searchParams.set('starting_after', page.nextStartingAfter);
          next.searchParams.set('limit', String(limit));
          reply.header('x-next-page', `${next.pathname}${next.search}`);
          reply.header('link', `<${next.pathname}${next.search}>; rel="next"`);
        }
        return page.items.map(toDelivery);
      },
    );

    r.get(
      '/v2/webhook_endpoints/:endpoint_id/deliveries/:delivery_id',
      {
        ...common,
        schema: {
          operationId: 'getWebhookDelivery',
          tags,
          security,
          summary: 'One delivery and every attempt of it',
          params: DeliveryParamsSchema,
          response: { 200: WebhookDeliveryWithAttemptsSchema, ...errors },
        },
      },
      async (request) => {
        const { delivery, attempts } = await deliveries.get(
          platformOf(request).platformId,
          request.params.endpoint_id,
          request.params.delivery_id,
        );
        return { ...toDelivery(delivery), attempts: attempts.map(toAttempt) };
      },
    );

    r.post(
      '/v2/webhook_endpoints/:endpoint_id/deliveries/:delivery_id/redeliver',
      {
        ...common,
        schema: {
          operationId: 'redeliverWebhookDelivery',
          tags,
          security,
          summary: 'Attempt a delivery again now',
          description:
            'For a delivery that succeeded or failed: one more attempt (trigger `manual`) is queued at once. 409 while automatic attempts remain or when the endpoint is disabled.',
          params: DeliveryParamsSchema,
          response: { 202: WebhookDeliverySchema, ...errors },
        },
      },
      async (request, reply) => {
        const delivery = await deliveries.redeliver(platformOf(request).platformId, request.params.endpoint_id, request.params.delivery_id);
        return reply.code(202).send(toDelivery(delivery));
      },
    );

    r.post(
      '/v2/webhook_endpoints/:endpoint_id/test',
      {
        ...common,
        schema: {
          operationId: 'sendWebhookEndpointTestEvent',
          tags,
          security,
          summary: 'Send a test event to this endpoint',
          description:
            'Records a delivery of one `webhook_endpoint.test` event (`data.object`: the endpoint id and URL) to this endpoint only, ' +
            'signed and retried like every delivery, and answers with it (pending). It appears in the endpoint’s deliveries; it is not ' +
            'in GET /v2/events and no other endpoint receives it. 409 when the endpoint is disabled. No body.',
          params: EndpointParamsSchema,
          response: { 202: WebhookDeliverySchema, ...errors },
        },
      },
      async (request, reply) => {
        const delivery = await deliveries.sendTest(platformOf(request).platformId, request.params.endpoint_id);
        return reply.code(202).send(toDelivery(delivery));
      },
    );
  };
}
