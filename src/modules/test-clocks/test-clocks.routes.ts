import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import type { TestClocksService } from './test-clocks.service.js';
import {
  AdvanceTestClockBodySchema,
  CreateTestClockBodySchema,
  TestClockListSchema,
  TestClockParamsSchema,
  TestClockSchema,
  toTestClockView,
} from './test-clocks.schemas.js';

const REFUSED = ' Refused with 403 in production.';

/** POST/GET /v2/test_clocks, GET/DELETE /v2/test_clocks/{id}, POST /v2/test_clocks/{id}/advance: the platform's API key. */
export function testClockRoutes(deps: { clocks: TestClocksService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { clocks } = deps;
    const common = { onRequest: deps.auth.apiKey };
    const tags = ['Test clocks'];
    const security = [{ apiKey: [] }];

    r.post(
      '/v2/test_clocks',
      {
        ...common,
        schema: {
          operationId: 'createTestClock',
          tags,
          security,
          summary: 'Give one entity its own clock (development and sandbox)',
          description:
            "From now on every date decision about the entity reads the clock's frozen_time, not the server's clock: its planning, " +
            'overdue tasks, task ordering and its roll-forward (docs/test-clocks.md). One clock per entity (409 on a second).' +
            REFUSED,
          body: CreateTestClockBodySchema,
          response: { 201: TestClockSchema, ...errorResponses(401, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => reply.code(201).send(toTestClockView(await clocks.create(platformOf(request).platformId, request.body))),
    );

    r.get(
      '/v2/test_clocks',
      {
        ...common,
        schema: {
          operationId: 'listTestClocks',
          tags,
          security,
          summary: "The platform's test clocks (oldest first)",
          description: REFUSED.trim(),
          response: { 200: TestClockListSchema, ...errorResponses(401, 403) },
        },
      },
      async (request) => ({ data: (await clocks.list(platformOf(request).platformId)).map(toTestClockView) }),
    );

    r.get(
      '/v2/test_clocks/:id',
      {
        ...common,
        schema: {
          operationId: 'getTestClock',
          tags,
          security,
          summary: 'One test clock',
          description: REFUSED.trim(),
          params: TestClockParamsSchema,
          response: { 200: TestClockSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => toTestClockView(await clocks.get(platformOf(request).platformId, request.params.id)),
    );

    r.post(
      '/v2/test_clocks/:id/advance',
      {
        ...common,
        schema: {
          operationId: 'advanceTestClock',
          tags,
          security,
          summary: "Move the entity's clock forward",
          description:
            'Forward only, at most 24 months per call (422 otherwise). The entity is re-planned on every day its plan changes on ' +
            'between the two times, then at `to`, as the daily roll-forward would have: tasks appear, due dates pass, and the task ' +
            'events go out through the event log and webhooks. Answers when done.' +
            REFUSED,
          params: TestClockParamsSchema,
          body: AdvanceTestClockBodySchema,
          response: { 200: TestClockSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => toTestClockView(await clocks.advance(platformOf(request).platformId, request.params.id, request.body.to)),
    );

    r.delete(
      '/v2/test_clocks/:id',
      {
        ...common,
        schema: {
          operationId: 'deleteTestClock',
          tags,
          security,
          summary: 'Real time again for the entity',
          description: 'The clock goes and the entity is re-planned on the real date.' + REFUSED,
          params: TestClockParamsSchema,
          response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await clocks.remove(platformOf(request).platformId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
