import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { ConnectionParamsSchema, ConnectionSchema, ConnectRequestSchema, ConnectSessionSchema } from './connections.schemas.js';
import type { ConnectionsService } from './contract.js';

/** POST /accounts/connect, GET /accounts/connections/{id} and its cancel: connect an agency account, read a connection, cancel it (see docs/connections.md). */
export function connectionRoutes(deps: { connections: ConnectionsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.auth.bearer };
    const tags = ['Connections'];
    const security = [{ bearer: [] }];

    r.post(
      '/accounts/connect',
      {
        ...common,
        schema: {
          operationId: 'connectAccount',
          tags,
          security,
          summary: 'Connect an agency account',
          description:
            'Returns a hosted connect page (`connect_url`, single use) where the person enters the agency portal credentials, and the ' +
            'connection. While the account has a pending, authenticating or registering connection, that one is returned with a fresh link ' +
            "(idempotent). `legal_entity_id` must be the access token's entity (any other is a 404).",
          body: ConnectRequestSchema,
          response: { 200: ConnectSessionSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => deps.connections.connect(scopeOf(request), request.body),
    );

    r.get(
      '/accounts/connections/:connection_id',
      {
        ...common,
        schema: {
          operationId: 'getAccountConnection',
          tags,
          security,
          summary: 'A connection and its current status',
          description: '`account` is null until the agency account has been read by a connection (status `connected`).',
          params: ConnectionParamsSchema,
          response: { 200: ConnectionSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => deps.connections.get(scopeOf(request), request.params.connection_id),
    );

    r.post(
      '/accounts/connections/:connection_id/cancel',
      {
        ...common,
        schema: {
          operationId: 'cancelAccountConnection',
          tags,
          security,
          summary: 'Cancel a pending, authenticating or registering connection',
          description: 'Returns the canceled connection. From connected, disconnected or canceled: 409 and nothing changes.',
          params: ConnectionParamsSchema,
          response: { 200: ConnectionSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => deps.connections.cancel(scopeOf(request), request.params.connection_id),
    );
  };
}
