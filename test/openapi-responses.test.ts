import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorKey } from './helpers/back-office.js';
import { createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';

/**
 * Walks /openapi.json: every operation lists the error statuses it can send, and what the routes really
 * answer (without credentials; with them and a body that is not an object) is a status the operation lists,
 * in the body that status is documented with.
 */
interface Schema {
  required?: string[];
  properties?: Record<string, { type?: string }>;
}
interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const PROBES = new Set(['/healthz', '/readyz']);
const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

/** The body matches the documented schema's required fields and their top-level types. */
function matchesDocumented(body: Record<string, unknown>, schema: Schema): string[] {
  const problems: string[] = [];
  for (const field of schema.required ?? []) {
    const type = schema.properties?.[field]?.type;
    const value = body[field];
    if (value === undefined) problems.push(`missing ${field}`);
    else if (type === 'string' && typeof value !== 'string') problems.push(`${field} is not a string`);
    else if (type === 'array' && !Array.isArray(value)) problems.push(`${field} is not an array`);
  }
  return problems;
}

describe('the OpenAPI document lists every status an operation can send', () => {
  let t: TestApp;
  let doc: Doc;
  let credentials: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    const { apiKey, token } = await createPlatformWithEntity(t);
    const operator = await createOperatorKey(t.db, 'openapi walk');
    credentials = { bearer: `Bearer ${token}`, apiKey, operatorKey: `Bearer ${operator.key}` };
    doc = json<Doc>(await t.app.inject({ url: '/openapi.json' }));
  });
  afterAll(async () => t.close());

  it('each operation lists 429 and 503; credentialed ones 401; ones with inputs 422', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      const listed = Object.keys(op.responses);
      const expected = [
        ...(PROBES.has(path) ? [] : ['429']),
        '503',
        ...((op.security ?? []).length > 0 ? ['401'] : []),
        ...((op.parameters ?? []).length > 0 || op.requestBody || ['POST', 'PUT', 'PATCH'].includes(method) ? ['422'] : []),
      ];
      for (const status of expected) if (!listed.includes(status)) missing.push(`${method} ${path}: ${status}`);
    }
    expect(missing).toEqual([]);
    // The operations issue 13 named: 422 is documented on every /v2/tasks* operation of the reference.
    for (const [path, method] of [
      ['/v2/tasks', 'get'],
      ['/v2/tasks/{task_id}', 'get'],
      ['/v2/tasks/{task_id}', 'patch'],
      ['/v2/tasks/questions/{question_task_id}', 'patch'],
      ['/v2/tasks/manage/session', 'post'],
      ['/v2/tasks/{task_id}/session', 'post'],
    ] as const)
      expect(doc.paths[path]?.[method]?.responses['422'], `${method} ${path}`).toBeDefined();
  });

  it('GET /v2/tasks documents its paging headers under both sets of names', () => {
    const headers = (doc.paths['/v2/tasks']!.get!.responses['200'] as { headers?: Record<string, unknown> }).headers ?? {};
    // The X-Mosey-* names are those the reference v2 document gives List_Tasks_v2_tasks_get.
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining([
        'X-Page-Size',
        'X-Page',
        'X-Total',
        'X-Next-Page',
        'X-Mosey-Page-Size',
        'X-Mosey-Page',
        'X-Mosey-Total',
        'X-Mosey-Next-Page',
      ]),
    );
  });

  it('a 401 body has one shape per path family', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const schema = op.responses['401']?.content?.['application/json']?.schema;
      if (!schema) continue;
      expect(schema.required, `${method} ${path}`).toEqual(path.startsWith('/v2/') ? ['message', 'detail'] : ['detail']);
    }
  });

  it('what each operation answers without credentials, and with them to a body that is not an object, is documented', async () => {
    const undocumented: string[] = [];
    const calls: [string, string][] = [];
    for (const { path, method, op } of operationsOf(doc)) {
      const url = path.replace(/\{[^}]+\}/g, 'zz_unknown');
      const scheme = Object.keys(op.security?.[0] ?? {})[0];
      const attempts: Record<string, string>[] = [{}];
      if (scheme && credentials[scheme]) attempts.push({ authorization: credentials[scheme]! });
      for (const headers of attempts) {
        const withBody = ['POST', 'PUT', 'PATCH'].includes(method);
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...(withBody && { 'content-type': 'application/json' }) },
          ...(withBody && { payload: '[]' }),
        });
        calls.push([`${method} ${path}`, String(res.statusCode)]);
        const documented = op.responses[String(res.statusCode)];
        if (!documented) {
          undocumented.push(
            `${method} ${path} ${headers.authorization ? 'with' : 'without'} credentials: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
          continue;
        }
        const schema = documented.content?.['application/json']?.schema;
        if (res.statusCode >= 400 && schema) {
          const problems = matchesDocumented(json(res), schema);
          if (problems.length > 0) undocumented.push(`${method} ${path} ${res.statusCode}: ${problems.join(', ')}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
    // The walk really reached the refusals it checks.
    expect(calls.filter(([, status]) => status === '401').length).toBeGreaterThan(40);
    expect(calls.filter(([, status]) => status === '422').length).toBeGreaterThan(20);
  });
});
