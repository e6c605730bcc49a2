import type { ValidationIssue } from '../lib/errors.js';

/** The path families; each has one 401 body shape (docs/errors.md, "One 401 per path family"). */
export type PathFamily = 'v2' | 'operator' | 'hosted' | 'unversioned';

export function pathFamilyOf(url: string): PathFamily {
  if (url === '/v2' || url.startsWith('/v2/')) return 'v2';
  if (url === '/operator' || url.startsWith('/operator/')) return 'operator';
  if (url.startsWith('/hosted/')) return 'hosted';
  return 'unversioned';
}

/** /v2 answers `{message, detail}` (the reference's PlatformHttpException); the others FastAPI's `{detail}`. Hosted pages render HTML. */
export function unauthorizedStyle(url: string): 'platform' | undefined {
  return pathFamilyOf(url) === 'v2' ? 'platform' : undefined;
}

const SUMMARISED_ISSUES = 5;

/**
 * One sentence for a 422 whose `detail` must be a string: each issue as `<where>: <message>`
 * (e.g. `body.employee_count: Input should be a valid integer`), the first few, then how many more.
 */
export function summariseIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, SUMMARISED_ISSUES).map((issue) => `${issue.loc.join('.')}: ${issue.msg}`);
  const more = issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
