import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, type TestApp } from './helpers/app.js';
import { requestLogsUntil } from './helpers/request-logs.js';

const DAY = 86_400_000;
const count = async (t: TestApp, requestId: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from request_logs where request_id = ${requestId}`.execute(t.db)).rows[0]!.n);

describe('request logs: retention by the app clock', () => {
  let t: TestApp;
  let p: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  beforeAll(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 86_400 });
    p = await createPlatformWithEntity(t);
  });
  afterAll(async () => t.close());

  it('the hourly job deletes logs older than 14 days (default) and keeps the rest', async () => {
    expect(t.config.requestLogs.retentionDays).toBe(14);
    const job = t.app.services.jobDefinitions.find((j) => j.name === 'request-logs.prune')!;
    expect(job.cron).toMatch(/^\d+ \* \* \* \*$/);
    await t.app.inject({ url: '/legal_entity', headers: { ...bearer(p.token), 'x-request-id': 'old-1' } });
    await requestLogsUntil(t.app, p.apiKey, (logs) => logs.some((l) => l.request_id === 'old-1'));
    t.advance(10 * DAY);
    await t.app.inject({ url: '/v2/events', headers: { authorization: p.apiKey, 'x-request-id': 'young-1' } });
    await requestLogsUntil(t.app, p.apiKey, (logs) => logs.some((l) => l.request_id === 'young-1'));
    t.advance(4 * DAY + 60_000); // old-1 (and the fixture's signup and auth): 14 days and a minute; young-1: 4 days
    const older = Number(
      (await sql<{ n: string }>`select count(*) as n from request_logs where request_id <> 'young-1'`.execute(t.db)).rows[0]!.n,
    );
    expect(older).toBeGreaterThanOrEqual(1);
    expect(await job.handler({})).toEqual({ deleted: older });
    expect(await count(t, 'old-1')).toBe(0);
    expect(await count(t, 'young-1')).toBe(1);
    expect(await job.handler({})).toEqual({ deleted: 0 });
  });
});

describe('request logs: writes on close, and none when off', () => {
  it('app.close writes what is buffered (no interval passed)', async () => {
    const t = await createTestApp({ requestLogs: { enabled: true, flushIntervalMs: 3_600_000, retentionDays: 14 } });
    try {
      const p = await createPlatformWithEntity(t);
      await t.app.inject({ url: '/legal_entity', headers: { ...bearer(p.token), 'x-request-id': 'closing-1' } });
      expect(await count(t, 'closing-1')).toBe(0);
      await t.app.close();
      expect(await count(t, 'closing-1')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('REQUEST_LOGS=off records nothing; the listing still answers', async () => {
    const t = await createTestApp({ requestLogs: { enabled: false, flushIntervalMs: 10, retentionDays: 14 } });
    try {
      const p = await createPlatformWithEntity(t);
      await t.app.inject({ url: '/legal_entity', headers: bearer(p.token) });
      const listed = await t.app.inject({ url: '/v2/request_logs', headers: { authorization: p.apiKey } });
      expect(listed.statusCode).toBe(200);
      await t.app.close();
      expect(Number((await sql<{ n: string }>`select count(*) as n from request_logs`.execute(t.db)).rows[0]!.n)).toBe(0);
    } finally {
      await t.close();
    }
  });
});
