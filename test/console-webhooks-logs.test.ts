import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, type TestApp } from './helpers/app.js';
import { consoleUser, ORIGIN, type ConsoleBrowser } from './helpers/console.js';
import { requestLogsUntil } from './helpers/request-logs.js';

const RECEIVER = 'https://93.184.216.34/hooks/console-test';

/** The console's "Send test event" button and request logs page through HTTP: roles, CSRF, isolation, audit. */
describe('console webhooks test events and request logs', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  let other: typeof acme;
  let developer: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let outsider: ConsoleBrowser;
  let endpointId: string;
  const queued: string[] = [];

  beforeAll(async () => {
    // A queue that records what is sent: the test delivery's first attempt is queued, never made (no outside calls).
    const jobs = { send: async (name: string) => void queued.push(name), sendMany: async () => undefined };
    t = await createTestApp(undefined, undefined, { jobs });
    acme = await createPlatformWithEntity(t, 'Acme Payroll');
    other = await createPlatformWithEntity(t, 'Other Payroll');
    developer = await consoleUser(t.app, t.db, acme.platformId, 'dev@acme.example', 'developer');
    reader = await consoleUser(t.app, t.db, acme.platformId, 'reader@acme.example', 'read_only');
    outsider = await consoleUser(t.app, t.db, other.platformId, 'admin@other.example', 'admin');
    await developer.get('/console/webhooks');
    expect((await developer.post('/console/webhooks', { url: RECEIVER })).statusCode).toBe(200);
    endpointId = (
      await t.db.selectFrom('webhook_endpoints').select('id').where('platform_id', '=', acme.platformId).executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const deliveries = () => t.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();

  it('a developer sends a test event to an endpoint; it is delivered through the normal path and audited', async () => {
    const page = await developer.get('/console/webhooks');
    expect(page.body).toContain(`Send test event to ${RECEIVER}`);
    const sent = await developer.post(`/console/webhooks/${endpointId}/test`, {});
    expect(sent.statusCode, sent.body).toBe(303);
    expect(sent.headers.location).toBe('/console/webhooks?notice=test-sent');
    expect((await developer.get('/console/webhooks?notice=test-sent')).body).toContain('A test event is on its way');
    const rows = await deliveries();
    expect(rows.length).toBe(1);
    expect(queued).toEqual(['webhooks.deliver']);
    const audit = await t.db.selectFrom('console_audit_events').selectAll().where('platform_id', '=', acme.platformId).execute();
    expect(audit.filter((a) => a.action === 'webhook_endpoint.test').map((a) => [a.user_email, a.subject_id])).toEqual([
      ['dev@acme.example', endpointId],
    ]);
  });

  it('read-only sees no button and its post is refused (403); a post without the CSRF token is refused (403)', async () => {
    expect((await reader.get('/console/webhooks')).body).not.toContain('Send test event');
    expect((await reader.post(`/console/webhooks/${endpointId}/test`, {})).statusCode).toBe(403);
    await developer.get('/console/webhooks');
    const forged = await t.app.inject({
      method: 'POST',
      url: `/console/webhooks/${endpointId}/test`,
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: developer.cookie, origin: ORIGIN },
    });
    expect(forged.statusCode).toBe(403);
    expect((await deliveries()).length).toBe(1);
  });

  it("another platform's endpoint is not found (404), and a disabled one is refused (409)", async () => {
    await outsider.get('/console/webhooks');
    expect((await outsider.post(`/console/webhooks/${endpointId}/test`, {})).statusCode).toBe(404);
    await developer.get('/console/webhooks');
    expect((await developer.post(`/console/webhooks/${endpointId}/disable`, {})).statusCode).toBe(303);
    expect((await developer.post(`/console/webhooks/${endpointId}/test`, {})).statusCode).toBe(409);
    expect((await deliveries()).length).toBe(1);
  });

  it('request logs: newest first, filtered, paged, each with its redacted detail; another platform invisible', async () => {
    await t.app.inject({ url: '/v2/tasks/task_console_nope', headers: { ...bearer(acme.token), 'x-request-id': 'acme-404' } });
    await t.app.inject({ url: '/legal_entity', headers: { ...bearer(acme.token), 'x-request-id': 'acme-200' } });
    await t.app.inject({ url: '/v2/tasks/task_other_nope', headers: { ...bearer(other.token), 'x-request-id': 'other-404' } });
    await requestLogsUntil(t.app, acme.apiKey, (logs) => logs.some((l) => l.request_id === 'acme-200'));
    await requestLogsUntil(t.app, other.apiKey, (logs) => logs.some((l) => l.request_id === 'other-404'));

    for (const user of [reader, developer]) {
      const all = await user.get('/console/request-logs');
      expect(all.statusCode).toBe(200);
      expect(all.body.indexOf('acme-200')).toBeGreaterThan(-1);
      expect(all.body.indexOf('acme-200')).toBeLessThan(all.body.indexOf('acme-404'));
      expect(all.body).not.toContain('other-404');
    }
    const notFound = await reader.get('/console/request-logs?status=404');
    expect(notFound.body).toContain('acme-404');
    expect(notFound.body).not.toContain('acme-200');
    expect((await reader.get('/console/request-logs?path=/legal_entity')).body).not.toContain('acme-404');
    expect((await reader.get('/console/request-logs?request_id=acme-200')).body).not.toContain('acme-404');
    expect((await reader.get('/console/request-logs?legal_entity_id=le_none')).body).toContain('No requests match these filters');

    const id = /href="\/console\/request-logs\/(req_[^"]+)"/.exec(notFound.body)![1]!;
    const detail = await reader.get(`/console/request-logs/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('Error body (redacted)');
    expect(detail.body).toContain('/v2/tasks/task_console_nope');

    const otherLogs = await outsider.get('/console/request-logs?request_id=other-404');
    const otherId = /href="\/console\/request-logs\/(req_[^"]+)"/.exec(otherLogs.body)![1]!;
    expect((await reader.get(`/console/request-logs/${otherId}`)).statusCode).toBe(404);

    for (let i = 0; i < 50; i++) await t.app.inject({ url: '/legal_entity', headers: bearer(acme.token) });
    await requestLogsUntil(t.app, acme.apiKey, (logs) => logs.length >= 53);
    const first = await reader.get('/console/request-logs');
    const next = /href="(\/console\/request-logs\?after=req_[^"]+)"/.exec(first.body)?.[1];
    expect(next).toBeDefined();
    const second = await reader.get(next!.replaceAll('&amp;', '&'));
    expect(second.body).toContain('acme-404');
  });
});
