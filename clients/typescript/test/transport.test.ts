// The SDK's transport without a server: retries, backoff and Retry-After (an injected sleep records the waits),
// Idempotency-Key generation, one refresh on a 401, and the typed errors.
import { describe, expect, it } from 'vitest';
import { createTransport, type Credentials } from '../src/transport.js';
import { ConflictError, NotFoundError, RateLimitedError, ServerError, ValidationError } from '../src/errors.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that answers from `answers` in turn (an Error is thrown as a network failure) and records each request. */
function scripted(answers: (Response | Error)[]) {
  const seen: { method: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    seen.push({ method: request.method, headers: request.headers, body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, seen };
}

const key: Credentials = { authorization: async () => 'sh_key_test' };
const post = () => new Request('http://statehouse.test/v2/signup', { method: 'POST', body: '{"a":1}' });

function harness(answers: (Response | Error)[], credentials = key, now = () => 1_000_000) {
  const server = scripted(answers);
  const waits: number[] = [];
  const transport = createTransport(credentials, {
    fetch: server.fetch,
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    now,
    idempotencyKey: () => 'generated-key',
  });
  return { transport, seen: server.seen, waits };
}

describe('transport', () => {
  it('adds an Idempotency-Key to a POST and keeps it on every retry of a network error, 5xx and 429', async () => {
    const { transport, seen, waits } = harness([
      new TypeError('fetch failed'),
      json(503, { detail: 'busy' }),
      json(429, {}),
      json(200, { ok: 1 }),
    ]);
    const response = await transport(post());
    expect(await response.json()).toEqual({ ok: 1 });
    expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual(['generated-key', 'generated-key', 'generated-key', 'generated-key']);
    expect(seen.every((s) => s.body === '{"a":1}' && s.headers.get('authorization') === 'sh_key_test')).toBe(true);
    // Full jitter (random 0.5) on 250 ms doubling: 125, 250, 500.
    expect(waits).toEqual([125, 250, 500]);
  });

  it("keeps the caller's Idempotency-Key, and sends none on GET, PUT, DELETE and token issuing", async () => {
    const { transport, seen } = harness([json(200, {}), json(200, {}), json(200, {}), json(200, {})]);
    await transport(new Request('http://statehouse.test/v2/signup', { method: 'POST', headers: { 'idempotency-key': 'mine' } }));
    await transport(new Request('http://statehouse.test/v2/tasks'));
    await transport(new Request('http://statehouse.test/v2/regions/NY', { method: 'PUT', body: '{}' }));
    await transport(new Request('http://statehouse.test/v2/webhook_endpoints/we_1', { method: 'DELETE' }));
    expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual(['mine', null, null, null]);
    // Token issuing: no generated key (the service would keep the token to replay it).
    const auth = harness([json(200, {}), json(200, {})]);
    await auth.transport(new Request('http://statehouse.test/v2/auth', { method: 'POST', body: '{}' }));
    await auth.transport(new Request('http://statehouse.test/accounts/auth', { method: 'POST', body: '{}' }));
    expect(auth.seen.map((s) => s.headers.get('idempotency-key'))).toEqual([null, null]);
  });

  it('honours Retry-After in seconds and as a date, capped by maxDelayMs', async () => {
    const now = () => Date.parse('2026-01-01T00:00:00Z');
    const { transport, waits } = harness(
      [
        json(429, {}, { 'retry-after': '2' }),
        json(503, {}, { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }),
        json(429, {}, { 'retry-after': '3600' }),
        json(200, {}),
      ],
      key,
      now,
    );
    await transport(new Request('http://statehouse.test/v2/tasks'));
    expect(waits).toEqual([2000, 7000, 30_000]);
  });

  it('retries a 409 that says when (an Idempotency-Key in flight), not a plain conflict', async () => {
    const inFlight = harness([json(409, { detail: 'in progress' }, { 'retry-after': '1' }), json(200, { replayed: true })]);
    expect(await (await inFlight.transport(post())).json()).toEqual({ replayed: true });
    expect(inFlight.waits).toEqual([1000]);
    const plain = harness([json(409, { detail: 'already connected' })]);
    await expect(plain.transport(post())).rejects.toBeInstanceOf(ConflictError);
  });

  it('gives up after maxRetries with the typed error of the last answer, or the last network error', async () => {
    const busy = harness([json(503, { detail: 'a' }), json(503, { detail: 'b' }), json(503, { detail: 'c' }), json(502, { detail: 'd' })]);
    const error = await busy.transport(post()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, message: '502: d' });
    const down = harness([1, 2, 3, 4].map(() => new TypeError('fetch failed')));
    await expect(down.transport(post())).rejects.toThrow('fetch failed');
    expect(down.seen).toHaveLength(4);
  });

  it('on a 401 refreshes the credential once and repeats the request with the new one', async () => {
    let token = 'old';
    let refreshes = 0;
    const credentials: Credentials = {
      authorization: async () => `Bearer ${token}`,
      refresh: async () => {
        refreshes++;
        token = `new${refreshes}`;
        return true;
      },
    };
    const once = harness([json(401, { detail: 'expired' }), json(200, {})], credentials);
    await once.transport(post());
    expect(once.seen.map((s) => s.headers.get('authorization'))).toEqual(['Bearer old', 'Bearer new1']);
    expect(once.seen[1]?.headers.get('idempotency-key')).toBe('generated-key');
    const twice = harness([json(401, { detail: 'expired' }), json(401, { detail: 'revoked' })], credentials);
    await expect(twice.transport(post())).rejects.toMatchObject({ name: 'AuthenticationError', status: 401 });
    expect(refreshes).toBe(2);
  });

  it('maps 404, 422 and 429 to typed errors with the request id and the 422 items', async () => {
    const issue = { type: 'missing', loc: ['body', 'business_name'], msg: 'Field required', input: {} };
    const { transport } = harness(
      [
        json(404, { detail: 'Legal entity not found' }, { 'x-request-id': 'req-1' }),
        json(422, { detail: [issue] }, { 'x-request-id': 'req-2' }),
      ],
      key,
    );
    const missing = await transport(new Request('http://statehouse.test/v2/legal_entity')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, requestId: 'req-1', message: '404: Legal entity not found' });
    const invalid = await transport(post()).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 422, requestId: 'req-2', issues: [issue], message: '422: body.business_name: Field required' });
    const limited = createTransport(key, {
      fetch: async () => json(429, { detail: 'slow down' }, { 'retry-after': '5' }),
      retry: { maxRetries: 0 },
    });
    const error = await limited(new Request('http://statehouse.test/v2/tasks')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(5);
  });
});
