import type { FastifyInstance } from 'fastify';

export interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  legal_entity_id: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads are read loosely; their shapes are the API's
  data: { object: Record<string, any>; changed?: string[] };
}

/** Every event GET /v2/events lists now for the key (following X-Next-Page), and the pages' sizes. */
export async function listAllEvents(
  app: FastifyInstance,
  apiKey: string,
  query = '',
  limit = 100,
): Promise<{ events: ListedEvent[]; pages: number[] }> {
  const events: ListedEvent[] = [];
  const pages: number[] = [];
  let url: string | undefined = `/v2/events?limit=${limit}${query ? `&${query}` : ''}`;
  while (url) {
    const response = await app.inject({ url, headers: { authorization: apiKey } });
    if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
    const page = response.json() as ListedEvent[];
    events.push(...page);
    pages.push(page.length);
    url = response.headers['x-next-page'] as string | undefined;
  }
  return { events, pages };
}

/**
 * Events become listable once no older transaction is running (anywhere on the server: other test files' too),
 * so a test waits for the condition it expects, never for a fixed time.
 */
export async function eventsUntil(
  app: FastifyInstance,
  apiKey: string,
  done: (events: ListedEvent[]) => boolean,
  query = '',
): Promise<ListedEvent[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { events } = await listAllEvents(app, apiKey, query, 1000);
    if (done(events)) return events;
    if (Date.now() > deadline) throw new Error(`events never met the condition; last: ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
