import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses, Nullable } from '../../http/schemas.js';
import type { WebhookEndpointsService } from './webhook-endpoints.service.js';
import {
  CreateEndpointBodySchema,
  EndpointParamsSchema,
  RotatedSecretSchema,
  RotateSecretBodySchema,
  toEndpointView,
  UpdateEndpointBodySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks.schemas.js';

/** A platform's webhook endpoints, with its API key (docs/webhooks.md). */
export function webhookEndpointRoutes(deps: { endpoints: WebhookEndpointsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { endpoints } = deps;
    const common = { onRequest: deps.auth.apiKey };
    const tags = ['Webhooks'];
    const security = [{ apiKey: [] }];
    const one = { 200: WebhookEndpointSchema, ...errorResponses(401, 403, 404, 422) };

    r.post(
      '/v2/webhook_endpoints',
      {
        ...common,
        schema: {
          operationId: 'createWebhookEndpoint',
          tags,
          security,
          summary: 'Add a webhook endpoint',
          description:
            'Answers with the endpoint and its signing `secret`, which is never shown again (rotate it to get a new one). ' +
            'The URL must reach a public address (loopback, private and link-local destinations are refused after resolving the name).',
          body: CreateEndpointBodySchema,
          response: { 201: WebhookEndpointWithSecretSchema, ...errorResponses(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const { endpoint, secret } = await endpoints.create(platformOf(request).platformId, request.body);
        return reply.code(201).send({ ...toEndpointView(endpoint), secret });
      },
    );

    r.get(
      '/v2/webhook_endpoints',
      {
        ...common,
        schema: {
          operationId: 'listWebhookEndpoints',
          tags,
          security,
          summary: "The platform's webhook endpoints (oldest first)",
          response: { 200: Type.Array(WebhookEndpointSchema), ...errorResponses(401, 403) },
        },
      },
      async (request) => (await endpoints.list(platformOf(request).platformId)).map(toEndpointView),
    );

    r.get(
      '/v2/webhook_endpoints/:id',
      {
        ...common,
        schema: {
          operationId: 'getWebhookEndpoint',
          tags,
          security,
          summary: 'One webhook endpoint',
          params: EndpointParamsSchema,
          response: one,
        },
      },
      async (request) => toEndpointView(await endpoints.get(platformOf(request).platformId, request.params.id)),
    );

    r.patch(
      '/v2/webhook_endpoints/:id',
      {
        ...common,
        schema: {
          operationId: 'updateWebhookEndpoint',
          tags,
          security,
          summary: 'Change a webhook endpoint',
          description:
            'Only the fields sent change. `event_types: null` subscribes to every type. `status: enabled` re-enables an endpoint ' +
            'that was disabled (by failures or by hand) and forgets its failures; `disabled` stops deliveries to it.',
          params: EndpointParamsSchema,
          body: UpdateEndpointBodySchema,
          response: one,
        },
      },
      async (request) => {
        const updated = await endpoints.update({ platformId: platformOf(request).platformId }, request.params.id, request.body, {
          disabledReason: 'disabled through the API',
        });
        return toEndpointView(updated);
      },
    );

    r.delete(
      '/v2/webhook_endpoints/:id',
      {
        ...common,
        schema: {
          operationId: 'deleteWebhookEndpoint',
          tags,
          security,
          summary: 'Delete a webhook endpoint',
          description: 'Its pending deliveries are not attempted any more.',
          params: EndpointParamsSchema,
          response: { 204: Type.Null({ description: 'Deleted (no body).' }), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        await endpoints.remove({ platformId: platformOf(request).platformId }, request.params.id);
        return reply.code(204).send(null);
      },
    );

    r.post(
      '/v2/webhook_endpoints/:id/secret/rotate',
      {
        ...common,
        schema: {
          operationId: 'rotateWebhookEndpointSecret',
          tags,
          security,
          summary: 'Rotate the signing secret',
          description:
            'Answers with the new secret (shown only here). Until `previous_secret_expires_at` deliveries carry a signature by ' +
            'each secret, so receivers can switch without missing one. The body may be empty.',
          params: EndpointParamsSchema,
          body: Type.Optional(Nullable(RotateSecretBodySchema)),
          response: { 200: RotatedSecretSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const rotated = await endpoints.rotateSecret(
          platformOf(request).platformId,
          request.params.id,
          request.body?.expire_previous_after_seconds,
        );
        return {
          ...toEndpointView(rotated.endpoint),
          secret: rotated.secret,
          previous_secret_expires_at: rotated.previousExpiresAt.toISOString(),
        };
      },
    );
  };
}
