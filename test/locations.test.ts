import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGIONS } from '../src/catalog/regions.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';

const CA = '99be5e8f54c4680d';
const NY = '5894aa7b4729ed13';

describe('locations and regions', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  const auth = () => bearer(token);

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  it('knows all 51 regions with the fixed ids of the specification', () => {
    expect(REGIONS).toHaveLength(51);
    expect(REGIONS.find((r) => r.code === 'CA')?.id).toBe(CA);
    expect(REGIONS.find((r) => r.code === 'DC')).toEqual({ id: 'afb903b3dcbe23fc', code: 'DC', name: 'District of Columbia' });
    expect(REGIONS.find((r) => r.code === 'WY')?.id).toBe('0132461d340cded0');
  });

  it('starts with no locations', async () => {
    const res = await t.app.inject({ url: '/locations', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual([]);
  });

  it('PUT adds a location with its configuration; repeating it is idempotent', async () => {
    const payload = { config: { has_employees: true, has_physical_location: true } };
    const first = await t.app.inject({ method: 'PUT', url: `/locations/${CA}`, headers: auth(), payload });
    expect(first.statusCode).toBe(200);
    expect(json(first)).toEqual({
      location: { id: CA, code: 'CA', name: 'California' },
      config: { has_employees: true, has_physical_location: true, employee_count: null },
    });
    const second = await t.app.inject({ method: 'PUT', url: `/locations/${CA}`, headers: auth(), payload });
    expect(json(second)).toEqual(json(first));
    const list = json(await t.app.inject({ url: '/locations', headers: auth() }));
    expect(list).toHaveLength(1);
  });

  it('concurrent adds of the same location make one location', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.app.inject({ method: 'PUT', url: `/locations/${NY}`, headers: auth() })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const list = json(await t.app.inject({ url: '/locations', headers: auth() }));
    expect(list.map((l: { location: { code: string } }) => l.location.code)).toEqual(['CA', 'NY']);
  });

  it('PUT accepts no body, a null body and a null config, keeping the stored configuration', async () => {
    for (const payload of [undefined, 'null', { config: null }, {}]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/locations/${CA}`,
        headers: { ...auth(), ...(payload !== undefined && { 'content-type': 'application/json' }) },
        ...(payload !== undefined && { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
      expect(res.statusCode).toBe(200);
      expect(json(res).config.has_employees).toBe(true);
    }
  });

  it('accepts the two-letter code in place of the id', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/locations/ca',
      headers: auth(),
      payload: { config: { has_physical_location: false } },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res).config).toEqual({ has_employees: true, has_physical_location: false, employee_count: null });
  });

  it('PATCH updates only the fields sent', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/locations/${NY}`,
      headers: auth(),
      payload: { config: { employee_count: 4 } },
    });
    expect(json(res).config).toEqual({ has_employees: true, has_physical_location: null, employee_count: 4 });
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/locations/${NY}`,
      headers: auth(),
      payload: { config: { has_employees: false } },
    });
    expect(json(off).config).toEqual({ has_employees: false, has_physical_location: null, employee_count: 0 });
  });

  it('rejects contradictory employee settings with 422', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/locations/${NY}`,
      headers: auth(),
      payload: { config: { has_employees: false, employee_count: 3 } },
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'config', 'employee_count'] });
  });

  it('PATCH on a location the entity has not added is 404; an unknown id is 404', async () => {
    const notAdded = await t.app.inject({
      method: 'PATCH',
      url: '/locations/e5aa6d3222d22de2',
      headers: auth(),
      payload: { config: { has_employees: true } },
    });
    expect(notAdded.statusCode).toBe(404);
    expect(json(notAdded).detail).toMatch(/has not been added/);
    const unknown = await t.app.inject({ method: 'PUT', url: '/locations/0000000000000000', headers: auth() });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ detail: "Location '0000000000000000' not found" });
  });

  it('PATCH requires a body', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/locations/${CA}`, headers: auth() });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
  });

  describe('v2 regions', () => {
    it('GET /v2/regions lists the same locations with employee_count', async () => {
      const res = await t.app.inject({ url: '/v2/regions', headers: auth() });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual([
        { region: { id: CA, code: 'CA', name: 'California' }, config: { employee_count: null } },
        { region: { id: NY, code: 'NY', name: 'New York' }, config: { employee_count: 0 } },
      ]);
    });

    it('PUT /v2/regions/{region} adds a region with an employee count, idempotently', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'PUT', url: '/v2/regions/TX', headers: auth(), payload: { employee_count: 7 } });
        expect(res.statusCode).toBe(200);
        expect(json(res)).toEqual({ employee_count: 7 });
      }
      const tx = json(await t.app.inject({ url: '/locations', headers: auth() })).find(
        (l: { location: { code: string } }) => l.location.code === 'TX',
      );
      expect(tx.config).toEqual({ has_employees: true, has_physical_location: null, employee_count: 7 });
    });

    it('PUT /v2/regions/{region} validates the path and the body', async () => {
      const res = await t.app.inject({ method: 'PUT', url: '/v2/regions/XX', headers: auth(), payload: { employee_count: -1 } });
      expect(res.statusCode).toBe(422);
      expect(issuesOf(json(res)).map((d) => [d.loc, d.type])).toEqual([
        [['path', 'region'], 'enum'],
        [['body', 'employee_count'], 'greater_than_equal'],
      ]);
      const missing = await t.app.inject({ method: 'PUT', url: '/v2/regions/TX', headers: auth(), payload: {} });
      expect(issuesOf(json(missing))[0]).toMatchObject({ type: 'missing', loc: ['body', 'employee_count'] });
    });

    it('POST /v2/regions adds several regions at once', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/regions',
        headers: auth(),
        payload: { config: { WA: { employee_count: 1 }, AK: { employee_count: 10 } } },
      });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toEqual({ config: { AK: { employee_count: 10 }, WA: { employee_count: 1 } } });
      const codes = json(await t.app.inject({ url: '/v2/regions', headers: auth() })).map(
        (r: { region: { code: string } }) => r.region.code,
      );
      expect(codes).toEqual(['AK', 'CA', 'NY', 'TX', 'WA']);
    });

    it('POST /v2/regions rejects unknown region codes as dict-key errors and adds nothing', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/regions',
        headers: auth(),
        payload: { config: { OR: { employee_count: 1 }, ZZ: { employee_count: 1 } } },
      });
      expect(res.statusCode).toBe(422);
      expect(issuesOf(json(res))[0]).toMatchObject({ type: 'enum', loc: ['body', 'config', 'ZZ', '[key]'], input: 'ZZ' });
      const codes = json(await t.app.inject({ url: '/v2/regions', headers: auth() })).map(
        (r: { region: { code: string } }) => r.region.code,
      );
      expect(codes).not.toContain('OR');
    });
  });

  describe('payroll lock', () => {
    it('has_employees cannot change once payroll is connected (409), other settings can', async () => {
      const { entityId: id, token: tok } = await signupWithToken(t.app, apiKey);
      await t.app.inject({ method: 'PUT', url: `/locations/${CA}`, headers: bearer(tok), payload: { config: { has_employees: true } } });
      // Payroll connection is a later capability; the flag lives on the entity.
      await t.db.updateTable('legal_entities').set({ payroll_connected_at: new Date() }).where('id', '=', id).execute();

      const change = await t.app.inject({
        method: 'PATCH',
        url: `/locations/${CA}`,
        headers: bearer(tok),
        payload: { config: { has_employees: false } },
      });
      expect(change.statusCode).toBe(409);
      expect(json(change).detail).toMatch(/has_employees cannot be changed once payroll is connected/);
      const v2 = await t.app.inject({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(tok), payload: { employee_count: 0 } });
      expect(v2.statusCode).toBe(409);

      const same = await t.app.inject({
        method: 'PATCH',
        url: `/locations/${CA}`,
        headers: bearer(tok),
        payload: { config: { has_employees: true, has_physical_location: true } },
      });
      expect(same.statusCode).toBe(200);
      expect(json(same).config).toMatchObject({ has_employees: true, has_physical_location: true });
    });
  });

  it("two entities of one platform never see each other's locations", async () => {
    const { token: otherToken } = await signupWithToken(t.app, apiKey);
    expect(json(await t.app.inject({ url: '/locations', headers: bearer(otherToken) }))).toEqual([]);
    await t.app.inject({ method: 'PUT', url: '/locations/FL', headers: bearer(otherToken) });
    const mine = json(await t.app.inject({ url: '/locations', headers: auth() })).map(
      (l: { location: { code: string } }) => l.location.code,
    );
    expect(mine).not.toContain('FL');
    const patchTheirs = await t.app.inject({ method: 'PATCH', url: '/locations/FL', headers: auth(), payload: { config: {} } });
    expect(patchTheirs.statusCode).toBe(404);
  });

  it("two platforms never see each other's entities", async () => {
    const { entityId: theirEntity, token: theirToken } = await createPlatformWithEntity(t, 'Elsewhere');
    expect(json(await t.app.inject({ url: '/locations', headers: bearer(theirToken) }))).toEqual([]);
    expect(json(await t.app.inject({ url: '/legal_entity', headers: bearer(theirToken) })).id).toBe(theirEntity);
    const cross = await t.app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: apiKey },
      payload: { legal_entity_id: theirEntity },
    });
    expect(cross.statusCode).toBe(404);
  });
});
