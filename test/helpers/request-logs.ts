import type { FastifyInstance } from 'fastify';
import type { RequestLogView } from '../../src/modules/request-logs/contract.js';
import { waitUntil } from './wait.js';

/** A listed request log as tests read it: the contract's view, its error body read loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- error bodies are read loosely
export type ListedRequestLog = Omit<RequestLogView, 'error'> & { error: any };

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
