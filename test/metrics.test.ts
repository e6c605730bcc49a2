import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyDatabaseError, databaseErrorCounts } from '../src/db/database-errors.js';
import { createDb } from '../src/db/database.js';
import type { JobQueue } from '../src/jobs/queue.js';
import { routeLabel } from '../src/modules/metrics/metrics-registry.js';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { find, parsePrometheusText, value, type Exposition } from './helpers/prometheus.js';
import { waitUntil } from './helpers/wait.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('/metrics', () => {
  let t: TestApp;
  let queue: JobQueue;
  let token: string;
  const scrape = async (): Promise<Exposition> => {
    const response = await t.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(response.body);
  };

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { jobs: true });
    queue = t.jobs!;
    ({ token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t?.close());

  it('counts requests by route pattern and status, with a latency histogram', async () => {
    const entity = json(await t.app.inject({ url: '/legal_entity', headers: bearer(token) }));
    expect(entity.id).toBeTruthy();
    await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
    await t.app.inject({ url: '/legal_entity' }); // 401
    const taskId = 'task_does_not_exist';
    expect((await t.app.inject({ url: `/v2/tasks/${taskId}`, headers: bearer(token) })).statusCode).toBe(404);
    await t.app.inject({ url: '/no/such/path/one' });
    await t.app.inject({ url: '/no/such/path/two' });

    const metrics = await scrape();
    expect(metrics.types.get('statehouse_http_requests_total')).toBe('counter');
    expect(metrics.types.get('statehouse_http_request_duration_seconds')).toBe('histogram');
    expect(value(metrics, 'statehouse_http_requests_total', { method: 'GET', route: '/legal_entity', status_code: '200' })).toBe(2);
    expect(value(metrics, 'statehouse_http_requests_total', { method: 'GET', route: '/legal_entity', status_code: '401' })).toBe(1);
    // The route pattern, never the raw URL: ids do not become label values.
    expect(value(metrics, 'statehouse_http_requests_total', { method: 'GET', route: '/v2/tasks/{task_id}', status_code: '404' })).toBe(1);
    expect(metrics.samples.some((s) => Object.values(s.labels).some((v) => v.includes(taskId) || v.includes('/no/such')))).toBe(false);
    expect(value(metrics, 'statehouse_http_requests_total', { method: 'GET', route: '(unmatched)', status_code: '404' })).toBe(2);

    const labels = { method: 'GET', route: '/legal_entity', status_code: '200' };
    expect(value(metrics, 'statehouse_http_request_duration_seconds_count', labels)).toBe(2);
    expect(value(metrics, 'statehouse_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    const buckets = find(metrics, 'statehouse_http_request_duration_seconds_bucket', labels);
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(2);
    // Cumulative buckets never decrease.
    const counts = buckets.map((b) => b.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('reports the database pool and database errors by class', async () => {
    await expect(sql`select 1 / 0`.execute(t.db)).rejects.toThrow(/division by zero/);
    const metrics = await scrape();
    expect(value(metrics, 'statehouse_db_pool_max_clients')).toBe(5);
    const total = value(metrics, 'statehouse_db_pool_clients', { state: 'total' });
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(5);
    expect(
      value(metrics, 'statehouse_db_pool_clients', { state: 'idle' }) + value(metrics, 'statehouse_db_pool_clients', { state: 'active' }),
    ).toBe(total);
    expect(value(metrics, 'statehouse_db_pool_waiting_requests')).toBe(0);
    expect(metrics.types.get('statehouse_db_errors_total')).toBe('counter');
    expect(value(metrics, 'statehouse_db_errors_total', { class: 'data_exception' })).toBe(1);
  });

  it('reports queue depth, the age of the oldest due job and failures per queue', async () => {
    await queue.send('metrics.idle', { n: 1 });
    await queue.send('metrics.idle', { n: 2 });
    await queue.work([
      {
        name: 'metrics.failing',
        retryLimit: 0,
        pollingIntervalSeconds: 0.5,
        handler: async () => {
          throw new Error('always fails');
        },
      },
    ]);
    await queue.send('metrics.failing', {});

    const metrics = await waitUntil(async () => {
      const m = await scrape();
      return find(m, 'statehouse_job_queue_failed_jobs', { queue: 'metrics.failing' })[0]?.value === 1 ? m : null;
    }, 'the failing job to fail');
    expect(value(metrics, 'statehouse_job_queue_stats_up')).toBe(1);
    expect(value(metrics, 'statehouse_job_queue_waiting_jobs', { queue: 'metrics.idle' })).toBe(2);
    expect(value(metrics, 'statehouse_job_queue_active_jobs', { queue: 'metrics.idle' })).toBe(0);
    expect(value(metrics, 'statehouse_job_queue_oldest_due_age_seconds', { queue: 'metrics.idle' })).toBeGreaterThanOrEqual(0);
    expect(value(metrics, 'statehouse_job_failures_total', { queue: 'metrics.failing' })).toBe(1);
    expect(value(metrics, 'statehouse_job_queue_waiting_jobs', { queue: 'metrics.failing' })).toBe(0);
    expect(value(metrics, 'statehouse_job_queue_oldest_due_age_seconds', { queue: 'metrics.failing' })).toBe(0);
    // The app's own queues are listed (at zero) before they ever had a job.
    expect(value(metrics, 'statehouse_job_queue_waiting_jobs', { queue: 'mail.gc' })).toBe(0);
    expect(value(metrics, 'statehouse_job_failures_total', { queue: 'mail.gc' })).toBe(0);

    // The age grows while the job waits.
    const first = value(metrics, 'statehouse_job_queue_oldest_due_age_seconds', { queue: 'metrics.idle' });
    await waitUntil(
      async () => value(await scrape(), 'statehouse_job_queue_oldest_due_age_seconds', { queue: 'metrics.idle' }) >= first + 1,
      'the oldest job to age',
    );
  });

  it('reports event-loop lag and process memory', async () => {
    const metrics = await scrape();
    expect(metrics.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(value(metrics, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(find(metrics, 'nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);
    expect(value(metrics, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(find(metrics, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
  });

  it('is served to loopback clients only when no token is configured', async () => {
    expect((await t.app.inject({ url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    for (const request of [
      { remoteAddress: '203.0.113.7' },
      { remoteAddress: '10.0.0.2' },
      // Through a proxy on this host: loopback socket, but not a local client.
      { headers: { 'x-forwarded-for': '203.0.113.7' } },
      { headers: { forwarded: 'for=203.0.113.7' } },
    ]) {
      const response = await t.app.inject({ url: '/metrics', ...request });
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ detail: 'Metrics are served only to local clients unless METRICS_TOKEN is set' });
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });

  it('answers a real loopback HTTP client', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${address}/metrics`, { headers: { 'x-request-id': 'scraper-1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('scraper-1');
    const metrics = parsePrometheusText(await response.text());
    expect(find(metrics, 'statehouse_http_requests_total', { route: '/metrics', status_code: '200' })[0]?.value).toBeGreaterThan(0);
  });

  it('answers other methods with 405 like every path', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/metrics' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(json(response)).toEqual({ detail: 'Method Not Allowed' });
  });

  it('is not part of the OpenAPI document', async () => {
    expect(Object.keys(json(await t.app.inject({ url: '/openapi.json' })).paths)).not.toContain('/metrics');
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: METRICS_TOKEN });
  });
  afterAll(async () => t?.close());

  it('requires the token as a bearer credential, from any address', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${METRICS_TOKEN}x`,
      METRICS_TOKEN,
      `Basic ${METRICS_TOKEN}`,
    ]) {
      const response = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(json(response)).toEqual({ detail: 'A valid metrics token is required' });
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.headers['x-request-id']).toBeTruthy();
    }
    const ok = await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    const metrics = parsePrometheusText(ok.body);
    expect(find(metrics, 'statehouse_http_requests_total', { route: '/metrics', status_code: '401' })[0]?.value).toBe(5);
    // No job queue in this app: no queue metrics rather than zeros.
    expect(find(metrics, 'statehouse_job_queue_stats_up')).toHaveLength(0);
  });
});

describe('request ids', () => {
  let t: TestApp;
  let apiKey: string;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'debug', bodyLimitBytes: 4096 }, { write: (line) => void lines.push(JSON.parse(line)) });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t?.close());

  const GENERATED = /^[0-9a-f]{8}-[0-9a-z]+$/;

  it('echoes a sane caller id and generates one when absent or not acceptable', async () => {
    const given = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-4bf92f35.77:ab/c+d=@e_f' } });
    expect(given.headers['x-request-id']).toBe('trace-4bf92f35.77:ab/c+d=@e_f');

    const absent = await t.app.inject({ url: '/healthz' });
    expect(absent.headers['x-request-id']).toMatch(GENERATED);
    const another = await t.app.inject({ url: '/healthz' });
    expect(another.headers['x-request-id']).toMatch(GENERATED);
    expect(another.headers['x-request-id']).not.toBe(absent.headers['x-request-id']);

    for (const bad of ['', 'has space', 'x'.repeat(129), '<script>', 'ünïcode', 'a\tb', 'semi;colon']) {
      const response = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
      expect(response.headers['x-request-id'], JSON.stringify(bad)).toMatch(GENERATED);
    }
    // Sent twice: ambiguous, so not adopted.
    expect((await t.app.inject({ url: '/healthz', headers: { 'x-request-id': ['first', 'second'] } })).headers['x-request-id']).toMatch(
      GENERATED,
    );
    const longest = 'y'.repeat(128);
    expect((await t.app.inject({ url: '/healthz', headers: { 'x-request-id': longest } })).headers['x-request-id']).toBe(longest);
  });

  it('is on every error response, framework errors included', async () => {
    const cases = [
      { request: { url: '/no/such/path' }, status: 404 },
      { request: { method: 'DELETE' as const, url: '/healthz' }, status: 405 },
      { request: { url: '/legal_entity' }, status: 401 },
      { request: { method: 'POST' as const, url: '/v2/signup', headers: { authorization: apiKey }, payload: {} }, status: 422 },
      {
        request: {
          method: 'POST' as const,
          url: '/v2/signup',
          headers: { authorization: apiKey, 'content-type': 'application/json' },
          payload: '{"broken',
        },
        status: 422,
      },
      {
        request: {
          method: 'POST' as const,
          url: '/v2/signup',
          headers: { authorization: apiKey, 'content-type': 'application/json' },
          payload: JSON.stringify({ pad: 'x'.repeat(5000) }),
        },
        status: 413,
      },
      // Bad percent-encoding never reaches a route: Fastify's framework-error path.
      { request: { url: '/legal_entity/%zz' }, status: 404 },
    ];
    for (const [index, { request, status }] of cases.entries()) {
      const id = `case-${index}`;
      const response = await t.app.inject({ ...request, headers: { ...request.headers, 'x-request-id': id } });
      expect(response.statusCode, `${request.url} ${response.body}`).toBe(status);
      expect(response.headers['x-request-id'], request.url).toBe(id);
      expect(typeof json(response).detail === 'string' || Array.isArray(json(response).detail)).toBe(true);
      const generated = await t.app.inject(request);
      expect(generated.headers['x-request-id'], request.url).toMatch(GENERATED);
    }
  });

  it('is on every log line of the request', async () => {
    const id = 'log-trace-1';
    await t.app.inject({ url: '/legal_entity', headers: { 'x-request-id': id } });
    const mine = lines.filter((line) => line.reqId === id);
    expect(mine.map((line) => line.msg)).toContain('request completed'); // one line per request, at debug (src/http/logging.ts)
    expect(mine.find((line) => line.msg === 'request completed')).toMatchObject({ res: { statusCode: 401 } });
    // Every line a request writes names its request.
    const requestLines = lines.filter((line) => 'req' in line || 'res' in line);
    expect(requestLines.length).toBeGreaterThan(0);
    expect(requestLines.every((line) => typeof line.reqId === 'string')).toBe(true);
  });
});

describe('metric labels and error classes (rules)', () => {
  it('names routes by their pattern', () => {
    expect(routeLabel('/v2/tasks/:task_id')).toBe('/v2/tasks/{task_id}');
    expect(routeLabel('/a/:x/b/:y')).toBe('/a/{x}/b/{y}');
    expect(routeLabel('/files/:id(^\\d+)')).toBe('/files/{id}');
    expect(routeLabel(undefined)).toBe('(unmatched)');
  });

  it('counts a database that cannot be reached as a connection error of that Db', async () => {
    const unreachable = createDb('postgres://nobody@127.0.0.1:1/nothing', 1);
    try {
      await expect(sql`select 1`.execute(unreachable)).rejects.toThrow();
      await expect(sql`select 1`.execute(unreachable)).rejects.toThrow();
      expect(Object.fromEntries(databaseErrorCounts(unreachable))).toEqual({ connection: 2 });
      const other = createDb('postgres://nobody@127.0.0.1:1/nothing');
      expect(databaseErrorCounts(other).size).toBe(0); // counts belong to their Db
      await other.destroy();
    } finally {
      await unreachable.destroy();
    }
  });

  it('classifies database errors into a small fixed set', () => {
    expect(classifyDatabaseError(Object.assign(new Error('dup'), { code: '23505' }))).toBe('integrity_constraint_violation');
    expect(classifyDatabaseError(Object.assign(new Error('shutdown'), { code: '57P01' }))).toBe('operator_intervention');
    expect(classifyDatabaseError(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe('transaction_rollback');
    expect(classifyDatabaseError(Object.assign(new Error('odd'), { code: '0A000' }))).toBe('sqlstate_other');
    expect(classifyDatabaseError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe('connection');
    expect(classifyDatabaseError(new Error('Connection terminated unexpectedly'))).toBe('connection');
    expect(classifyDatabaseError(new Error('something else'))).toBe('other');
    expect(classifyDatabaseError('not even an error')).toBe('other');
  });
});
