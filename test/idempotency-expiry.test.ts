import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { keyRows, withKey } from './helpers/idempotency.js';

describe('Idempotency-Key: kept for IDEMPOTENCY_RETENTION_HOURS, then forgotten', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    // Two hours instead of 24, to show the setting is the one used.
    t = await createTestApp({ idempotency: { retentionHours: 2 } });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  const signup = (key: string, businessName: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: withKey({ authorization: apiKey }, key),
      payload: { ...VALID_SIGNUP_V2, business_name: businessName },
    });
  const age = (key: string, hours: number) =>
    sql`update idempotency_keys set created_at = now() - make_interval(hours => ${hours}) where key = ${key}`.execute(t.db);
  const prune = () => t.app.services.jobDefinitions.find((job) => job.name === 'idempotency.prune')!.handler({}) as Promise<number>;

  it('within the retention the key still replays; past it, the key is free for a new request', async () => {
    await signup('aging-1', 'First Use Inc');
    await age('aging-1', 1);
    expect((await signup('aging-1', 'First Use Inc')).headers['idempotent-replayed']).toBe('true');
    expect((await signup('aging-1', 'Second Use Inc')).statusCode).toBe(422);

    await age('aging-1', 3);
    const reused = await signup('aging-1', 'Second Use Inc');
    expect(reused.statusCode).toBe(200);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    // Its retention counts again from this use.
    expect((await signup('aging-1', 'Second Use Inc')).headers['idempotent-replayed']).toBe('true');
  });

  it('the hourly job deletes the keys older than the retention and only those', async () => {
    await signup('prune-old', 'Old Inc');
    await signup('prune-fresh', 'Fresh Inc');
    await age('prune-old', 3);
    await age('prune-fresh', 1);
    expect(await prune()).toBe(1);
    expect(await keyRows(t.db, 'prune-old')).toEqual([]);
    expect(await keyRows(t.db, 'prune-fresh')).toHaveLength(1);
  });
});
