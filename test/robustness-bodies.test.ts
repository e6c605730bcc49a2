/**
 * Robustness of request bodies: the body size limit, content types, invalid UTF-8 and deeply nested JSON
 * never produce a 500 or leak a stack trace, every error body is JSON with `detail` (plus `message` on the
 * /v2/signup family), and bad input never creates a record. The other input families: robustness-values(-structure),
 * robustness-routing, robustness-fuzz.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import {
  V2,
  countEntities,
  expectHandled,
  isPlatformRoute,
  startRobustnessApps,
  type Method,
  type RobustnessApps,
} from './helpers/robustness.js';

describe('robustness: request bodies', () => {
  let apps: RobustnessApps;
  let t: TestApp;
  let small: TestApp;
  let entityId: string;
  const send: RobustnessApps['send'] = (app, req) => apps.send(app, req);

  beforeAll(async () => {
    apps = await startRobustnessApps({ small: true });
    ({ t, small, entityId } = apps);
  });
  afterAll(async () => {
    await apps?.close();
  });

  describe('body size limit (4 KiB)', () => {
    const big = JSON.stringify({ ...V2, business_purpose: 'x'.repeat(5000) });
    const cases: Array<{
      name: string;
      method: Method;
      url: string;
      auth: 'key' | 'bearer' | 'none';
      headers: Record<string, string>;
      payload: () => string | Readable;
    }> = [
      {
        name: 'JSON to /accounts/signup',
        method: 'POST',
        url: '/accounts/signup',
        auth: 'key',
        headers: { 'content-type': 'application/json' },
        payload: () => big,
      },
      {
        name: 'JSON to /v2/signup',
        method: 'POST',
        url: '/v2/signup',
        auth: 'key',
        headers: { 'content-type': 'application/json' },
        payload: () => big,
      },
      {
        name: 'text/plain',
        method: 'POST',
        url: '/accounts/signup',
        auth: 'key',
        headers: { 'content-type': 'text/plain' },
        payload: () => big,
      },
      { name: 'no content type', method: 'POST', url: '/v2/signup', auth: 'key', headers: {}, payload: () => big },
      {
        name: 'chunked (no content-length)',
        method: 'POST',
        url: '/v2/signup',
        auth: 'key',
        headers: { 'content-type': 'application/json' },
        payload: () => Readable.from([Buffer.from(big)]),
      },
      {
        name: 'PUT /v2/regions/CA',
        method: 'PUT',
        url: '/v2/regions/CA',
        auth: 'bearer',
        headers: { 'content-type': 'application/json' },
        payload: () => JSON.stringify({ employee_count: 1, pad: 'x'.repeat(5000) }),
      },
      {
        name: 'POST /v2/regions',
        method: 'POST',
        url: '/v2/regions',
        auth: 'bearer',
        headers: { 'content-type': 'application/json' },
        payload: () => JSON.stringify({ config: { CA: { employee_count: 1 } }, pad: 'x'.repeat(5000) }),
      },
    ];

    it.each(cases)('$name -> 413', async (c) => {
      const before = await countEntities(small);
      const res = await send(small, { method: c.method, url: c.url, auth: c.auth, headers: c.headers, payload: c.payload() });
      expect(res.statusCode, res.body).toBe(413);
      expectHandled(res, { platform: isPlatformRoute(c.url) });
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(isPlatformRoute(c.url) ? ['detail', 'message'] : ['detail']);
      expect(body.detail).toEqual(expect.stringContaining('4096'));
      expect(await countEntities(small)).toBe(before);
    });

    it('an oversized body without credentials is a 401: authentication comes before the body', async () => {
      const res = await send(small, { url: '/v2/signup', auth: 'none', headers: { 'content-type': 'application/json' }, payload: big });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized', detail: expect.stringContaining('API key') });
    });

    it('accepts a body just under the limit', async () => {
      const body = JSON.stringify({ ...V2, business_purpose: 'x'.repeat(1900) });
      expect(body.length).toBeLessThan(4096);
      const res = await send(small, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload: body });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('content types', () => {
    const raw = JSON.stringify(V2);
    it.each([
      ['text/plain', raw],
      ['text/plain; charset=utf-8', raw],
      ['text/json', raw],
      ['application/xml', '<signup><user_email>founder@example.com</user_email></signup>'],
      ['application/x-www-form-urlencoded', 'user_email=founder%40example.com&business_name=Acme'],
      [
        'multipart/form-data; boundary=XyZ',
        '--XyZ\r\nContent-Disposition: form-data; name="user_email"\r\n\r\nfounder@example.com\r\n--XyZ--\r\n',
      ],
      ['application/octet-stream', raw],
      ['image/png', '\x89PNG\r\n'],
    ])('%s body on /v2/signup -> 422 model_attributes_type, nothing created', async (contentType, payload) => {
      const before = await countEntities(t);
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': contentType }, payload });
      expectHandled(res, { platform: true });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: payload,
        },
      ]);
      expect(await countEntities(t)).toBe(before);
    });

    it('no content type with a JSON body: parsed as JSON (as FastAPI does)', async () => {
      const before = await countEntities(t);
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: {}, payload: raw });
      expect(res.statusCode, res.body).toBe(200);
      expect(await countEntities(t)).toBe(before + 1);
    });

    it.each(['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json'])('%s is JSON', async (contentType) => {
      const res = await send(t, {
        url: '/accounts/auth',
        auth: 'key',
        headers: { 'content-type': contentType },
        payload: JSON.stringify({ legal_entity_id: entityId }),
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    it.each(['json', ';;;', 'application/', '/json', 'text/plain; charset="'])('odd content type %j is handled', async (contentType) => {
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': contentType }, payload: raw });
      expectHandled(res, { platform: true });
    });
  });

  describe('invalid UTF-8', () => {
    const bodies: Array<[string, Buffer]> = [
      ['0xff inside a string', Buffer.concat([Buffer.from('{"business_name":"'), Buffer.from([0xff]), Buffer.from('"}')])],
      ['overlong encoding', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])],
      ['truncated sequence at the end', Buffer.concat([Buffer.from('{"a":"x"}'), Buffer.from([0xe2, 0x82])])],
      ['lone continuation byte', Buffer.from([0x7b, 0x80, 0x7d])],
    ];
    it.each(bodies)('%s -> 400 {"detail":"There was an error parsing the body"}', async (_name, payload) => {
      const res = await send(t, { url: '/accounts/signup', auth: 'key', headers: { 'content-type': 'application/json' }, payload });
      expectHandled(res);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'There was an error parsing the body' });
    });

    it('on /v2/signup and without a content type too', async () => {
      const before = await countEntities(t);
      for (const headers of [{ 'content-type': 'application/json' }, {}] as Record<string, string>[]) {
        const res = await send(t, { url: '/v2/signup', auth: 'key', headers, payload: bodies[0]![1] });
        expectHandled(res, { platform: true });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Bad Request', detail: 'There was an error parsing the body' });
      }
      expect(await countEntities(t)).toBe(before);
    });

    it('invalid UTF-8 in a text/plain body is not a 500', async () => {
      const res = await send(t, { url: '/v2/signup', auth: 'key', headers: { 'content-type': 'text/plain' }, payload: bodies[0]![1] });
      expectHandled(res, { platform: true });
    });
  });

  describe('deeply nested JSON (100000 levels)', () => {
    const N = 100_000;
    it.each([
      ['arrays', '['.repeat(N) + ']'.repeat(N)],
      ['objects', '{"a":'.repeat(N) + '1' + '}'.repeat(N)],
      ['unterminated arrays', '['.repeat(N)],
      ['inside a field', `{"business_name":${'['.repeat(N)}${']'.repeat(N)}}`],
    ])('%s -> 422 json_invalid', async (_name, payload) => {
      for (const url of ['/accounts/signup', '/v2/signup']) {
        const res = await send(t, { url, auth: 'key', headers: { 'content-type': 'application/json' }, payload });
        expectHandled(res, { platform: isPlatformRoute(url) });
        expect(res.statusCode).toBe(422);
        const [issue, ...rest] = res.json().detail;
        expect(rest).toEqual([]);
        expect(issue).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error', input: {} });
        expect(issue.loc).toEqual(['body', expect.any(Number)]);
        expect(typeof issue.ctx.error).toBe('string');
      }
      // Still serving.
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    });
  });
});
