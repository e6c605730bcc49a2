// Paging: the /v2 listings answer a page and, while more follow, `X-Next-Page` (the next page's path and query;
// also `Link: <…>; rel="next"`). `paginate` yields every item of every page, following X-Next-Page until it is absent.
import type { StatehouseApi } from './client.js';
import type { paths } from './generated/schema.js';

/** The paged listings: GET /v2/tasks (page_num, page_size) and GET /v2/events (starting_after, limit). */
export type PagedPath = '/v2/tasks' | '/v2/events';

type Get<P extends PagedPath> = paths[P]['get'];
/** The query of a paged listing (filters and the first page's size). */
export type PageQuery<P extends PagedPath> = NonNullable<Get<P>['parameters']['query']>;
/** One item of a paged listing. */
export type PageItem<P extends PagedPath> = Get<P>['responses'][200]['content']['application/json'][number];

/** The response header that carries the next page's path and query. */
export const NEXT_PAGE_HEADER = 'x-next-page';

/** The query of an X-Next-Page value, repeated names as arrays (e.g. `type=a&type=b`). */
function queryOf(next: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(next, 'http://next.invalid').searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/**
 * Every item of a /v2 listing, page after page: `for await (const task of paginate(entity, '/v2/tasks', { page_size: 100 }))`.
 * Pages are fetched as the loop reaches them; `break` stops fetching.
 */
export async function* paginate<P extends PagedPath>(
  client: StatehouseApi,
  path: P,
  query?: PageQuery<P>,
): AsyncGenerator<PageItem<P>, void, undefined> {
  // The path is one of two; openapi-fetch's per-path overloads cannot be chosen by a type parameter.
  const get = client.GET as unknown as (
    path: PagedPath,
    init: { params: { query?: unknown } },
  ) => Promise<{ data?: PageItem<P>[]; response: Response }>;
  let params: { query?: unknown } = query ? { query } : {};
  for (;;) {
    const { data, response } = await get(path, { params });
    yield* data ?? [];
    const next = response.headers.get(NEXT_PAGE_HEADER);
    if (!next) return;
    params = { query: queryOf(next) };
  }
}
