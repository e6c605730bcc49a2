// The scale scenario's targets: what each kind of request is, on which entities, and the SQL it sends.
import type { Child } from './children.js';
import { expectStatus, request } from './http-client.js';
import type { Target } from './load.js';
import type { RssSampler } from './proc.js';
import type { CapturedStatement } from './scale-plans.js';
import type { ScaleLoadReport } from './scale-load.js';
import { TASKS_PATH } from './settings.js';
import type { StatehouseInfo } from './setup.js';

export const CONNECTION_COUNTS = [10, 50] as const;

export interface SizeServer {
  entities: number;
  load: ScaleLoadReport;
  statehouse: Child<StatehouseInfo & Record<string, unknown>>;
  postmasterPid: number | null;
  rss: RssSampler;
  hot: string;
  /** Bearer headers of typical entities: reads use the first part, writes the last (one entity per connection). */
  cold: string[];
}

export interface Kind {
  key: string;
  name: string;
  method: 'GET' | 'PUT';
  path: string;
  /** hot: the ~300-task entity; cold: typical entities, each connection its own slice; write: one entity per connection, alternating a fact. */
  who: 'hot' | 'cold' | 'write';
}

export const KINDS: Kind[] = [
  { key: 'legal-entity', name: 'GET /legal_entity', method: 'GET', path: '/legal_entity', who: 'cold' },
  { key: 'tasks-hot', name: 'GET /tasks (hot, ~300 tasks)', method: 'GET', path: TASKS_PATH, who: 'hot' },
  { key: 'tasks-cold', name: 'GET /tasks (typical entities)', method: 'GET', path: TASKS_PATH, who: 'cold' },
  { key: 'v2-first-hot', name: 'GET /v2/tasks first page (hot)', method: 'GET', path: '/v2/tasks?page_size=100', who: 'hot' },
  { key: 'v2-deep-hot', name: 'GET /v2/tasks page 3 (hot)', method: 'GET', path: '/v2/tasks?page_size=100&page_num=3', who: 'hot' },
  { key: 'v2-first-cold', name: 'GET /v2/tasks first page (typical)', method: 'GET', path: '/v2/tasks?page_size=10', who: 'cold' },
  { key: 'v2-deep-cold', name: 'GET /v2/tasks page 4 (typical)', method: 'GET', path: '/v2/tasks?page_size=10&page_num=4', who: 'cold' },
  { key: 'put-region', name: 'PUT /v2/regions/CA (re-plan)', method: 'PUT', path: '/v2/regions/CA', who: 'write' },
];
const writeBody = (i: number) => JSON.stringify({ employee_count: 8 + (i % 2) });
/** Writers use the last tokens of the sample, readers the others. */
const WRITERS = Math.max(...CONNECTION_COUNTS);

export function targetOf(kind: Kind, size: SizeServer, connections: number): Target {
  const url = `${size.statehouse.info.url}${kind.path}`;
  const readers = size.cold.slice(0, Math.max(1, size.cold.length - WRITERS));
  const writers = size.cold.slice(-WRITERS);
  let next = 0;
  const setupClient =
    kind.who === 'hot'
      ? undefined
      : (client: Parameters<NonNullable<Target['setupClient']>>[0]) => {
          const connection = next++;
          if (kind.who === 'write') {
            const headers = { authorization: writers[connection % writers.length]!, 'content-type': 'application/json' };
            client.setRequests([0, 1].map((i) => ({ method: 'PUT', path: kind.path, headers, body: writeBody(i) })));
            return;
          }
          const slice = readers.filter((_, i) => i % connections === connection % connections);
          client.setRequests(slice.map((authorization) => ({ method: 'GET', path: kind.path, headers: { authorization } })));
        };
  return {
    key: `scale:${kind.key}@${size.entities}/${connections}`,
    name: `${kind.name} @${size.entities}, ${connections} conn`,
    description: `${kind.name} on ${size.entities} entities`,
    server: size.statehouse as Child<Record<string, unknown>>,
    url,
    method: kind.method,
    sampleRss: true,
    responseBytes: 0,
    connections,
    ...(kind.who === 'hot' && { headers: { authorization: size.hot } }),
    ...(setupClient && { setupClient }),
  };
}

/** The SQL one request of each kind sends, captured in the server (three requests, on different entities where the kind has several). */
export async function captureKind(kind: Kind, size: SizeServer): Promise<CapturedStatement[]> {
  const url = `${size.statehouse.info.url}${kind.path}`;
  await size.statehouse.command('sql-capture-start');
  const sent = async () => {
    for (let i = 0; i < 3; i++) {
      const authorization = kind.who === 'hot' ? size.hot : kind.who === 'write' ? size.cold[size.cold.length - 1]! : size.cold[i * 7]!;
      const reply = await request(url, {
        method: kind.method,
        headers: { authorization, ...(kind.method === 'PUT' && { 'content-type': 'application/json' }) },
        ...(kind.method === 'PUT' && { body: writeBody(i) }),
      });
      expectStatus(reply, 200, `${kind.method} ${kind.path}`);
    }
  };
  // The capture is stopped whatever happens: left on, it would record the load.
  const outcome = await sent().then(
    () => null,
    (error: unknown) => error,
  );
  const captured = (await size.statehouse.command('sql-capture-stop')).statements as CapturedStatement[];
  if (outcome) throw outcome;
  return captured;
}
