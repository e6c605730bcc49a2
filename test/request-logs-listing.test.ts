import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { listRequestLogs, requestLogsUntil, type ListedRequestLog } from './helpers/request-logs.js';

describe('request logs: GET /v2/request_logs filters, pages and isolation', () => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  let b: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  let other: { entityId: string; token: string };
  let all: ListedRequestLog[];
  beforeAll(async () => {
    t = await createTestApp();
    a = await createPlatformWithEntity(t, 'Platform A');
    b = await createPlatformWithEntity(t, 'Platform B');
    other = await signupWithToken(t.app, a.apiKey, { business_name: 'Second Co' });
    // A's requests: 3 reads by token, 2 not-found, a 422, one with an idempotency key.
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/legal_entity', headers: bearer(a.token) });
    await t.app.inject({ url: '/v2/tasks/task_nope1', headers: bearer(a.token) });
    await t.app.inject({ url: '/v2/tasks/task_nope2', headers: bearer(other.token) });
    await t.app.inject({ url: '/v2/events?limit=0', headers: { authorization: a.apiKey } });
    await t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: a.apiKey, 'idempotency-key': 'listing-key-1' },
      payload: { legal_entity_id: a.entityId },
    });
    // B's request.
    await t.app.inject({ url: '/legal_entity', headers: { ...bearer(b.token), 'x-request-id': 'b-only-1' } });
    all = await requestLogsUntil(t.app, a.apiKey, (logs) => logs.some((l) => l.idempotency_key === 'listing-key-1'));
    await requestLogsUntil(t.app, b.apiKey, (logs) => logs.some((l) => l.request_id === 'b-only-1'));
  });
  afterAll(async () => t.close());

  const ids = (logs: ListedRequestLog[]) => logs.map((l) => l.id);
  const list = async (query: string) => (await listRequestLogs(t.app, a.apiKey, query)).logs;

  it('lists newest first, with the fixtures above', () => {
    const times = all.map((l) => Date.parse(l.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(all.filter((l) => l.path === '/legal_entity')).toHaveLength(3);
  });

  it('filters by status (exact and class), method, path or route, entity, request id, idempotency key', async () => {
    expect(ids(await list('status=404'))).toEqual(ids(all.filter((l) => l.status === 404)));
    expect((await list('status=404')).length).toBe(2);
    expect(ids(await list('status=4xx'))).toEqual(ids(all.filter((l) => l.status >= 400 && l.status < 500)));
    expect((await list('status=4xx')).length).toBe(3);
    expect(ids(await list('status=2xx'))).toEqual(ids(all.filter((l) => l.status < 300)));
    expect(ids(await list('method=POST'))).toEqual(ids(all.filter((l) => l.method === 'POST')));
    expect((await list('path=/v2/tasks/task_nope1')).map((l) => l.path)).toEqual(['/v2/tasks/task_nope1']);
    expect((await list(`path=${encodeURIComponent('/v2/tasks/{task_id}')}`)).length).toBe(2);
    expect(ids(await list(`legal_entity_id=${other.entityId}`))).toEqual(ids(all.filter((l) => l.legal_entity_id === other.entityId)));
    expect((await list(`legal_entity_id=${other.entityId}`)).length).toBeGreaterThanOrEqual(1);
    const one = all[3]!;
    expect(ids(await list(`request_id=${one.request_id}`))).toEqual([one.id]);
    expect((await list('idempotency_key=listing-key-1')).map((l) => l.path)).toEqual(['/accounts/auth']);
  });

  it('filters by time: created_after and created_before', async () => {
    const sorted = [...all].reverse(); // oldest first
    const middle = sorted[3]!;
    const after = await list(`created_after=${encodeURIComponent(middle.created_at)}`);
    expect(after.every((l) => Date.parse(l.created_at) > Date.parse(middle.created_at))).toBe(true);
    const before = await list(`created_before=${encodeURIComponent(middle.created_at)}`);
    expect(before.every((l) => Date.parse(l.created_at) < Date.parse(middle.created_at))).toBe(true);
    expect(await list('created_before=2000-01-01')).toEqual([]);
    expect((await list('created_after=2000-01-01')).length).toBe(all.length);
  });

  it('pages with starting_after: X-Page-Size, X-Next-Page and Link until the last page', async () => {
    const seen: string[] = [];
    let url: string | undefined = '/v2/request_logs?limit=3';
    let pages = 0;
    while (url) {
      const response = await t.app.inject({ url, headers: { authorization: a.apiKey } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-page-size']).toBe('3');
      seen.push(...ids(json(response)));
      const next = response.headers['x-next-page'] as string | undefined;
      if (next) expect(response.headers.link).toBe(`<${next}>; rel="next"`);
      url = next;
      pages++;
    }
    expect(seen).toEqual(ids(all));
    expect(pages).toBe(Math.ceil(all.length / 3));
  });

  it('refuses bad filters with a 422 naming the parameter', async () => {
    for (const [query, field] of [
      ['status=4x', 'status'],
      ['created_after=yesterday', 'created_after'],
      ['limit=0', 'limit'],
      ['starting_after=req_unknown', 'starting_after'],
      ['method=TRACE', 'method'],
    ] as const) {
      const response = await t.app.inject({ url: `/v2/request_logs?${query}`, headers: { authorization: a.apiKey } });
      expect(response.statusCode, query).toBe(422);
      expect(json(response).detail[0].loc, query).toEqual(['query', field]);
    }
    expect((await t.app.inject({ url: '/v2/request_logs' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v2/request_logs', headers: bearer(a.token) })).statusCode).toBe(401);
  });

  it("never shows another platform's logs: not listed, not by id, not as a page cursor", async () => {
    const bLogs = await requestLogsUntil(t.app, b.apiKey, (logs) => logs.length > 0);
    expect(bLogs.every((l) => l.legal_entity_id === b.entityId || l.legal_entity_id === null)).toBe(true);
    expect(bLogs.map((l) => l.id).some((id) => ids(all).includes(id))).toBe(false);
    expect(all.some((l) => l.request_id === 'b-only-1')).toBe(false);
    const aLog = all[0]!;
    expect((await t.app.inject({ url: `/v2/request_logs/${aLog.id}`, headers: { authorization: b.apiKey } })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: `/v2/request_logs?starting_after=${aLog.id}`, headers: { authorization: b.apiKey } })).statusCode,
    ).toBe(422);
    expect((await listRequestLogs(t.app, b.apiKey, `legal_entity_id=${a.entityId}`)).logs).toEqual([]);
    expect((await listRequestLogs(t.app, b.apiKey, `request_id=${aLog.request_id}`)).logs).toEqual([]);
  });

  it('is in /openapi.json with its filters and the RequestLog schema', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    const list = doc.paths['/v2/request_logs'].get;
    expect(list.security).toEqual([{ apiKey: [] }]);
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      [
        'created_after',
        'created_before',
        'idempotency_key',
        'legal_entity_id',
        'limit',
        'method',
        'path',
        'request_id',
        'starting_after',
        'status',
      ].sort(),
    );
    expect(doc.paths['/v2/request_logs/{request_log_id}'].get.operationId).toBe('getRequestLog');
  });
});
