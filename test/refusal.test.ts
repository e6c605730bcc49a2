import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import {
  accessToken,
  bearer,
  createPlatform,
  createPlatformWithEntity,
  createTestApp,
  signupEntity,
  VALID_SIGNUP_V2,
  type TestApp,
} from './helpers/app.js';
import { startLiveApp, type LiveApp } from './helpers/browser.js';
import { issuesOf } from './helpers/errors.js';
import { RawClient } from './helpers/raw-http.js';

/** Every error: JSON in the envelope, `{"detail": "..."}` (or `{message, detail}` on the /v2/signup family, and every /v2 401). */
function expectEnvelope(res: { headers: Record<string, unknown>; body: string }, platform = false) {
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body).sort()).toEqual(platform ? ['detail', 'message'] : ['detail']);
  expect(typeof body.detail).toBe('string');
  return body as { detail: string; message?: string };
}

const request = (method: string, path: string, headers: Record<string, string | number> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

describe('cheap refusal over a real socket', () => {
  let live: LiveApp;
  let apiKey: string;
  let token: string;
  const clients: RawClient[] = [];
  const open = async () => {
    const client = await RawClient.open(live.port);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    live = await startLiveApp();
    ({ apiKey, token } = await createPlatformWithEntity(live));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await live.close();
  });

  it.each([
    ['POST', '/v2/signup'],
    ['PUT', '/v2/regions/CA'],
    ['POST', '/accounts/auth'],
    ['POST', '/operator/v1/legal_entities/le_x/logins'],
  ])('%s %s without credentials: 401 before the 1 MB body is even sent', async (method, path) => {
    const client = await open();
    // Only the headers: a server that read the body first would wait for it forever.
    await client.write(request(method, path, { 'content-type': 'application/json', 'content-length': 1_000_000 }));
    const res = await client.response();
    expect(res.status).toBe(401);
    expectEnvelope(res, path.startsWith('/v2/'));
    // The rest of the body is never read: the connection is closed instead.
    expect(res.headers.connection).toBe('close');
    for (const deadline = Date.now() + 60_000; !client.closed && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    expect(client.closed).toBe(true);
  });

  it('a deeply nested 1 MB body without credentials is a 401, not a parse', async () => {
    const body = '['.repeat(500_000) + ']'.repeat(500_000);
    const client = await open();
    await client.write(request('PUT', '/v2/regions/CA', { 'content-type': 'application/json', 'content-length': body.length }) + body);
    const res = await client.response();
    expect(res.status).toBe(401);
    expectEnvelope(res, true);
  });

  it('malformed JSON without credentials is a 401 (authentication comes first); with them, a 422', async () => {
    const payload = '{"employee_count": }';
    const anonymous = await live.app.inject({
      method: 'PUT',
      url: '/v2/regions/CA',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(anonymous.statusCode).toBe(401);
    const authenticated = await live.app.inject({
      method: 'PUT',
      url: '/v2/regions/CA',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      payload,
    });
    expect(authenticated.statusCode).toBe(422);
    expect(issuesOf(authenticated.json())[0]!.type).toBe('json_invalid');
  });

  it('a deeply nested body with credentials is a 422 json_invalid at the 65th bracket', async () => {
    const payload = '['.repeat(500_000) + ']'.repeat(500_000);
    const res = await live.app.inject({
      method: 'PUT',
      url: '/v2/regions/CA',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(issuesOf(res.json())[0]).toMatchObject({
      type: 'json_invalid',
      loc: ['body', 64],
      ctx: { error: 'Maximum nesting depth of 64 exceeded' },
    });
  });

  it('431: request headers too large, in the envelope', async () => {
    const client = await open();
    await client.write(request('GET', '/legal_entity', { 'x-padding': 'a'.repeat(20_000) }));
    const res = await client.response();
    expect(res.status).toBe(431);
    expect(expectEnvelope(res).detail).toBe('Request Header Fields Too Large');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
  });

  it('400: a request Node cannot parse, in the envelope', async () => {
    const client = await open();
    await client.write('THIS IS NOT HTTP\r\n\r\n');
    const res = await client.response();
    expect(res.status).toBe(400);
    expect(expectEnvelope(res).detail).toBe('Bad Request');
  });

  it('404 and 405 over the socket, in the envelope', async () => {
    const client = await open();
    await client.write(request('GET', '/no/such/path') + request('DELETE', '/healthz'));
    const notFound = await client.response();
    const notAllowed = await client.response();
    expect([notFound.status, notAllowed.status]).toEqual([404, 405]);
    expectEnvelope(notFound);
    expectEnvelope(notAllowed);
    expect(notAllowed.headers.allow).toContain('GET');
  });

  // Last: it closes the server.
  it('503 in the envelope, with Retry-After, for a request that arrives while the server shuts down', async () => {
    const busy = await open();
    const body = JSON.stringify({ legal_entity_id: 5 }); // a 422: its handler needs nothing that shuts down
    await busy.write(
      request('POST', '/accounts/auth', {
        authorization: apiKey,
        'content-type': 'application/json',
        'content-length': body.length,
        expect: '100-continue',
      }),
    );
    // Node answers 100 Continue as it hands the request to the app: from then on the request is in flight.
    expect((await busy.response()).status).toBe(100);
    await busy.write(body.slice(0, 5));
    const closed = live.app.close();
    // The listener stops after the close hooks ran: from then on the server counts as shutting down.
    for (const deadline = Date.now() + 60_000; live.app.server.listening && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 10));
    expect(live.app.server.listening).toBe(false);
    // The rest of the in-flight request, and a second request pipelined behind it.
    await busy.write(body.slice(5) + request('GET', '/legal_entity', bearer(token)));
    expect((await busy.response()).status).toBe(422); // the in-flight request finishes normally
    const res = await busy.response();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers.connection).toBe('close');
    expect(expectEnvelope(res).detail).toMatch(/shutting down/);
    await closed;
  });
});

describe('rate limits (429 in the envelope, with Retry-After)', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  const from = (address: string) => ({ remoteAddress: address });

  beforeAll(async () => {
    t = await createTestApp({
      bodyLimitBytes: 4096,
      rateLimits: { windowSeconds: 600, perCredential: 6, perAddress: 5, authOperations: 2, failedAuth: 3, sharedReadWaitMs: 250 },
    });
    ({ apiKey } = await createPlatform(t.db));
    entityId = await signupEntity(t.app, apiKey);
  });
  afterAll(async () => t.close());

  const expect429 = (res: { statusCode: number; headers: Record<string, unknown>; body: string }, platform = false) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    return expectEnvelope(res, platform);
  };

  it('token-issuing operations have their own, stricter limit', async () => {
    const auth = () =>
      t.app.inject({ method: 'POST', url: '/accounts/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: entityId } });
    expect((await auth()).statusCode).toBe(200);
    expect((await auth()).statusCode).toBe(200);
    expect(expect429(await auth()).detail).toMatch(/^Too many authentication requests; retry in \d+ seconds$/);
  });

  it('per access token: past the limit that token gets 429, another token does not', async () => {
    const { apiKey: otherKey, entityId: other, token: first } = await createPlatformWithEntity(t, 'Other');
    const second = await accessToken(t.app, otherKey, other);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.app.inject({ url: '/legal_entity', headers: bearer(first) })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect429(await t.app.inject({ url: '/legal_entity', headers: bearer(first) }));
    expect((await t.app.inject({ url: '/legal_entity', headers: bearer(second) })).statusCode).toBe(200);
  });

  it('per API key, in the {message, detail} shape on /v2/signup', async () => {
    const { apiKey: key } = await createPlatform(t.db, 'Busy');
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/signup',
        headers: { authorization: key },
        payload: { ...VALID_SIGNUP_V2, entity_type: 'nope' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(expect429(res, true).message).toBe('Too Many Requests');
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 422, 429]);
  });

  it('per client address without credentials; the probes are never limited', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.app.inject({ url: '/no/such/path', ...from('10.0.0.1') })).statusCode);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
    // A hosted page answers the same 429 as a page a person can read.
    const page = await t.app.inject({ url: '/hosted/tasks', ...from('10.0.0.1') });
    expect([page.statusCode, page.headers['retry-after'], page.headers['content-type']]).toEqual([
      429,
      expect.stringMatching(/^\d+$/),
      'text/html; charset=utf-8',
    ]);
    for (let i = 0; i < 10; i++) {
      expect((await t.app.inject({ url: '/healthz', ...from('10.0.0.1') })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/readyz', ...from('10.0.0.1') })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ url: '/no/such/path', ...from('10.0.0.9') })).statusCode).toBe(404);
  });

  it('token guessing is throttled per address: of 200 guesses only the first few are even checked', async () => {
    const { token: valid } = await createPlatformWithEntity(t, 'Guarded');
    const counts: Record<number, number> = {};
    for (let i = 0; i < 200; i++) {
      const guess = `Bearer sh_at_${randomBytes(24).toString('base64url')}`;
      const res = await t.app.inject({ url: '/legal_entity', headers: { authorization: guess }, ...from('10.0.0.2') });
      counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
      if (res.statusCode === 429) expect(expect429(res).detail).toMatch(/failed authentication/);
    }
    // 3 allowed failures, plus at most one whose count landed after the next request was checked.
    expect(counts[401]).toBeGreaterThanOrEqual(4);
    expect(counts[401]).toBeLessThanOrEqual(5);
    expect(counts[401]! + counts[429]!).toBe(200);
    // The address stays refused, whatever it sends, until the window ends; other addresses are not affected.
    const operatorKey = (await createOperatorsService(t.db).createKey('ops')).key;
    expect429(
      await t.app.inject({
        url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
        headers: { authorization: `Bearer ${operatorKey}` },
        ...from('10.0.0.2'),
      }),
    );
    expect(
      (
        await t.app.inject({
          url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
          headers: { authorization: `Bearer ${operatorKey}` },
          ...from('10.0.0.3'),
        })
      ).statusCode,
    ).toBe(200);
    expect429(await t.app.inject({ url: '/legal_entity', headers: bearer(valid), ...from('10.0.0.2') }));
    expect((await t.app.inject({ url: '/healthz', ...from('10.0.0.2') })).statusCode).toBe(200);
  });

  it('413 and 415 are in the envelope too', async () => {
    const { apiKey: key } = await createPlatform(t.db, 'Large');
    const big = await t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: { authorization: key },
      payload: { ...VALID_SIGNUP_V2, business_purpose: 'x'.repeat(5000) },
    });
    expect(big.statusCode).toBe(413);
    expectEnvelope(big, true);
    const operatorKey = (await createOperatorsService(t.db).createKey('uploads')).key;
    const wrongType = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/mail`,
      headers: { authorization: `Bearer ${operatorKey}`, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(wrongType.statusCode).toBe(415);
    expectEnvelope(wrongType);
  });
});

describe('load shedding (503 in the envelope, with Retry-After)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ loadShedding: { maxEventLoopDelayMs: 30, maxEventLoopUtilization: 0, maxHeapUsedShare: 0 } });
  });
  afterAll(async () => t.close());

  const blockEventLoop = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until); // deliberately synchronous: this is the overload being simulated
  };

  it('sheds requests while the event loop lags, keeps /healthz, and recovers', async () => {
    let shed = null;
    let healthWhileShedding = null;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && !(shed && healthWhileShedding);) {
      blockEventLoop(200);
      await new Promise((r) => setImmediate(r)); // let the sampling timers run
      const [res, health] = await Promise.all([t.app.inject({ url: '/locations' }), t.app.inject({ url: '/healthz' })]);
      if (res.statusCode === 503) shed = res;
      if (res.statusCode === 503 && health.statusCode === 200) healthWhileShedding = health;
    }
    expect(shed).not.toBeNull();
    expect(shed!.headers['retry-after']).toMatch(/^\d+$/);
    expect(expectEnvelope(shed!).detail).toMatch(/overloaded/);
    expect(healthWhileShedding).not.toBeNull();
    // Once the loop keeps up again, requests are served (here: refused for their missing token).
    let status = 503;
    for (const deadline = Date.now() + 60_000; status === 503 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await t.app.inject({ url: '/locations' })).statusCode;
    }
    expect(status).toBe(401);
  });
});

describe('load shedding near the heap limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Any heap in use exceeds a millionth of the limit: the first sample sheds (event-loop checks off).
    t = await createTestApp({ loadShedding: { maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0, maxHeapUsedShare: 0.000001 } });
  });
  afterAll(async () => t.close());

  it('answers 503 with Retry-After at once, without a streak, and keeps /healthz', async () => {
    let res = await t.app.inject({ url: '/locations' });
    for (const deadline = Date.now() + 60_000; res.statusCode !== 503 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      res = await t.app.inject({ url: '/locations' });
    }
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(expectEnvelope(res).detail).toMatch(/overloaded/);
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
