/** One validation issue (pydantic's shape). */
export interface Issue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/**
 * The validation issues of a 422 body, whichever shape the operation uses: `detail` (FastAPI's
 * HTTPValidationError, the /v2/signup family) or `errors` (where the reference gives the 422 as
 * PlatformHttpException and `detail` is one sentence: /v2/regions, PATCH /v2/tasks…, /v2/tasks/manage/session).
 */
export function issuesOf(body: { detail?: unknown; errors?: unknown }): Issue[] {
  if (Array.isArray(body.detail)) return body.detail as Issue[];
  if (typeof body.detail === 'string' && Array.isArray(body.errors)) return body.errors as Issue[];
  throw new Error(`not a 422 body: ${JSON.stringify(body).slice(0, 200)}`);
}
