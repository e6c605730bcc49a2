import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersJson } from '../src/modules/system/system.routes.js';
import { createTestApp, json, type TestApp } from './helpers/app.js';

describe('GET /', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('a browser (or curl) gets a page naming Statehouse with its links', async () => {
    for (const accept of [undefined, '*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']) {
      const res = await t.app.inject({ url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<h1>Statehouse</h1>');
      for (const href of ['/docs', '/openapi.json', '/healthz', '/readyz']) expect(res.body).toContain(`href="${href}"`);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    }
  });

  it('an API client asking for JSON gets the links as JSON, and every link answers 200', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = json(res);
    expect(body).toEqual({
      name: 'Statehouse',
      links: { api_reference: '/docs', openapi: '/openapi.json', health: '/healthz', readiness: '/readyz' },
    });
    for (const path of Object.values(body.links as Record<string, string>)) {
      const linked = await t.app.inject({ url: path });
      expect([200, 302], path).toContain(linked.statusCode);
    }
  });

  it('negotiates by the Accept header ranking', () => {
    expect(prefersJson('application/json')).toBe(true);
    expect(prefersJson('application/json, text/plain, */*')).toBe(true);
    expect(prefersJson('text/html, application/json;q=0.9')).toBe(false);
    expect(prefersJson('application/json;q=0.5, text/html;q=0.4')).toBe(true);
    expect(prefersJson('application/json;q=0')).toBe(false);
    expect(prefersJson('*/*')).toBe(false);
    expect(prefersJson(undefined)).toBe(false);
  });

  it('is not in the OpenAPI document (it is not an API operation)', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(doc.paths['/']).toBeUndefined();
  });
});
