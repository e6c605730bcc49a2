/**
 * Robustness of routing: 404, 405 with Allow, HEAD, bad percent-encoding, authentication before the body.
 * The fuzz loop over every JSON endpoint: robustness-fuzz.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { countEntities, expectHandled, startRobustnessApps, type Method, type RobustnessApps } from './helpers/robustness.js';

describe('robustness: routing', () => {
  let apps: RobustnessApps;
  let t: TestApp;
  const send: RobustnessApps['send'] = (app, req) => apps.send(app, req);

  beforeAll(async () => {
    apps = await startRobustnessApps();
    ({ t } = apps);
  });
  afterAll(async () => {
    await apps?.close();
  });

  describe('routing', () => {
    it.each<[Method, string]>([
      ['GET', '/nope'],
      ['GET', '/index.html'], // GET / is the home page (test/home.test.ts)
      ['POST', '/v3/signup'],
      ['GET', '/accounts'],
      ['DELETE', '/v2/nothing/here'],
      ['GET', '/x'.repeat(2500)],
      ['GET', '/hosted/assets/../../../etc/passwd'],
    ])('%s %s -> 404 {"detail":"Not Found"}', async (method, url) => {
      const res = await send(t, { method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    });

    // Starlette routes before it reads the body: an unknown path is a 404 whatever the body is.
    it('unknown route with a malformed JSON body -> 404, not a body error', async () => {
      const res = await send(t, { url: '/nope', headers: { 'content-type': 'application/json' }, payload: '{"a" 1}' });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    });

    it('wrong method with a malformed JSON body -> 405, not a body error', async () => {
      const res = await send(t, {
        method: 'DELETE',
        url: '/v2/signup',
        headers: { 'content-type': 'application/json' },
        payload: '{"a" 1}',
      });
      expect(res.statusCode, res.body).toBe(405);
      expect(res.headers.allow).toBe('POST');
    });

    // uvicorn percent-decodes with errors='replace'; the path then routes normally.
    it.each<[Method, string]>([
      ['GET', '/%'],
      ['GET', '/v2/legal_entity%'],
      ['PUT', '/locations/%E2%82'],
      ['PUT', '/v2/regions/%C0'],
    ])('%s %s (bad percent-encoding) -> 4xx with {"detail"}', async (method, url) => {
      const res = await send(t, {
        method,
        url,
        auth: 'bearer',
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' ? undefined : '{"employee_count":1}',
      });
      expectHandled(res);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    });

    it.each<[Method, string, string[]]>([
      ['DELETE', '/v2/signup', ['POST']],
      ['GET', '/accounts/auth', ['POST']],
      ['PUT', '/v2/signup/sessions', ['POST']],
      ['PATCH', '/v2/regions', ['GET', 'POST']],
      ['DELETE', '/locations/CA', ['PATCH', 'PUT']],
      ['POST', '/legal_entity', ['GET']],
      ['OPTIONS', '/v2/auth', ['POST']],
    ])('%s %s -> 405 with Allow', async (method, url, allowed) => {
      const res = await send(t, { method, url });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
      const allow = String(res.headers.allow).split(/,\s*/);
      for (const m of allowed) expect(allow).toContain(m);
    });

    it('HEAD requests', async () => {
      const ok = await send(t, { method: 'HEAD', url: '/healthz' });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('');
      const unauthenticated = await send(t, { method: 'HEAD', url: '/v2/legal_entity' });
      expect(unauthenticated.statusCode).toBe(401);
      expect(unauthenticated.body).toBe('');
      const authed = await send(t, { method: 'HEAD', url: '/legal_entity', auth: 'bearer' });
      expect(authed.statusCode).toBe(200);
      expect(authed.body).toBe('');
      const missing = await send(t, { method: 'HEAD', url: '/nope' });
      expect(missing.statusCode).toBe(404);
      const wrong = await send(t, { method: 'HEAD', url: '/v2/signup' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers.allow).toBe('POST');
    });

    it('authentication comes before body validation, and nothing is created', async () => {
      const before = await countEntities(t);
      for (const authorization of [undefined, '', 'Bearer', 'Bearer sh_key_nope', 'x'.repeat(10_000), 'Basic Zm9vOmJhcg==']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v2/signup',
          headers: { 'content-type': 'application/json', ...(authorization !== undefined && { authorization }) },
          payload: '{}',
        });
        expectHandled(res, { platform: true });
        expect(res.statusCode).toBe(401);
      }
      expect(await countEntities(t)).toBe(before);
    });
  });
});
