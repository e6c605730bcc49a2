import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { pathFamilyOf } from './error-shapes.js';
import { UNLIMITED_ROUTES } from './rate-limits.js';
import { ErrorSchema, HTTPValidationErrorSchema, PlatformErrorSchema, ValidationIssueSchema } from './schemas.js';

/** A 422 of the /v2/signup family (the reference's PlatformSignupRequestValidationException). */
export const PlatformSignupValidationErrorSchema = Type.Object(
  {
    message: Type.String(),
    detail: Type.Array(ValidationIssueSchema),
    body: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: 'The request body as received (null when it was not an object or holds secrets).',
    }),
  },
  { title: 'PlatformSignupRequestValidationException' },
);

/** A 422 where the reference v2 document says PlatformHttpException: `detail` is one sentence, `errors` the usual items. */
export const PlatformValidationErrorSchema = Type.Object(
  {
    message: Type.String({ description: '"Validation error".' }),
    detail: Type.String({ description: 'The issues as `<loc joined by dots>: <msg>`, separated by "; "; after five, "; and N more".' }),
    errors: Type.Array(ValidationIssueSchema, { description: 'The issues, in the shape of every other 422 `detail`.' }),
  },
  { title: 'PlatformHttpValidationException' },
);

const WHY: Record<number, string> = {
  401: 'Missing, malformed, tampered or expired credentials (`WWW-Authenticate: Bearer`)',
  403: 'The API key is revoked',
  404: "Not found, or another tenant's",
  409: 'Conflicts with the current state',
  413: 'The request body is over the limit',
  422: 'The request failed validation',
  429: 'Too many requests (`Retry-After` says when to retry)',
  503: 'Temporarily unavailable: database unreachable, overloaded or shutting down (`Retry-After`)',
};

type Schema = RouteOptions['schema'] & {
  hide?: boolean;
  security?: Record<string, unknown>[];
  response?: Record<string | number, TSchema>;
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Which error statuses an operation can send, from what the route is: credentials (401; a platform key
 * also 403), inputs (422: path, query, header or body; every POST and PATCH takes an Idempotency-Key header),
 * a body (413), the rate limits (429) and the database, load shedding and shutdown (503). 404 and 409 depend
 * on the operation's rules, so each route declares those itself.
 */
export function errorStatusesOf(route: { method: string | string[]; url: string; schema?: Schema }): number[] {
  const schema = route.schema ?? {};
  const methods = [route.method].flat();
  const security = schema.security ?? [];
  const statuses = new Set<number>([503]);
  if (security.length > 0) statuses.add(401);
  if (security.some((requirement) => 'apiKey' in requirement)) statuses.add(403);
  const takesBody = methods.some((method) => BODY_METHODS.has(method));
  if (schema.params || schema.querystring || schema.headers || schema.body || takesBody) statuses.add(422);
  if (takesBody) statuses.add(413);
  if (!UNLIMITED_ROUTES.has(route.url)) statuses.add(429);
  return [...statuses].sort();
}

/** The body an error status has on this route: 401 by path family, 422 by the route's validation shape, the rest by its error style. */
export function errorBodyOf(status: number, route: { url: string; config?: RouteOptions['config'] }): TSchema {
  const config = route.config as { errorStyle?: 'platform'; validationShape?: 'PlatformHttpException' } | undefined;
  if (status === 422) {
    if (config?.validationShape === 'PlatformHttpException') return PlatformValidationErrorSchema;
    return config?.errorStyle === 'platform' ? PlatformSignupValidationErrorSchema : HTTPValidationErrorSchema;
  }
  const platform = status === 401 ? pathFamilyOf(route.url) === 'v2' : config?.errorStyle === 'platform';
  return platform ? PlatformErrorSchema : ErrorSchema;
}

const described = (schema: TSchema, status: number): TSchema => ({
  ...schema,
  description: WHY[status] ?? (schema as { description?: string }).description,
});

/**
 * The one place the OpenAPI document's error responses come from: every documented route gets the statuses
 * `errorStatusesOf` finds, with the body each has on that route, and a description per status.
 * Registered before the routes (an onRoute hook).
 */
export function documentErrorResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    if (!schema || schema.hide) return;
    // Routes often share one response map (`const errors = {...}`): each gets its own copy to complete.
    const response = { ...schema.response };
    route.schema = { ...schema, response };
    const statuses = new Set([
      ...errorStatusesOf({ ...route, schema }),
      ...Object.keys(response)
        .map(Number)
        .filter((s) => s >= 400),
    ]);
    for (const status of statuses) {
      // 401 and 422 have their shape from the path family and the route's config, whatever a route declared; for
      // the others a route's own declaration wins (a signup 409 is always {message, detail}; GET /readyz's 503).
      const own = status === 401 || status === 422 ? undefined : response[status];
      response[status] = described(own ?? errorBodyOf(status, route), status);
    }
  });
}
