import { Type, type TSchema, type Static } from 'typebox';

/** `T | null`, the shape pydantic's Optional[...] fields have in the reference documents. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A string enumeration with `type: string`, rendered in OpenAPI like the reference's enums. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { title?: string; description?: string; default?: T[number] } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An integer enumeration (e.g. month numbers). */
export function IntegerEnum<const T extends readonly number[]>(values: T, options: { title?: string; description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'integer', enum: [...values], ...options });
}

// Every string is bounded; these limits are generous for real data and stop abuse.
export const SHORT_TEXT = 200;
export const LONG_TEXT = 2000;

export const BoundedString = (maxLength = SHORT_TEXT, options: Record<string, unknown> = {}) => Type.String({ maxLength, ...options });

export const DateString = (options: { description?: string } = {}) => Type.String({ format: 'date', ...options });

export const EmailString = (options: { description?: string } = {}) => Type.String({ format: 'email', maxLength: 254, ...options });

/** An absolute http(s) URL (validated like pydantic's HttpUrl). */
export const HttpUrlString = (options: { description?: string } = {}) => Type.String({ format: 'http-url', ...options });

/**
 * Where a hosted page returns the user: an absolute URL, http(s) or an app's own scheme (myapp://done); never
 * javascript:, vbscript:, data:, file: (lib/callback-url.ts). The platform's registered origins are checked by the operation.
 */
export const CallbackUrlString = (options: { description?: string } = {}) => Type.String({ format: 'callback-url', ...options });

export const ValidationIssueSchema = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
    msg: Type.String(),
    type: Type.String(),
    input: Type.Optional(Type.Unknown()),
    ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'ValidationError' },
);

export const HTTPValidationErrorSchema = Type.Object(
  { detail: Type.Array(ValidationIssueSchema) },
  { title: 'HTTPValidationError', description: 'Request validation failed (FastAPI/pydantic v2 shape).' },
);

export const ErrorSchema = Type.Object({ detail: Type.String() }, { title: 'HTTPError' });

/** The /v2/signup family's error body. */
export const PlatformErrorSchema = Type.Object({ message: Type.String(), detail: Type.String() }, { title: 'PlatformHttpException' });

export const SessionResultSchema = Type.Object(
  {
    url: Type.String({ description: 'Single-use URL of the hosted page for the end user.' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { title: 'SessionResult' },
);

export type SessionResult = Static<typeof SessionResultSchema>;

/** Standard error responses for a route, for the OpenAPI document. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) out[status] = status === 422 ? HTTPValidationErrorSchema : ErrorSchema;
  return out;
}

/** `?verbose=true`: also return the resource (the reference's signup and auth operations). */
export const VerboseQuerySchema = Type.Object({
  verbose: Type.Optional(Type.Boolean({ default: false, description: 'Also return the legal entity in the response.' })),
});

/** The platform key header as the reference declares it on its API-key operations. */
export const AuthorizationHeaderSchema = Type.Object({
  authorization: Type.Optional(Nullable(Type.String({ description: 'The platform API key, raw or as `Bearer <key>`.' }))),
});
