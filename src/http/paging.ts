// The paging headers of the /v2 list operations (GET /v2/tasks, GET /v2/events): every wire name in one place.
export const PAGE_HEADERS = {
  size: 'x-page-size',
  page: 'x-page',
  total: 'x-total',
  next: 'x-next-page',
  link: 'link',
} as const;

/**
 * The names the reference v2 document gives GET /v2/tasks's paging headers (its description of
 * List_Tasks_v2_tasks_get), vendor prefix and all: clients written against it read exactly these.
 * GET /v2/tasks sends them beside PAGE_HEADERS, with the same values.
 */
export const REFERENCE_TASK_PAGE_HEADERS = {
  size: 'x-mosey-page-size',
  page: 'x-mosey-page',
  total: 'x-mosey-total',
  next: 'x-mosey-next-page',
} as const;

/** X-Next-Page (the next page's path and query) and its Link rel="next", from the request's URL with `params` set. */
export function nextPageHeaders(requestUrl: string, params: Record<string, string>): Record<string, string> {
  const next = new URL(requestUrl, 'http://localhost');
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  const url = `${next.pathname}${next.search}`;
  return { [PAGE_HEADERS.next]: url, [PAGE_HEADERS.link]: `<${url}>; rel="next"` };
}

/** GET /v2/tasks's headers: page size, page, total and the next page's URL, under both sets of names. */
export function taskPageHeaders(requestUrl: string, page: { size: number; number: number; total: number }): Record<string, string> {
  const values: Record<'size' | 'page' | 'total', string> = {
    size: String(page.size),
    page: String(page.number),
    total: String(page.total),
  };
  const headers: Record<string, string> = {};
  for (const name of ['size', 'page', 'total'] as const) {
    headers[PAGE_HEADERS[name]] = values[name];
    headers[REFERENCE_TASK_PAGE_HEADERS[name]] = values[name];
  }
  if (page.number * page.size < page.total) {
    const next = nextPageHeaders(requestUrl, { page_num: String(page.number + 1), page_size: String(page.size) });
    Object.assign(headers, next, { [REFERENCE_TASK_PAGE_HEADERS.next]: next[PAGE_HEADERS.next] });
  }
  return headers;
}

const integer = (description: string) => ({ type: 'integer', description });
const path = (description: string) => ({ type: 'string', description });

/** GET /v2/tasks's headers for its 200 in the OpenAPI document (`headers` of a response schema). */
export const TASK_PAGE_HEADER_DOCS: Record<string, { type: string; description: string }> = {
  'X-Page-Size': integer('The page size asked for (page_size, default 50)'),
  'X-Page': integer("This page's number (page_num, from 1)"),
  'X-Total': integer('How many tasks match the filters, on every page'),
  'X-Next-Page': path("The next page's path and query; absent on the last page"),
  Link: path('`<next page>; rel="next"`; absent on the last page'),
  'X-Mosey-Page-Size': integer("X-Page-Size under the reference interface's name"),
  'X-Mosey-Page': integer("X-Page under the reference interface's name"),
  'X-Mosey-Total': integer("X-Total under the reference interface's name"),
  'X-Mosey-Next-Page': path("X-Next-Page under the reference interface's name"),
};
