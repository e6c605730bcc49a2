/**
 * The subscription URL: the entity's token only, one live URL handed out again, revocation that takes effect at
 * once, no entity reaching another's URL, the token kept sealed and hashed, never in a log line.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';

describe('calendar subscription URL', () => {
  let t: TestApp;
  let apiKey: string;
  const logLines: string[] = [];

  const subscribe = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers });
  const revoke = (headers: Record<string, string>) => t.app.inject({ method: 'DELETE', url: '/v2/tasks/calendar', headers });
  const feed = (url: string) => t.app.inject({ url: new URL(url).pathname });
  const entity = async (name = 'Harbor Labs') => bearer((await signupWithToken(t.app, apiKey, { business_name: name })).token);

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'debug' }, { write: (line) => void logLines.push(line) });
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  it("needs the entity's access token: none, or the API key alone, is a 401", async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      for (const headers of [{}, { authorization: apiKey }, { authorization: `Bearer ${apiKey}` }]) {
        const res = await t.app.inject({ method, url: '/v2/tasks/calendar', headers });
        expect(res.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(401);
        expect(Object.keys(json(res)).sort()).toEqual(['detail', 'message']);
      }
    }
  });

  it('POST makes a URL (201), then hands the same one back (200) until DELETE revokes it; then a new one', async () => {
    const headers = await entity();
    const first = await subscribe(headers);
    expect(first.statusCode, first.body).toBe(201);
    const body = json<{ url: string; created_at: string }>(first);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'url']);
    expect(body.url).toMatch(/^http:\/\/statehouse\.test\/calendar\/shcal_[\w-]{43}\.ics$/);
    expect(Date.parse(body.created_at)).not.toBeNaN();
    const again = await subscribe(headers);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(body);
    expect((await feed(body.url)).statusCode).toBe(200);

    const revoked = await revoke(headers);
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    const gone = await feed(body.url);
    expect(gone.statusCode).toBe(404);
    // The same answer as a path that never existed: nothing says the URL was ever good.
    expect(gone.body).toBe((await t.app.inject({ url: '/no/such/path' })).body);
    expect((await revoke(headers)).statusCode, 'revoking twice is still 204').toBe(204);

    const renewed = await subscribe(headers);
    expect(renewed.statusCode).toBe(201);
    expect(json(renewed).url).not.toBe(body.url);
    expect((await feed(json(renewed).url)).statusCode).toBe(200);
    expect((await feed(body.url)).statusCode).toBe(404);
  });

  it("no other entity, of this platform or another, reaches or revokes this entity's URL", async () => {
    const mine = await entity('Mine Co');
    const { url } = json(await subscribe(mine));
    const neighbour = await entity('Neighbour Co');
    const stranger = bearer((await createPlatformWithEntity(t, 'Other Payroll', { business_name: 'Stranger Co' })).token);
    for (const other of [neighbour, stranger]) {
      expect((await revoke(other)).statusCode).toBe(204);
      const theirs = json(await subscribe(other));
      expect(theirs.url).not.toBe(url);
      expect((await feed(theirs.url)).body).not.toContain('Mine Co');
      expect((await revoke(other)).statusCode).toBe(204);
    }
    const still = await feed(url);
    expect(still.statusCode).toBe(200);
    expect(still.body).toContain('X-WR-CALNAME:Mine Co — compliance');
    expect(json(await subscribe(mine)).url).toBe(url);
  });

  it('two POSTs at once make one URL', async () => {
    const headers = await entity();
    const answers = await Promise.all(Array.from({ length: 6 }, () => subscribe(headers)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => json(a).url)).size).toBe(1);
  });

  it('a malformed or unknown token is a 404, never an error', async () => {
    const token = `shcal_${'A'.repeat(43)}`;
    for (const path of [
      `/calendar/${token}.ics`,
      `/calendar/${token}`,
      '/calendar/x.ics',
      `/calendar/${'y'.repeat(5000)}.ics`,
      '/calendar/%2e%2e.ics',
    ]) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(404);
    }
  });

  it('stores the token only sealed and hashed, and keeps it out of the logs', async () => {
    const headers = await entity();
    const { url } = json(await subscribe(headers));
    const token = /\/calendar\/(shcal_[\w-]+)\.ics$/.exec(url)![1]!;
    await feed(url);
    const rows = await t.db
      .selectFrom('calendar_feeds')
      .selectAll()
      .where('token_hash', '=', createHash('sha256').update(token).digest())
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.revoked_at).toBeNull();
    expect(rows[0]!.token_sealed.includes(Buffer.from(token))).toBe(false);
    expect(rows[0]!.token_sealed.includes(Buffer.from(token.slice(6, 20)))).toBe(false);
    expect(
      logLines.some((line) => line.includes('/calendar/[redacted]')),
      'the feed request is logged, redacted',
    ).toBe(true);
    expect(logLines.filter((line) => line.includes(token.slice(6)))).toEqual([]);
  });
});
