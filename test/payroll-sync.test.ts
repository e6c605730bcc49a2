import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { connectPayroll } from './helpers/hosted.js';

const CA = { id: '99be5e8f54c4680d', code: 'CA', name: 'California' };
const NY = { id: '5894aa7b4729ed13', code: 'NY', name: 'New York' };

interface TaskRecord {
  id: string;
  status: string;
  source: { requirement_id?: string };
}
/** A NY requirement that applies only where the entity has employees. */
const NY_EMPLOYER = 'ny-employer-registration';

describe('PUT /v2/payroll/employees and DELETE /v2/auth/payroll', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, entityId, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  const report = (regions: unknown, auth = token, query = '') =>
    t.app.inject({ method: 'PUT', url: `/v2/payroll/employees${query}`, headers: bearer(auth), payload: { regions } });
  const locations = async () => json(await t.app.inject({ url: '/locations', headers: bearer(token) }));
  const tasks = async (region?: string): Promise<TaskRecord[]> =>
    json(await t.app.inject({ url: `/v2/tasks?page_size=500${region ? `&region=${region}` : ''}`, headers: bearer(token) }));
  const requirementsIn = async (region: string) => (await tasks(region)).map((task) => task.source.requirement_id);
  const entity = async () => json(await t.app.inject({ url: '/v2/legal_entity', headers: bearer(token) }));

  const connect = (key: string, legalEntityId: string) => connectPayroll(t.app, key, legalEntityId);

  it('answers 409 while payroll is not connected, changing nothing', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    const before = { locations: await locations(), tasks: await tasks() };
    const res = await report([{ region: 'CA', employee_count: 12 }]);
    expect(res.statusCode).toBe(409);
    expect(json(res)).toEqual({ detail: expect.stringContaining('Payroll is not connected') });
    expect({ locations: await locations(), tasks: await tasks() }).toEqual(before);
    expect((await entity()).last_payroll_update).toBeNull();
  });

  it('a report sets the employee settings, adds the new region and re-plans once', async () => {
    await connect(apiKey, entityId);
    expect((await entity()).last_payroll_update).toBeNull();
    expect(await tasks('NY')).toEqual([]);

    const res = await report([
      { region: 'CA', employee_count: 12 },
      { region: 'NY', employee_count: 3 },
    ]);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toEqual({
      legal_entity_id: entityId,
      regions: [
        { region: CA, has_employees: true, employee_count: 12, added_by: 'api' },
        { region: NY, has_employees: true, employee_count: 3, added_by: 'payroll' },
      ],
      added: [NY],
      updated: [CA],
      last_payroll_update: expect.any(String),
    });
    expect((await entity()).last_payroll_update).toBe(body.last_payroll_update);
    expect(await locations()).toEqual([
      { location: CA, config: { has_employees: true, has_physical_location: true, employee_count: 12 } },
      { location: NY, config: { has_employees: true, has_physical_location: null, employee_count: 3 } },
    ]);
    const regions = json(await t.app.inject({ url: '/v2/regions', headers: bearer(token) }));
    expect(regions).toEqual([
      { region: CA, config: { employee_count: 12 } },
      { region: NY, config: { employee_count: 3 } },
    ]);
    expect(await requirementsIn('NY')).toContain(NY_EMPLOYER);
  });

  it('the same report again changes nothing but last_payroll_update', async () => {
    const first = { locations: await locations(), tasks: await tasks(), at: (await entity()).last_payroll_update };
    t.advance(60_000);
    const res = await report([
      { region: 'NY', employee_count: 3 },
      { region: 'CA', employee_count: 12 },
    ]);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ added: [], updated: [] });
    expect(Date.parse(json(res).last_payroll_update) - Date.parse(first.at)).toBeGreaterThanOrEqual(60_000);
    expect((await entity()).last_payroll_update).toBe(json(res).last_payroll_update);
    expect({ locations: await locations(), tasks: await tasks() }).toEqual({ locations: first.locations, tasks: first.tasks });
  });

  it('a region left out has no employees: its location stays, its employee tasks go', async () => {
    const nyBefore = await requirementsIn('NY');
    expect(nyBefore).toContain(NY_EMPLOYER);
    const res = await report([{ region: 'CA', employee_count: 12 }]);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ added: [], updated: [NY] });
    expect((await locations())[1]).toEqual({
      location: NY,
      config: { has_employees: false, has_physical_location: null, employee_count: 0 },
    });
    expect(await requirementsIn('NY')).not.toContain(NY_EMPLOYER);
    // Back again: the employee tasks return.
    await report([
      { region: 'CA', employee_count: 12 },
      { region: 'NY', employee_count: 3 },
    ]);
    expect((await requirementsIn('NY')).sort()).toEqual(nyBefore.sort());
  });

  it('refuses unknown and repeated regions and bad counts with a 422 naming the item, changing nothing', async () => {
    const before = { locations: await locations(), tasks: await tasks(), at: (await entity()).last_payroll_update };
    t.advance(60_000);
    const unknown = await report([
      { region: 'CA', employee_count: 1 },
      { region: 'ZZ', employee_count: 4 },
    ]);
    expect(unknown.statusCode).toBe(422);
    expect(json(unknown).detail).toEqual([expect.objectContaining({ type: 'enum', loc: ['body', 'regions', 1, 'region'], input: 'ZZ' })]);

    const repeated = await report([
      { region: 'CA', employee_count: 1 },
      { region: 'NY', employee_count: 2 },
      { region: 'CA', employee_count: 5 },
    ]);
    expect(repeated.statusCode).toBe(422);
    expect(json(repeated).detail).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['body', 'regions', 2, 'region'], input: 'CA' }),
    ]);

    const fractional = await report([{ region: 'CA', employee_count: 1.5 }]);
    expect(json(fractional).detail).toEqual([
      expect.objectContaining({ type: 'int_from_float', loc: ['body', 'regions', 0, 'employee_count'] }),
    ]);
    const negative = await report([{ region: 'CA', employee_count: -1 }]);
    expect(json(negative).detail).toEqual([
      expect.objectContaining({ type: 'greater_than_equal', loc: ['body', 'regions', 0, 'employee_count'] }),
    ]);
    const tooMany = await report(Array.from({ length: 52 }, () => ({ region: 'CA', employee_count: 1 })));
    expect(json(tooMany).detail).toEqual([expect.objectContaining({ type: 'too_long', loc: ['body', 'regions'] })]);
    const missing = await t.app.inject({ method: 'PUT', url: '/v2/payroll/employees', headers: bearer(token), payload: {} });
    expect(json(missing).detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['body', 'regions'] })]);

    expect({ locations: await locations(), tasks: await tasks(), at: (await entity()).last_payroll_update }).toEqual(before);
  });

  it('manual employee changes stay 409 while connected; other settings still change', async () => {
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: false } },
    });
    expect(patch.statusCode).toBe(409);
    const region = await t.app.inject({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(token), payload: { employee_count: 2 } });
    expect(region.statusCode).toBe(409);
    const office = await t.app.inject({
      method: 'PATCH',
      url: '/locations/NY',
      headers: bearer(token),
      payload: { config: { has_physical_location: true } },
    });
    expect(office.statusCode).toBe(200);
    expect(json(office).config).toEqual({ has_employees: true, has_physical_location: true, employee_count: 3 });
  });

  it('other entities and platforms: a token acts on its own entity only', async () => {
    const other = await createPlatformWithEntity(t, 'Other Payroll');
    const elsewhere = await report([{ region: 'TX', employee_count: 1 }], token, `?legal_entity_public_id=${other.entityId}`);
    expect(elsewhere.statusCode).toBe(404);
    const otherPlatform = await report([{ region: 'TX', employee_count: 1 }], token, `?platform_public_id=${other.platformId}`);
    expect(otherPlatform.statusCode).toBe(404);
    // The other entity has no payroll connection: its own token gets 409, and nothing of ours moved.
    const before = await locations();
    expect((await report([{ region: 'TX', employee_count: 1 }], other.token)).statusCode).toBe(409);
    expect(await locations()).toEqual(before);
    expect((await report([], 'not-a-token')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/v2/auth/payroll' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v2/auth/payroll?legal_entity_public_id=${other.entityId}`, headers: bearer(token) }))
        .statusCode,
    ).toBe(404);

    // A second entity of the same platform, connected: its report touches only its own locations.
    const sibling = await signupWithToken(t.app, apiKey);
    await connect(apiKey, sibling.entityId);
    expect(json(await report([{ region: 'TX', employee_count: 7 }], sibling.token)).regions).toEqual([
      { region: { id: expect.any(String), code: 'TX', name: 'Texas' }, has_employees: true, employee_count: 7, added_by: 'payroll' },
    ]);
    expect(await locations()).toEqual(before);
  });

  it('disconnecting returns control to manual edits; reports then answer 409', async () => {
    const at = (await entity()).last_payroll_update;
    const res = await t.app.inject({ method: 'DELETE', url: '/v2/auth/payroll', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ legal_entity_id: entityId, connected: false, last_payroll_update: at });
    expect(json(await t.app.inject({ method: 'DELETE', url: '/v2/auth/payroll', headers: bearer(token) }))).toEqual(json(res));

    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/locations/NY',
      headers: bearer(token),
      payload: { config: { has_employees: false } },
    });
    expect(patch.statusCode).toBe(200);
    expect(json(patch).config).toEqual({ has_employees: false, has_physical_location: true, employee_count: 0 });
    expect((await report([{ region: 'NY', employee_count: 3 }])).statusCode).toBe(409);
    expect((await locations())[1].config.employee_count).toBe(0);
    expect((await entity()).last_payroll_update).toBe(at);

    // Connecting again hands the settings back to payroll.
    await connect(apiKey, entityId);
    expect(
      (await t.app.inject({ method: 'PATCH', url: '/locations/NY', headers: bearer(token), payload: { config: { has_employees: true } } }))
        .statusCode,
    ).toBe(409);
    expect(json(await report([{ region: 'NY', employee_count: 3 }])).updated).toEqual([CA, NY]);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    const put = doc.paths['/v2/payroll/employees'].put;
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '409', '422']));
    expect(JSON.stringify(put.requestBody)).toContain('PayrollEmployeesReport');
    expect(JSON.stringify(put.responses['200'])).toContain('PayrollEmployeesSync');
    expect(doc.paths['/v2/auth/payroll'].delete.operationId).toBe('disconnectPayrollV2');
    expect(doc.paths['/v2/auth/payroll'].post).toBeDefined();
  });
});
