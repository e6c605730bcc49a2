import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorKey } from './helpers/back-office.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

/**
 * The 422 bodies of the operations whose 422 the reference v2 document gives as PlatformHttpException
 * (`{message: string, detail: string}`, both required), and one 401 body per path family.
 */
describe('error bodies in the shapes the reference documents give each operation', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  // Each: the reference v2 document's 422 for this operation is #/components/schemas/PlatformHttpException.
  it.each([
    [
      'POST',
      '/v2/regions',
      { config: { ZZ: { employee_count: 1 } } },
      ['body', 'config', 'ZZ', '[key]'],
      'body.config.ZZ.[key]: Input should be',
    ],
    [
      'PUT',
      '/v2/regions/CA',
      { employee_count: 'many' },
      ['body', 'employee_count'],
      'body.employee_count: Input should be a valid integer',
    ],
    ['PATCH', '/v2/tasks/task_x', { status: 'finished' }, ['body', 'status'], 'body.status: Input should be'],
    ['PATCH', '/v2/tasks/questions/task_x', {}, ['body', 'answer'], 'body.answer: Field required'],
    [
      'POST',
      '/v2/tasks/manage/session',
      { callback_url: 'not a url', task_type: 'requirement' },
      ['body', 'callback_url'],
      'body.callback_url: ',
    ],
  ] as const)('%s %s: 422 is {message, detail: string} with the items in `errors`', async (method, url, payload, loc, sentence) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), payload });
    expect(res.statusCode).toBe(422);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['detail', 'errors', 'message']);
    expect(body.message).toBe('Validation error');
    expect(typeof body.detail).toBe('string');
    expect(body.detail).toContain(sentence);
    expect(body.errors[0]).toMatchObject({ loc, type: expect.any(String), msg: expect.any(String) });
  });

  it('the summary names the first five issues and counts the rest', async () => {
    const config = Object.fromEntries(['Z1', 'Z2', 'Z3', 'Z4', 'Z5', 'Z6', 'Z7'].map((code) => [code, { employee_count: 1 }]));
    const body = json(await t.app.inject({ method: 'POST', url: '/v2/regions', headers: bearer(token), payload: { config } }));
    expect(body.errors).toHaveLength(7);
    expect(body.detail.split('; ')).toHaveLength(6);
    expect(body.detail).toMatch(/^body\.config\.Z1\.\[key\]: .*; and 2 more$/);
  });

  it('the other /v2 task operations keep the HTTPValidationError shape the reference gives them', async () => {
    const res = await t.app.inject({ url: '/v2/tasks?page_size=0', headers: bearer(token) });
    expect(res.statusCode).toBe(422);
    expect(Array.isArray(json(res).detail)).toBe(true);
  });

  it('a 401 has one body per path family', async () => {
    const operator = await createOperatorKey(t.db, 'shapes');
    expect(operator.key).toMatch(/^sh_op_/);
    const cases = [
      // unversioned: FastAPI's {detail}
      ['GET', '/locations', { detail: 'Not authenticated' }],
      ['POST', '/accounts/auth', null],
      // /v2: {message, detail} (PlatformHttpException), whatever the operation's other errors look like
      ['GET', '/v2/regions', { message: 'Unauthorized', detail: 'Not authenticated' }],
      ['PUT', '/v2/regions/CA', { message: 'Unauthorized', detail: 'Not authenticated' }],
      ['GET', '/v2/tasks', { message: 'Unauthorized', detail: 'Not authenticated' }],
      ['POST', '/v2/signup', null],
      ['POST', '/v2/auth', null],
      // operator API: {detail}
      ['GET', '/operator/v1/automations', { detail: 'Missing or invalid operator key' }],
    ] as const;
    for (const [method, url, expected] of cases) {
      const res = await t.app.inject({ method, url, ...(method !== 'GET' && { payload: {} }) });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['www-authenticate'], url).toMatch(/^Bearer/);
      const body = json(res);
      expect(Object.keys(body).sort(), url).toEqual(url.startsWith('/v2/') ? ['detail', 'message'] : ['detail']);
      if (expected) expect(body, url).toEqual(expected);
      else expect(typeof body.detail, url).toBe('string');
    }
    // Hosted pages: a person reads them, so a page (HTML), not JSON.
    const page = await t.app.inject({ url: '/hosted/tasks' });
    expect(page.statusCode).toBe(401);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Your session has ended');
  });
});
