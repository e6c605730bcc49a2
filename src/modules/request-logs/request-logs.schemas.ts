// GET /v2/request_logs and GET /v2/request_logs/{id}: the query, the path parameter and the log as the API shows it.
import { Type } from 'typebox';
import { BoundedString, Nullable, StringEnum } from '../../http/schemas.js';

export const MAX_REQUEST_LOGS_PAGE = 1000;
export const DEFAULT_REQUEST_LOGS_PAGE = 100;
export const LOGGED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const ListRequestLogsQuerySchema = Type.Object({
  status: Type.Optional(BoundedString(3, { description: 'A status code (`404`) or a class (`4xx`, `5xx`).', examples: ['4xx'] })),
  method: Type.Optional(StringEnum(LOGGED_METHODS, { description: 'Only requests with this method.' })),
  path: Type.Optional(
    BoundedString(2048, {
      description: 'Only requests with this path (`/v2/tasks/task_…`) or route pattern (`/v2/tasks/{task_id}`), exactly; no query string.',
    }),
  ),
  legal_entity_id: Type.Optional(BoundedString(64, { description: 'Only requests about this legal entity.' })),
  request_id: Type.Optional(BoundedString(128, { description: 'The request with this `X-Request-Id`.' })),
  idempotency_key: Type.Optional(BoundedString(255, { description: 'Only requests sent with this `Idempotency-Key`.' })),
  created_after: Type.Optional(
    BoundedString(40, { description: 'Only requests answered after this time (ISO 8601 with offset, or a date: its midnight UTC).' }),
  ),
  created_before: Type.Optional(BoundedString(40, { description: 'Only requests answered before this time.' })),
  starting_after: Type.Optional(
    BoundedString(64, { description: 'The last log of the previous page (X-Next-Page gives the whole next URL).' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_REQUEST_LOGS_PAGE, default: DEFAULT_REQUEST_LOGS_PAGE, description: 'Logs per page.' }),
  ),
});

export const RequestLogParamsSchema = Type.Object({ request_log_id: BoundedString(64, { description: 'The log (`req_…`).' }) });

export const RequestLogSchema = Type.Object(
  {
    id: Type.String({ description: 'The log (`req_…`).' }),
    created_at: Type.String({ format: 'date-time', description: 'When the response was sent.' }),
    method: Type.String(),
    path: Type.String({ description: 'The path requested, without the query string.' }),
    route: Nullable(Type.String({ description: 'The route pattern, e.g. `/v2/tasks/{task_id}`.' })),
    status: Type.Integer(),
    duration_ms: Type.Number({ description: 'From the request’s arrival to the response’s end, in milliseconds.' }),
    request_id: Type.String({ description: 'The `X-Request-Id` of the response (the caller’s when it sent an acceptable one).' }),
    idempotency_key: Nullable(Type.String()),
    legal_entity_id: Nullable(Type.String({ description: 'The entity of the token, else the one the request named.' })),
    api_key_id: Nullable(Type.String({ description: 'The API key used (null for an entity token).' })),
    error: Nullable(
      Type.Unknown({
        description:
          'For a 4xx or 5xx: the error body as sent, with every sensitive value redacted (docs/request-logs.md). Null for a success: request and response bodies of successful requests are never kept.',
      }),
    ),
  },
  { title: 'RequestLog' },
);
