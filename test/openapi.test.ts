import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from './helpers/app.js';

describe('operations endpoints and the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('/healthz and /readyz', async () => {
    expect(json(await t.app.inject({ url: '/healthz' }))).toEqual({ status: 'ok' });
    expect(json(await t.app.inject({ url: '/readyz' }))).toEqual({ status: 'ok' });
  });

  it('/openapi.json is OpenAPI 3.1, version 1.0.0, with both path families', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const expected: [string, string][] = [
      ['/accounts/signup', 'post'],
      ['/accounts/signup/sessions', 'post'],
      ['/accounts/auth', 'post'],
      ['/v2/signup/sessions', 'post'],
      ['/v2/signup', 'post'],
      ['/v2/auth', 'post'],
      ['/v2/regions', 'get'],
      ['/v2/regions', 'post'],
      ['/v2/regions/{region}', 'put'],
      ['/locations', 'get'],
      ['/locations/{location_public_id}', 'put'],
      ['/locations/{region_platform_public_id}', 'patch'],
      ['/legal_entity', 'get'],
      ['/v2/legal_entity', 'get'],
      ['/tasks', 'get'],
      ['/locations/{region_platform_public_id}/tasks', 'get'],
      ['/tasks/{task_id}', 'get'],
      ['/tasks/{task_id}', 'patch'],
      ['/v2/tasks', 'get'],
      ['/v2/tasks/{task_id}', 'get'],
      ['/v2/tasks/{task_id}', 'patch'],
      ['/v2/tasks/questions/{question_task_id}', 'patch'],
      ['/tasks/sessions', 'post'],
      ['/v2/auth/payroll', 'post'],
      ['/v2/tasks/manage/session', 'post'],
      ['/v2/tasks/{task_id}/session', 'post'],
      ['/tasks/{task_id}/automate/sessions', 'post'],
      ['/v2/signup/session', 'post'],
      ['/agency_accounts', 'get'],
      ['/locations/{region_platform_public_id}/agency_accounts', 'get'],
      ['/v2/agency_accounts', 'get'],
      ['/logins', 'get'],
      ['/locations/{location_public_id}/logins', 'get'],
      ['/v2/logins', 'get'],
      ['/logins/{legal_entity_account_login_public_id}/sessions', 'post'],
      ['/v2/logins/{account_login_public_id}/session', 'post'],
      ['/v2/accounts/manage/session', 'post'],
      ['/mail', 'get'],
      ['/locations/{region_platform_public_id}/mail', 'get'],
      ['/v2/mail', 'get'],
      ['/v2/documents/manage/session', 'post'],
      ['/accounts/connect', 'post'],
      ['/accounts/connections/{connection_id}', 'get'],
      ['/accounts/connections/{connection_id}/cancel', 'post'],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/hosted'))).toBe(false);
    const signup = doc.paths['/v2/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.required).toEqual([
      'user_email',
      'business_name',
      'entity_type',
      'tax_class',
      'incorporation_region',
      'incorporated_date',
    ]);
    expect(Object.keys(signup.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '409', '422']));
  });

  it('/docs serves interactive documentation', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
