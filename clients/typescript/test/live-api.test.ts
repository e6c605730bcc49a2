// The SDK against a live server over HTTP: signup and token, the paging iterator, a retry that the Idempotency-Key
// makes safe, a 422 as a ValidationError, and the token refreshed before its 10 minutes run out (injected clock)
// and after a 401. An outside component (a listening server): the embedded-PostgreSQL lane only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideComponentsLane } from '../../../test/helpers/lanes.js';
import { createApiKeyClient, createEntityClient, NotFoundError, paginate, ValidationError } from '../src/index.js';
import { recordingFetch, SIGNUP, startLiveServer, type LiveServer } from './live-server.js';

describe.skipIf(!outsideComponentsLane)('the TypeScript SDK against a live server', () => {
  let server: LiveServer;
  let legalEntityId: string;
  beforeAll(async () => {
    server = await startLiveServer();
    const platform = createApiKeyClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const { data } = await platform.POST('/v2/signup', { body: SIGNUP });
    legalEntityId = data!.legal_entity_id;
  });
  afterAll(async () => server?.close());

  const entityCount = async () =>
    Number(
      (
        await server.t.db
          .selectFrom('legal_entities')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('platform_id', '=', server.platformId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('signs up with the API key and acts for the entity with its token', async () => {
    const recorder = recordingFetch();
    const entity = createEntityClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, legalEntityId, fetch: recorder.fetch });
    const { data } = await entity.GET('/v2/legal_entity');
    expect(data).toMatchObject({ id: legalEntityId, name: SIGNUP.business_name });
    const { data: region } = await entity.PUT('/v2/regions/{region}', { params: { path: { region: 'NY' } }, body: { employee_count: 3 } });
    expect(region).toMatchObject({ employee_count: 3 });
    // One token for both calls: POST /v2/auth with the key, then the token on each call.
    expect(recorder.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v2/auth', 'GET /v2/legal_entity', 'PUT /v2/regions/NY']);
    expect(recorder.calls[0]?.authorization).toBe(server.apiKey);
    expect(recorder.calls[1]?.authorization).toMatch(/^Bearer /);
  });

  it('pages through GET /v2/tasks with the iterator, following X-Next-Page', async () => {
    const recorder = recordingFetch();
    const entity = createEntityClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, legalEntityId, fetch: recorder.fetch });
    const { data: all, response } = await entity.GET('/v2/tasks', { params: { query: { page_size: 500 } } });
    const total = Number(response.headers.get('x-total'));
    expect(total).toBeGreaterThan(6);
    const ids: string[] = [];
    for await (const task of paginate(entity, '/v2/tasks', { page_size: 3 })) ids.push(task.id);
    expect(ids).toEqual(all!.map((task) => task.id));
    const pages = recorder.calls.filter((c) => c.path === '/v2/tasks').length - 1;
    expect(pages).toBe(Math.ceil(total / 3));
    // break stops fetching.
    const before = recorder.calls.length;
    for await (const _ of paginate(entity, '/v2/tasks', { page_size: 2 })) break;
    expect(recorder.calls.length - before).toBe(1);
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key: one entity, the first answer replayed', async () => {
    let firstAnswer: unknown = null;
    const keys: (string | null)[] = [];
    // The first request reaches the server and is done, then the connection "drops" before the answer is read.
    const lossy = async (request: Request) => {
      keys.push(request.headers.get('idempotency-key'));
      const response = await globalThis.fetch(request);
      if (firstAnswer === null) {
        firstAnswer = await response.json();
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    };
    const before = await entityCount();
    const waits: number[] = [];
    const platform = createApiKeyClient({
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      fetch: lossy,
      sleep: async (ms) => void waits.push(ms),
    });
    const { data, response } = await platform.POST('/v2/signup', { body: { ...SIGNUP, business_name: 'Retried Widgets Inc' } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(waits).toHaveLength(1);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(data).toEqual(firstAnswer);
    expect(await entityCount()).toBe(before + 1);
  });

  it('throws a ValidationError with the 422 items, and a NotFoundError with the request id', async () => {
    const platform = createApiKeyClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const { business_name: _, ...withoutName } = SIGNUP;
    const error = await platform.POST('/v2/signup', { body: withoutName as typeof SIGNUP }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const invalid = error as ValidationError;
    expect(invalid.status).toBe(422);
    expect(invalid.requestId).toBeTruthy();
    expect(invalid.issues).toContainEqual(expect.objectContaining({ type: 'missing', loc: ['body', 'business_name'] }));
    const missing = await platform.POST('/v2/auth', { body: { legal_entity_id: 'le_doesnotexist' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).requestId).toBe((missing as NotFoundError).headers.get('x-request-id'));
  });

  it('refreshes the token when less than a minute remains (injected clock) and once after a 401', async () => {
    let clock = Date.now();
    const recorder = recordingFetch();
    const entity = createEntityClient({
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      legalEntityId,
      fetch: recorder.fetch,
      now: () => clock,
    });
    const tokenUsed = () => recorder.calls.at(-1)?.authorization;
    await entity.GET('/v2/legal_entity');
    const first = tokenUsed();
    clock += 9 * 60_000; // 60 s left: still used
    await entity.GET('/v2/legal_entity');
    expect(tokenUsed()).toBe(first);
    clock += 1_000; // 59 s left: a new token first
    await entity.GET('/v2/legal_entity');
    expect(tokenUsed()).not.toBe(first);
    expect(recorder.calls.filter((c) => c.path === '/v2/auth')).toHaveLength(2);
    // The server's clock passes the token's expiry while the SDK's does not: a 401, one refresh, the call repeated.
    server.t.advance(11 * 60_000);
    const { data } = await entity.GET('/v2/legal_entity');
    expect(data).toMatchObject({ id: legalEntityId });
    expect(recorder.calls.slice(-3).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v2/legal_entity',
      'POST /v2/auth',
      'GET /v2/legal_entity',
    ]);
  });
});
