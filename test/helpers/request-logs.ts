import type { FastifyInstance } from 'fastify';
import { waitUntil } from './wait.js';

export interface ListedRequestLog {
  id: string;
  created_at: string;
  method: string;
  path: string;
  route: string | null;
  status: number;
  duration_ms: number;
  request_id: string;
  idempotency_key: string | null;
  legal_entity_id: string | null;
  api_key_id: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- error bodies are read loosely
  error: any;
}

/** One page of GET /v2/request_logs (`query` without the leading `?`). */
export async function listRequestLogs(app: FastifyInstance, apiKey: string, query = '') {
  const response = await app.inject({ url: `/v2/request_logs${query ? `?${query}` : ''}`, headers: { authorization: apiKey } });
  if (response.statusCode !== 200) throw new Error(`GET /v2/request_logs?${query} answered ${response.statusCode}: ${response.body}`);
  return { logs: response.json() as ListedRequestLog[], headers: response.headers };
}

/** Logs are written in batches after the responses: waits until the listing satisfies `done`. */
export async function requestLogsUntil(
  app: FastifyInstance,
  apiKey: string,
  done: (logs: ListedRequestLog[]) => boolean,
  query = 'limit=1000',
): Promise<ListedRequestLog[]> {
  return waitUntil(async () => {
    const { logs } = await listRequestLogs(app, apiKey, query);
    return done(logs) && logs;
  }, `request logs (${query}) to satisfy the condition`);
}
