import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, type TestApp } from './helpers/app.js';

/**
 * Every case's expected `detail` was computed by pydantic itself (scripts/pydantic-parity.py), wrapped
 * as FastAPI wraps it. Statehouse must answer the same 422 body, field by field and in the same order.
 */
interface Case {
  endpoint: string;
  body: unknown;
  detail: unknown[] | null;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/pydantic-parity.json', import.meta.url), 'utf8')) as {
  pydantic: string;
  cases: Case[];
};

describe(`422 bodies match pydantic ${fixture.pydantic} + FastAPI`, () => {
  let t: TestApp;
  let headers: Record<string, Record<string, string>>;

  beforeAll(async () => {
    t = await createTestApp();
    const { apiKey, token } = await createPlatformWithEntity(t);
    await t.app.inject({ method: 'PUT', url: '/locations/CA', headers: bearer(token) });
    headers = { key: { authorization: apiKey }, token: bearer(token) };
  });
  afterAll(async () => t.close());

  it.each(fixture.cases.map((c, i) => [i, c.endpoint, JSON.stringify(c.body)?.slice(0, 80) ?? 'no body', c] as const))(
    '#%i %s %s',
    async (_i, endpoint, _label, c) => {
      const [method, url] = endpoint.includes(' ') ? (endpoint.split(' ') as ['PATCH' | 'PUT', string]) : (['POST', endpoint] as const);
      const auth = url.startsWith('/accounts/') || url === '/v2/signup' ? headers.key : headers.token;
      const res = await t.app.inject({
        method,
        url,
        headers: { ...auth, ...(c.body !== null && { 'content-type': 'application/json' }) },
        ...(c.body !== null && { payload: JSON.stringify(c.body) }),
      });
      if (c.detail === null) {
        expect(res.statusCode, res.body).not.toBe(422);
      } else {
        expect(res.statusCode).toBe(422);
        // Where the reference gives the 422 as PlatformHttpException (the /v2/regions operations), the items are `errors`.
        const body = res.json();
        expect(Array.isArray(body.detail) ? body.detail : body.errors).toEqual(c.detail);
      }
    },
  );
});
