import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from './helpers/app.js';

/** /docs is built on its first visit (src/http/docs-ui.ts) and answers as the rest of the app does. */
describe('the Swagger UI at /docs, built on its first visit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('serves the page with and without the trailing slash, and its static files', async () => {
    const [slash, bare] = await Promise.all([t.app.inject({ url: '/docs/' }), t.app.inject({ url: '/docs' })]);
    for (const res of [slash, bare]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    expect(slash.body).toContain('./static/swagger-ui-bundle.js');
    expect(bare.body).toContain('/docs/static/swagger-ui-bundle.js');

    const css = await t.app.inject({ url: '/docs/static/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body.length).toBeGreaterThan(10_000);
    const etag = css.headers.etag;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({ url: '/docs/static/swagger-ui.css', headers: { 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const initializer = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain('"docExpansion":"list"');
  });

  it("renders this app's OpenAPI document", async () => {
    const [fromDocs, document] = await Promise.all([t.app.inject({ url: '/docs/json' }), t.app.inject({ url: '/openapi.json' })]);
    expect(fromDocs.statusCode).toBe(200);
    expect(json(fromDocs)).toEqual(json(document));
  });

  it("answers a missing file with the API's own 404", async () => {
    const res = await t.app.inject({ url: '/docs/static/no-such-file.js' });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ detail: 'Not Found' });
  });

  it('is not part of the OpenAPI document', async () => {
    const document = json(await t.app.inject({ url: '/openapi.json' }));
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/docs'))).toEqual([]);
  });
});
