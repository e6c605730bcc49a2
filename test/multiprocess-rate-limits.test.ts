import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimits } from '../src/config.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { createSecondApp, type SecondApp } from './helpers/second-app.js';
import { waitUntil } from './helpers/wait.js';

/** An hour: a test never straddles two windows in practice (windows are aligned to the clock, docs/scaling.md). */
// A first request here always waits for the shared count (in service it waits 250 ms at most, then counts locally):
// the test checks that count is used, on however busy a machine.
const rateLimits: RateLimits = {
  windowSeconds: 3600,
  perCredential: 5,
  perAddress: 1000,
  authOperations: 1000,
  failedAuth: 3,
  sharedReadWaitMs: 60_000,
};

/** Rate limits with two processes on one database (docs/scaling.md, scenario 4): N processes do not allow N × the limit. */
describe('rate limits shared across two processes', () => {
  let a: TestApp;
  let b: SecondApp;
  let token: string;
  const sharedCount = async (prefix: string) =>
    Number(
      (
        await sql<{ n: number }>`select coalesce(sum(count), 0)::int as n from rate_limit_counters where key like ${`${prefix}%`}`.execute(
          a.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    a = await createTestApp({ rateLimits });
    b = await createSecondApp(a, { rateLimits });
    ({ token } = await createPlatformWithEntity(a));
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('what one process admitted counts against the limit in the other', async () => {
    const statuses: number[] = [];
    // The signup and token requests used other credentials; this token starts from zero.
    for (let i = 0; i < 5; i++) statuses.push((await a.app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    await waitUntil(async () => (await sharedCount('requests:c:')) >= 5, 'A adding its counts to the shared ones');
    // B never saw this token: its first request reads the shared count, and the limit is already reached.
    const refused = await b.app.inject({ url: '/legal_entity', headers: bearer(token) });
    expect(refused.statusCode).toBe(429);
    expect(json(refused).detail).toMatch(/^Too many requests; retry in \d+ seconds$/);
    expect((await a.app.inject({ url: '/legal_entity', headers: bearer(token) })).statusCode).toBe(429);
  });

  it('failed authentications in one process lock the address out of the other', async () => {
    const address = { remoteAddress: '10.9.8.7' };
    const probe = async () => (await b.app.inject({ url: '/openapi.json', ...address })).statusCode;
    expect(await probe()).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await a.app.inject({ url: '/legal_entity', headers: bearer('sh_at_forged.guess'), ...address })).statusCode).toBe(401);
    }
    // B's probes never fail authentication, so its refusal can only come from A's failures.
    await waitUntil(async () => (await probe()) === 429, 'B refusing the address A counted failures for');
    expect((await b.app.inject({ url: '/openapi.json', remoteAddress: '10.9.8.6' })).statusCode).toBe(200); // another address is fine
  });
});
