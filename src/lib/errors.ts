/** One error in pydantic v2's shape, as FastAPI renders it in a 422 `detail` array. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** An error with an HTTP status; services throw these and one handler renders them. */
export class HttpError extends Error {
  /** Set to render as `{message, detail}` whatever the route's default style. */
  readonly style?: 'platform';

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(detail: string, scheme: 'Bearer' | 'ApiKey' = 'Bearer') {
    super(401, detail, { 'www-authenticate': scheme === 'Bearer' ? 'Bearer' : 'Bearer realm="api-key"' });
  }
}

export class ForbiddenError extends HttpError {
  constructor(detail: string) {
    super(403, detail);
  }
}

export class NotFoundError extends HttpError {
  constructor(detail: string) {
    super(404, detail);
  }
}

export class ConflictError extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}

/** A 409 of the signup operations, which the reference renders as `{message, detail}` on every path family. */
export class SignupConflictError extends ConflictError {
  override readonly style = 'platform';
}

/** A 422 in FastAPI's shape: `{"detail": [ValidationIssue, ...]}`. */
export class RequestValidationError extends Error {
  constructor(
    readonly issues: ValidationIssue[],
    /** The request body as received, echoed by the /v2/signup error shape. */
    readonly body: unknown = null,
  ) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

/**
 * A 422 for one field that the schema accepted but a rule rejects, in pydantic's `value_error` shape
 * (what a FastAPI validator raising ValueError produces). `body` is echoed by the /v2/signup style.
 */
export function fieldError(loc: (string | number)[], message: string, input: unknown, body: unknown = null): RequestValidationError {
  return new RequestValidationError([{ type: 'value_error', loc, msg: `Value error, ${message}`, input, ctx: { error: message } }], body);
}

/**
 * A domain rule rejected one fact of an operation's input. Services throw it naming the fact by its
 * path inside the input (e.g. `['config', 'has_employees']`), never by a request part: the HTTP edge
 * places it (`config.inputAt` of the route, default the body) and renders pydantic's `value_error`.
 */
export class InvalidInputError extends Error {
  constructor(
    readonly path: (string | number)[],
    readonly reason: string,
    readonly input: unknown,
  ) {
    super(reason);
    this.name = 'InvalidInputError';
  }
}

/** Several facts of one input rejected together (e.g. the fields of a form): one 422 listing each, in order. */
export class InvalidInputsError extends Error {
  constructor(readonly errors: InvalidInputError[]) {
    super(errors.map((e) => e.reason).join('; '));
    this.name = 'InvalidInputsError';
  }
}
