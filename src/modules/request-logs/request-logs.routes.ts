import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { nextPageHeaders, PAGE_HEADERS } from '../../http/paging.js';
import { errorResponses } from '../../http/schemas.js';
import { NotFoundError } from '../../lib/errors.js';
import type { RequestLogsService } from './contract.js';
import { parseStatusFilter, parseTime } from './request-logs.fns.js';
import { DEFAULT_REQUEST_LOGS_PAGE, ListRequestLogsQuerySchema, RequestLogParamsSchema, RequestLogSchema } from './request-logs.schemas.js';

export interface RequestLogRoutesDeps {
  logs: RequestLogsService;
  auth: AuthHooks;
}

const tags = ['Request logs'];
const security = [{ apiKey: [] }];

export function requestLogRoutes(deps: RequestLogRoutesDeps) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(
      '/v2/request_logs',
      {
        onRequest: deps.auth.apiKey,
        config: { inputAt: 'query', unlogged: true },
        schema: {
          operationId: 'listRequestLogs',
          tags,
          security,
          summary: "The platform's API requests, newest first",
          description:
            'Every request made with the platform’s API keys or its entities’ tokens (docs/request-logs.md), kept REQUEST_LOGS_RETENTION_DAYS (14). ' +
            'A request appears within about a second of its response. Page with `starting_after` (the last log id you read): X-Next-Page ' +
            '(the next URL) and a Link rel="next" header are present when more logs follow; X-Page-Size is the limit.',
          querystring: ListRequestLogsQuerySchema,
          response: { 200: Type.Array(RequestLogSchema), ...errorResponses(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const limit = q.limit ?? DEFAULT_REQUEST_LOGS_PAGE;
        const page = await deps.logs.list(platformOf(request).platformId, {
          status: q.status === undefined ? undefined : parseStatusFilter(q.status),
          method: q.method,
          path: q.path,
          legalEntityId: q.legal_entity_id,
          requestId: q.request_id,
          idempotencyKey: q.idempotency_key,
          createdAfter: q.created_after === undefined ? undefined : parseTime('created_after', q.created_after),
          createdBefore: q.created_before === undefined ? undefined : parseTime('created_before', q.created_before),
          startingAfter: q.starting_after,
          limit,
        });
        const last = page.logs.at(-1);
        reply.headers({
          [PAGE_HEADERS.size]: String(limit),
          ...(page.hasMore && last && nextPageHeaders(request.url, { starting_after: last.id, limit: String(limit) })),
        });
        return page.logs;
      },
    );

    r.get(
      '/v2/request_logs/:request_log_id',
      {
        onRequest: deps.auth.apiKey,
        config: { unlogged: true },
        schema: {
          operationId: 'getRequestLog',
          tags,
          security,
          summary: 'One request log',
          params: RequestLogParamsSchema,
          response: { 200: RequestLogSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const log = await deps.logs.get(platformOf(request).platformId, request.params.request_log_id);
        if (!log) throw new NotFoundError(`Request log '${request.params.request_log_id}' not found`);
        return log;
      },
    );
  };
}
