import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { openLink } from './helpers/hosted.js';

describe('POST /v2/auth/payroll and the payroll page', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, entityId, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  const setup = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v2/auth/payroll', headers, payload });

  it('checks the key, the entity and the body', async () => {
    const body = { legal_entity_id: entityId, authorization_callback_url: 'https://platform.example/payroll' };
    expect((await setup({}, body)).statusCode).toBe(401);
    const other = await createPlatform(t.db, 'Other');
    expect((await setup({ authorization: other.apiKey }, body)).statusCode).toBe(404);
    const invalid = await setup({ authorization: apiKey }, { legal_entity_id: entityId });
    expect(invalid.statusCode).toBe(422);
    expect(json(invalid).detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'authorization_callback_url'] });
  });

  it('connects payroll on the hosted page; employee settings are then owned by payroll', async () => {
    await t.app.inject({ method: 'PUT', url: '/locations/CA', headers: bearer(token), payload: { config: { has_employees: true } } });

    const res = await setup(
      { authorization: apiKey },
      { legal_entity_id: entityId, authorization_callback_url: 'https://platform.example/payroll' },
    );
    expect(res.statusCode).toBe(200);
    expect(Object.keys(json(res))).toEqual(['url']);
    const { response, browser } = await openLink(t.app, json(res).url);
    expect(response.headers.location).toBe('/hosted/payroll');
    const page = await browser!.get('/hosted/payroll');
    expect(page.body).toContain('Connect payroll');
    const done = await browser!.post('/hosted/payroll', {});
    expect(done.statusCode).toBe(303);
    expect(Object.fromEntries(new URL(done.headers.location as string).searchParams)).toEqual({
      legal_entity_id: entityId,
      status: 'connected',
    });

    const entity = json(await t.app.inject({ url: '/v2/legal_entity', headers: bearer(token) }));
    // Connecting is consent, not a sync: last_payroll_update stays null until payroll first reports (test/payroll-sync.test.ts).
    expect(entity.last_payroll_update).toBeNull();
    const locked = await t.app.inject({
      method: 'PATCH',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: false } },
    });
    expect(locked.statusCode).toBe(409);
    expect((await t.app.inject({ url: new URL(json(res).url).pathname })).statusCode).toBe(410);
  });
});
