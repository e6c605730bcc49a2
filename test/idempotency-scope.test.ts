import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { entityCount, withKey } from './helpers/idempotency.js';
import { issuesOf } from './helpers/errors.js';

describe('Idempotency-Key: whose keys are whose', () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createPlatformWithEntity>>;
  let globex: Awaited<ReturnType<typeof createPlatformWithEntity>>;

  beforeAll(async () => {
    t = await createTestApp();
    acme = await createPlatformWithEntity(t, 'Acme Payroll');
    globex = await createPlatformWithEntity(t, 'Globex Payroll');
  });
  afterAll(async () => t.close());

  const signup = (apiKey: string, key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/signup',
      headers: withKey({ authorization: apiKey }, key),
      payload: { ...VALID_SIGNUP_V2, business_name: 'Scoped Inc' },
    });
  const addRegions = (token: string, key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/regions',
      headers: withKey(bearer(token), key),
      payload: { config: { NY: { employee_count: 2 } } },
    });

  it('another platform with the same key and body runs its own request', async () => {
    const acmeFirst = await signup(acme.apiKey, 'shared-1');
    const globexFirst = await signup(globex.apiKey, 'shared-1');
    expect(globexFirst.statusCode).toBe(200);
    expect(globexFirst.headers['idempotent-replayed']).toBeUndefined();
    expect(json(globexFirst).legal_entity_id).not.toBe(json(acmeFirst).legal_entity_id);
    expect(await entityCount(t.db, globex.platformId)).toBe(2);
    // Each platform's retry replays its own answer.
    expect((await signup(globex.apiKey, 'shared-1')).rawPayload.equals(globexFirst.rawPayload)).toBe(true);
    expect((await signup(acme.apiKey, 'shared-1')).rawPayload.equals(acmeFirst.rawPayload)).toBe(true);
  });

  it('an API key and an entity token of one platform share its keys', async () => {
    expect((await signup(acme.apiKey, 'shared-2')).statusCode).toBe(200);
    const byToken = await addRegions(acme.token, 'shared-2');
    expect(byToken.statusCode).toBe(422);
    expect(issuesOf(json(byToken))[0]).toMatchObject({ type: 'value_error', loc: ['header', 'idempotency-key'] });
    // The other platform's token is not concerned.
    expect((await addRegions(globex.token, 'shared-2')).statusCode).toBe(200);
  });

  it("a token of another entity of the platform never gets the first entity's answer", async () => {
    const second = await signupWithToken(t.app, acme.apiKey, { business_name: 'Second Entity Inc' });
    const first = await addRegions(acme.token, 'regions-1');
    expect(first.statusCode).toBe(200);
    const other = await addRegions(second.token, 'regions-1');
    expect(other.statusCode).toBe(422);
    expect(other.body).not.toContain(acme.entityId);
    const regions = json(await t.app.inject({ url: '/v2/regions', headers: bearer(second.token) }));
    expect(regions).toEqual([]);
  });

  it('operator calls are scoped to the operator key', async () => {
    const operators = createOperatorsService(t.db);
    const [one, two] = [(await operators.createKey('ops one')).key, (await operators.createKey('ops two')).key];
    const record = (operatorKey: string) =>
      t.app.inject({
        method: 'POST',
        url: `/operator/v1/legal_entities/${acme.entityId}/agency_accounts`,
        headers: withKey(bearer(operatorKey), 'op-1'),
        payload: { region: 'DE', agency_id: 'de-doc', name: 'Franchise tax account', data: [{ name: 'File number', value: '7654321' }] },
      });
    const accounts = async () =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from agency_accounts where legal_entity_id = ${acme.entityId}`.execute(t.db))
          .rows[0]!.n,
      );
    const first = await record(one);
    expect(first.statusCode).toBe(201);
    const replay = await record(one);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(await accounts()).toBe(1);
    const otherOperator = await record(two);
    expect(otherOperator.statusCode).toBe(201);
    expect(otherOperator.headers['idempotent-replayed']).toBeUndefined();
    expect(await accounts()).toBe(2);
  });
});
