import type { FastifyRequest } from 'fastify';
import { RequestValidationError } from '../lib/errors.js';
import { RawBody } from './body-parsers.js';
import { compile, type SchemaNode, type ValidationIssue } from './validation/validator.js';

/**
 * Validates a request the way FastAPI does: every part (path, query, header, body)
 * in that order, all issues collected into one 422, values coerced in pydantic's lax mode.
 * Fastify's own validator is switched off (see app.ts); the TypeBox schemas on each
 * route stay the single source for this, for serialization and for the OpenAPI document.
 */
export async function validateRequest(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as Record<string, SchemaNode | undefined> | undefined;
  if (!schema) return;
  const issues: ValidationIssue[] = [];
  const received = request.body instanceof RawBody ? null : request.body;
  if (schema.params) request.params = compile(schema.params)(request.params, ['path'], issues);
  if (schema.querystring) request.query = compile(schema.querystring)(normaliseQuery(request.query, schema.querystring), ['query'], issues);
  if (schema.headers) compile(schema.headers)(request.headers, ['header'], issues);
  if (schema.body) {
    const raw = request.body instanceof RawBody ? request.body.text : request.body;
    const optional = schema.body.anyOf?.some((option) => option.type === 'null') ?? false;
    if (raw === undefined || raw === null) {
      if (!optional) issues.push({ type: 'missing', loc: ['body'], msg: 'Field required', input: null });
      request.body = null;
    } else {
      request.body = compile(schema.body)(raw, ['body'], issues);
    }
  }
  if (issues.length > 0) {
    const secrets = request.routeOptions.config?.secretInputs;
    if (secrets) redactSecretInputs(issues, secrets);
    throw new RequestValidationError(issues, secrets ? null : (received ?? null));
  }
}

const isPrefix = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.length <= b.length && a.every((part, i) => part === b[i]);

/** An issue inside a secret part, or about a part that contains one, keeps its location but not its value. */
function redactSecretInputs(issues: ValidationIssue[], secretPaths: (string | number)[][]): void {
  for (const issue of issues) {
    if (secretPaths.some((path) => isPrefix(path, issue.loc) || isPrefix(issue.loc, path))) issue.input = '[redacted]';
  }
}

/** A list parameter given once arrives as a string; a scalar given twice as a list. */
function normaliseQuery(query: unknown, schema: SchemaNode): unknown {
  if (typeof query !== 'object' || query === null) return query;
  const out: Record<string, unknown> = { ...(query as Record<string, unknown>) };
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const isList = node.type === 'array' || node.anyOf?.some((option) => option.type === 'array');
    if (isList && typeof out[name] === 'string') out[name] = [out[name]];
    // A scalar given several times: Starlette (and so FastAPI) takes the last one.
    else if (!isList && Array.isArray(out[name])) out[name] = (out[name] as unknown[]).at(-1);
  }
  return out;
}
