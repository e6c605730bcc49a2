import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from './helpers/app.js';

// One trailing-slash rule for every path (docs/decisions/0078-paging-and-trailing-slashes.md): a registered path asked
// for with a trailing slash answers 307 (method and body kept) to the path without it, query kept — like the
// reference's FastAPI (redirect_slashes) — whatever the path's shape. Every operation of /openapi.json is tried.
describe('trailing slashes', () => {
  let t: TestApp;
  let operations: { method: string; path: string }[];

  beforeAll(async () => {
    t = await createTestApp();
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(await t.app.inject({ url: '/openapi.json' }));
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x1') })),
    );
  });
  afterAll(async () => t.close());

  it('every documented operation answers 307 to its path without the slash, query and method kept', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const { method, path } of operations) {
      const res = await t.app.inject({
        method: method as never,
        url: `${path}/?a=1`,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      if (res.statusCode !== 307 || res.headers.location !== `${path}?a=1`)
        wrong.push(`${method} ${path}/ → ${res.statusCode} ${res.headers.location ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('GET /tasks/ (a path whose slashed form falls on /tasks/:task_id) redirects like /legal_entity/', async () => {
    for (const path of ['/tasks', '/v2/tasks', '/legal_entity', '/locations', '/v2/regions']) {
      const res = await t.app.inject({ url: `${path}/` });
      expect(res.statusCode, path).toBe(307);
      expect(res.headers.location).toBe(path);
    }
  });

  it('an unknown path with a slash is still a 404, and / itself is served', async () => {
    expect((await t.app.inject({ url: '/no-such-thing/' })).statusCode).toBe(404);
    expect(json(await t.app.inject({ url: '/v2/tasks/x1/nothing/' }))).toEqual({ detail: 'Not Found' });
    expect((await t.app.inject({ url: '/' })).statusCode).not.toBe(307);
  });
});
