// The paging headers of the /v2 list operations (GET /v2/tasks, GET /v2/events): the names in one place.
export const PAGE_HEADERS = {
  size: 'x-page-size',
  page: 'x-page',
  total: 'x-total',
  next: 'x-next-page',
  link: 'link',
} as const;

/** X-Next-Page (the next page's path and query) and its Link rel="next", from the request's URL with `params` set. */
export function nextPageHeaders(requestUrl: string, params: Record<string, string>): Record<string, string> {
  const next = new URL(requestUrl, 'http://localhost');
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  const url = `${next.pathname}${next.search}`;
  return { [PAGE_HEADERS.next]: url, [PAGE_HEADERS.link]: `<${url}>; rel="next"` };
}
