import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { requestLogsUntil } from './helpers/request-logs.js';

describe('request logs: what is recorded', () => {
  let t: TestApp;
  let p: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  beforeAll(async () => {
    t = await createTestApp();
    p = await createPlatformWithEntity(t);
  });
  afterAll(async () => t.close());

  it('records an entity-token request after its response: method, path, route, status, duration, ids', async () => {
    const response = await t.app.inject({
      url: '/legal_entity?verbose=true',
      headers: { ...bearer(p.token), 'x-request-id': 'trace-abc-1' },
    });
    expect(response.statusCode).toBe(200);
    const [log] = await requestLogsUntil(t.app, p.apiKey, (logs) => logs.length > 0, 'request_id=trace-abc-1');
    expect(log).toMatchObject({
      method: 'GET',
      path: '/legal_entity',
      route: '/legal_entity',
      status: 200,
      request_id: 'trace-abc-1',
      idempotency_key: null,
      legal_entity_id: p.entityId,
      api_key_id: null,
      error: null,
    });
    expect(log!.id).toMatch(/^req_/);
    expect(log!.duration_ms).toBeGreaterThan(0);
    expect(Date.parse(log!.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const one = await t.app.inject({ url: `/v2/request_logs/${log!.id}`, headers: { authorization: p.apiKey } });
    expect(one.statusCode).toBe(200);
    expect(json(one)).toEqual(log);
  });

  it('records an API-key request with its key, its idempotency key and the entity it names', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: p.apiKey, 'idempotency-key': 'idem-auth-1' },
      payload: { legal_entity_id: p.entityId },
    });
    expect(response.statusCode).toBe(200);
    const [log] = await requestLogsUntil(t.app, p.apiKey, (logs) => logs.length > 0, 'idempotency_key=idem-auth-1');
    expect(log).toMatchObject({ method: 'POST', path: '/accounts/auth', status: 200, api_key_id: p.apiKeyId, legal_entity_id: p.entityId });
    expect(log!.request_id).toBe(response.headers['x-request-id']);
  });

  it('never stores a credential or the body of a successful request', async () => {
    await requestLogsUntil(t.app, p.apiKey, (logs) => logs.some((l) => l.path === '/accounts/auth'));
    const rows = await sql<{ row: string }>`select row_to_json(r)::text as row from request_logs r`.execute(t.db);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const { row } of rows.rows) {
      expect(row).not.toContain(p.apiKey);
      expect(row).not.toContain(p.token);
      expect(row).not.toContain('access_token');
    }
  });

  it('redacts every sensitive input a 4xx echoes: SSN, EIN, passwords, secrets, tokens', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: { authorization: p.apiKey, 'x-request-id': 'bad-signup-1' },
      payload: {
        business_name: 'Leaky Inc',
        user_email: 'not-an-email',
        ein: '123-45-6789',
        ssn: '987-65-4321',
        password: 'hunter2hunter2',
        secrets: { totp_seed: 'JBSWY3DPEHPK3PXP' },
        api_token: 'tok-very-secret',
        notes: 'my ssn is 111-22-3333',
      },
    });
    expect(response.statusCode).toBe(422);
    // The response itself echoes them (the reference's shape): the log must not.
    expect(response.body).toContain('987-65-4321');
    const [log] = await requestLogsUntil(t.app, p.apiKey, (logs) => logs.length > 0, 'request_id=bad-signup-1');
    expect(log!.status).toBe(422);
    expect(log!.error).not.toBeNull();
    const stored = JSON.stringify(log!.error);
    for (const secret of ['123-45-6789', '987-65-4321', 'hunter2hunter2', 'JBSWY3DPEHPK3PXP', 'tok-very-secret', '111-22-3333']) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('[redacted]');
    // What is not sensitive stays, so the log still says what was wrong.
    expect(stored).toContain('not-an-email');
    const row = await sql<{
      row: string;
    }>`select row_to_json(r)::text as row from request_logs r where request_id = 'bad-signup-1'`.execute(t.db);
    expect(row.rows[0]!.row).not.toContain('987-65-4321');
  });

  it('records failures of authenticated requests (404) with their error body, and nothing without valid credentials', async () => {
    const missing = await t.app.inject({
      url: '/v2/tasks/task_missing',
      headers: { ...bearer(p.token), 'x-request-id': 'missing-task-1' },
    });
    expect(missing.statusCode).toBe(404);
    const [log] = await requestLogsUntil(t.app, p.apiKey, (logs) => logs.length > 0, 'request_id=missing-task-1');
    expect(log).toMatchObject({ status: 404, route: '/v2/tasks/{task_id}', path: '/v2/tasks/task_missing', error: json(missing) });
    // No credentials, a wrong key, a hosted page, /metrics and the logs' own reads: not recorded.
    await t.app.inject({ url: '/legal_entity', headers: { 'x-request-id': 'anonymous-1' } });
    await t.app.inject({ url: '/legal_entity', headers: { authorization: 'sh_key_wrong', 'x-request-id': 'wrong-key-1' } });
    await t.app.inject({ url: '/metrics', headers: { 'x-request-id': 'metrics-1' } });
    await t.app.inject({ url: '/v2/events', headers: { authorization: p.apiKey, 'x-request-id': 'after-1' } });
    await requestLogsUntil(t.app, p.apiKey, (logs) => logs.length > 0, 'request_id=after-1');
    const ids = (await sql<{ request_id: string }>`select request_id from request_logs`.execute(t.db)).rows.map((r) => r.request_id);
    expect(ids).not.toContain('anonymous-1');
    expect(ids).not.toContain('wrong-key-1');
    expect(ids).not.toContain('metrics-1');
    const listings = (await sql<{ n: string }>`select count(*) as n from request_logs where path like '/v2/request_logs%'`.execute(t.db))
      .rows[0]!;
    expect(Number(listings.n)).toBe(0);
  });
});
