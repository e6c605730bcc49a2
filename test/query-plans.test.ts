/**
 * Every query of the hot request paths (the ones the scale bench measures at 1 M entities: the token, the entity,
 * the task lists, a v2 page, a re-planning) is served by an index: the statements each request sends are captured,
 * then EXPLAINed with enable_seqscan off, where a Seq Scan left on a tenant table means no index can serve it.
 */
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeScans,
  explainAll,
  installQueryCapture,
  startCapture,
  stopCapture,
  type CapturedStatement,
  type ExplainedStatement,
} from '../bench/scale-plans.js';
import { accessToken, bearer, createPlatform, createTestApp, signupEntity, type TestApp } from './helpers/app.js';

const TASKS_FILTERED = '/tasks?status=todo&status=in-progress&tags=payroll-setup&tags=foreign-qualification&tags=sos-report';

describe('query plans of the hot paths', () => {
  let t: TestApp;
  let client: pg.Client;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    installQueryCapture();
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
    // A few entities with locations, so the tables the queries read are not empty.
    for (let i = 0; i < 3; i++) {
      const id = await signupEntity(t.app, apiKey, { business_name: `Plans ${i} Inc` });
      const other = await accessToken(t.app, apiKey, id);
      for (const code of ['CA', 'NY', 'TX']) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/v2/regions/${code}`,
          headers: bearer(other),
          payload: { employee_count: 3 + i },
        });
        expect(put.statusCode).toBe(200);
      }
    }
    entityId = await signupEntity(t.app, apiKey, { business_name: 'Plans Inc' });
    token = await accessToken(t.app, apiKey, entityId);
    client = new pg.Client({ connectionString: t.url });
    await client.connect();
    await client.query('analyze');
  });
  afterAll(async () => {
    await client?.end();
    await t?.close();
  });

  async function captured(requests: () => Promise<void>): Promise<CapturedStatement[]> {
    startCapture();
    try {
      await requests();
    } catch (error) {
      stopCapture(); // not left on for the next test
      throw error;
    }
    return stopCapture();
  }

  const report = (plans: ExplainedStatement[]) =>
    plans
      .map(
        (p) =>
          `${p.text.replace(/\s+/g, ' ').slice(0, 160)}\n    ${describeScans(p.scans).join('; ')}${p.error ? ` ERROR ${p.error}` : ''}`,
      )
      .join('\n');

  it('a query that no index serves is reported (the check can fail)', async () => {
    const plans = await explainAll(client, [{ text: 'select id from tasks where due_date_rule = $1', values: ['x'], count: 1 }], {
      analyze: false,
      seqscanOff: true,
    });
    expect(plans[0]!.seqScans).toEqual(['tasks']);
    // An index read whole, in its order, is told apart from a lookup (the bench judges it at 1 M).
    const ordered = await explainAll(client, [{ text: 'select id from tasks order by id', values: [], count: 1 }], {
      analyze: false,
      seqscanOff: true,
    });
    expect(ordered[0]!.seqScans).toEqual([]);
    expect(ordered[0]!.fullIndexScans).toEqual(['tasks']);
  });

  it('no request on the hot paths scans a tenant table sequentially', async () => {
    const statements = await captured(async () => {
      const expectOk = async (request: InjectOptions, status = 200) => {
        const response = await t.app.inject(request);
        expect(response.statusCode, `${JSON.stringify(request)}: ${response.body.slice(0, 300)}`).toBe(status);
      };
      await expectOk({ method: 'POST', url: '/accounts/auth', headers: { authorization: apiKey }, payload: { legal_entity_id: entityId } });
      await expectOk({ url: '/legal_entity', headers: bearer(token) });
      // The re-planning first: the lists below then have tasks in several regions.
      await expectOk({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(token), payload: { employee_count: 8 } });
      await expectOk({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(token), payload: { employee_count: 9 } });
      await expectOk({ url: TASKS_FILTERED, headers: bearer(token) });
      await expectOk({ url: '/tasks', headers: bearer(token) });
      await expectOk({ url: '/v2/tasks?page_size=5', headers: bearer(token) });
      await expectOk({ url: '/v2/tasks?page_size=5&page_num=3', headers: bearer(token) });
    });
    const plans = await explainAll(client, statements, { analyze: false, seqscanOff: true });
    const relations = new Set(plans.flatMap((p) => p.scans.map((s) => s.relation)));
    // The capture saw the paths' tables (the check is not vacuous).
    for (const table of ['legal_entities', 'legal_entity_locations', 'tasks', 'api_keys'])
      expect(relations, report(plans)).toContain(table);
    expect(
      plans.filter((p) => p.error),
      report(plans),
    ).toEqual([]);
    expect(
      plans.filter((p) => p.seqScans.length > 0).map((p) => `${p.seqScans.join(', ')}: ${p.text.replace(/\s+/g, ' ').slice(0, 300)}`),
      report(plans),
    ).toEqual([]);
  });
});
