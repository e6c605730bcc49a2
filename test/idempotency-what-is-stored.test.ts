import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { BUSINESS_STEP, csrfOf, openLink } from './helpers/hosted.js';
import { entityCount, keyRows, withKey } from './helpers/idempotency.js';

describe('Idempotency-Key: the header itself, and which answers are kept', () => {
  let t: TestApp;
  let platform: Awaited<ReturnType<typeof createPlatform>>;

  beforeAll(async () => {
    t = await createTestApp();
    platform = await createPlatform(t.db);
  });
  afterAll(async () => t.close());

  const signup = (key: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v2/signup', headers: withKey({ authorization: platform.apiKey }, key), payload });

  it('refuses a malformed key with a 422 on ["header", "idempotency-key"], with the body\'s issues after it', async () => {
    // An empty header is an absent one, like every optional empty string (docs/decisions/0076): only the body's issue.
    const empty = await signup('', { ...VALID_SIGNUP_V2, entity_type: 'corporation' });
    expect(json(empty).detail.map((issue: { loc: unknown }) => issue.loc)).toEqual([['body', 'entity_type']]);
    const cases: [string, string][] = [
      ['k'.repeat(256), 'string_too_long'],
      ['tab\there', 'string_pattern_mismatch'],
      ['cl\u00e9', 'string_pattern_mismatch'],
    ];
    for (const [key, type] of cases) {
      const res = await signup(key, { ...VALID_SIGNUP_V2, entity_type: 'corporation' });
      expect(res.statusCode).toBe(422);
      const { detail } = json(res);
      expect(detail.map((issue: { loc: unknown }) => issue.loc)).toEqual([
        ['header', 'idempotency-key'],
        ['body', 'entity_type'],
      ]);
      expect(detail[0]).toMatchObject({ type, input: key });
    }
    expect((await signup('k'.repeat(255), VALID_SIGNUP_V2)).statusCode).toBe(200);
    expect((await signup('Printable ASCII: ~!@#$%^&*()_+{}|:"<>?', VALID_SIGNUP_V2)).statusCode).toBe(200);
  });

  it('a request refused by validation keeps nothing: the corrected retry with the same key runs', async () => {
    const before = await entityCount(t.db, platform.platformId);
    const invalid = await signup('fix-1', { ...VALID_SIGNUP_V2, incorporated_date: 'not a date' });
    expect(invalid.statusCode).toBe(422);
    expect(await keyRows(t.db, 'fix-1')).toEqual([]);
    const corrected = await signup('fix-1', VALID_SIGNUP_V2);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await entityCount(t.db, platform.platformId)).toBe(before + 1);
    expect((await signup('fix-1', VALID_SIGNUP_V2)).headers['idempotent-replayed']).toBe('true');
  });

  it('a 409 is not kept: the key is let go, so the same or another request runs', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v2/signup',
          headers: { authorization: platform.apiKey },
          payload: { ...VALID_SIGNUP_V2, external_company_id: 'dup-1' },
        })
      ).statusCode,
    ).toBe(200);
    const conflict = await signup('conflict-1', { ...VALID_SIGNUP_V2, external_company_id: 'dup-1' });
    expect(conflict.statusCode).toBe(409);
    const again = await signup('conflict-1', { ...VALID_SIGNUP_V2, external_company_id: 'dup-1' });
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyRows(t.db, 'conflict-1')).toEqual([]);
    const other = await signup('conflict-1', { ...VALID_SIGNUP_V2, external_company_id: 'dup-2' });
    expect(other.statusCode).toBe(200);
  });

  it('hosted pages (cookie sessions) ignore the header', async () => {
    const entity = json(
      await t.app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: platform.apiKey }, payload: VALID_SIGNUP_V2 }),
    );
    const { browser } = await openLink(t.app, entity.url);
    const page = await browser!.get('/hosted/signup/business');
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/hosted/signup/business',
        headers: { cookie: browser!.cookie, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': '' },
        payload: new URLSearchParams({ ...BUSINESS_STEP, _csrf: csrfOf(page.body)! }).toString(),
      });
    const stored = (await keyRows(t.db)).length;
    // The step is saved and the browser sent on (an empty key would be a 422 on the API).
    const first = await post();
    expect(first.statusCode).toBe(303);
    const second = await post();
    expect(second.statusCode).toBe(303);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await keyRows(t.db)).toHaveLength(stored);
  });

  it('the OpenAPI document offers the header on every POST and PATCH, and only there', async () => {
    const document = json(await t.app.inject({ url: '/openapi.json' }));
    const operations = Object.entries(
      document.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>,
    ).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    const withHeader = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    const writes = operations.filter((o) => o.method === 'post' || o.method === 'patch');
    expect(writes.length).toBeGreaterThan(20);
    expect(writes.filter((o) => !withHeader(o.operation)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(
      operations.filter((o) => o.method !== 'post' && o.method !== 'patch' && withHeader(o.operation)).map((o) => `${o.method} ${o.path}`),
    ).toEqual([]);
  });
});
