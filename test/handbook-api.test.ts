/**
 * The three handbook operations of the reference interface: GET /v2/handbook in both documents' shapes (the v2
 * summary at the top level; `summary`/`details` as the unversioned document nests them, with its spelling
 * `number_of_adopotable_policies`), the two session operations that open the builder, and their refusals.
 * Field names are those of the reference documents (openapi-v2.json PlatformHandbookSummary,
 * openapi-unversioned.json PlatformHandbook / PlatformHandbookAutomationSessionResponse), written out here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveHandbook } from '../src/modules/handbook/handbook.fns.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { HANDBOOK_CATALOG } from './helpers/handbook.js';
import { openLink } from './helpers/hosted.js';

describe('handbook API', () => {
  let t: TestApp;
  let apiKey: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, entityId, token } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Harbor Labs' }));
  });
  afterAll(async () => t?.close());

  const get = (headers: Record<string, string>, query = '') => t.app.inject({ url: `/v2/handbook${query}`, headers });

  it('GET /v2/handbook answers one body that satisfies both reference documents', async () => {
    const res = await get(bearer(token));
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    // openapi-v2.json PlatformHandbookSummary: required number_of_adoptable_policies, publishable, has_published; acknowledgement_stats nullable.
    expect(body).toMatchObject({ number_of_adoptable_policies: 0, publishable: false, has_published: false, acknowledgement_stats: null });
    // openapi-unversioned.json PlatformHandbook: summary (number_of_adopotable_policies, …) and details.handbook_automation_url.
    expect(body.summary).toEqual({
      number_of_adoptable_policies: 0,
      number_of_adopotable_policies: 0,
      publishable: false,
      has_published: false,
      acknowledgement_stats: null,
    });
    expect(Object.keys(body.details)).toEqual(['handbook_automation_url']);
    expect(body.details.handbook_automation_url).toMatch(/^http:\/\/statehouse\.test\/hosted\/s\/\S+$/);
  });

  it('counts the policies that apply once the entity has employees, from the policy catalog', async () => {
    const entity = await signupWithToken(t.app, apiKey, { business_name: 'Two States Inc' });
    for (const [region, count] of [
      ['CA', 20],
      ['NY', 3],
    ] as const) {
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v2/regions/${region}`,
        headers: bearer(entity.token),
        payload: { employee_count: count },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const expected = deriveHandbook(
      HANDBOOK_CATALOG,
      [
        { regionCode: 'CA', hasEmployees: true, employeeCount: 20 },
        { regionCode: 'NY', hasEmployees: true, employeeCount: 3 },
      ],
      { answers: {}, choices: {} },
    );
    // The federal equal-employment policy applies from 15 employees in total: 23 here.
    expect(expected.applicable.map((a) => a.policy.id)).toContain('us-equal-employment-opportunity');
    const body = json(await get(bearer(entity.token)));
    expect(body.number_of_adoptable_policies).toBe(expected.adoptable);
    expect(body.summary.number_of_adopotable_policies).toBe(expected.adoptable);
    // Questions are unanswered: not publishable yet.
    expect(body.publishable).toBe(false);
  });

  it('the automation URL in GET /v2/handbook opens the builder', async () => {
    const url = json(await get(bearer(token))).details.handbook_automation_url as string;
    const { browser } = await openLink(t.app, url);
    expect(browser).not.toBeNull();
    const page = await browser!.get('/hosted/handbook');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your employee handbook');
  });

  it('POST /v2/handbook/automate/sessions → {automation_url, created_at, expires_at}; POST /v2/handbook/session → {url, created_at, expires_at}', async () => {
    const automate = await t.app.inject({
      method: 'POST',
      url: '/v2/handbook/automate/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(automate.statusCode, automate.body).toBe(200);
    expect(Object.keys(json(automate)).sort()).toEqual(['automation_url', 'created_at', 'expires_at']);
    const session = await t.app.inject({
      method: 'POST',
      url: '/v2/handbook/session',
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/back' },
    });
    expect(session.statusCode, session.body).toBe(200);
    const body = json(session);
    expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'url']);
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.parse(body.created_at));
    for (const url of [json(automate).automation_url, body.url]) {
      const { browser, response } = await openLink(t.app, url);
      expect(response.headers.location).toBe('/hosted/handbook');
      expect((await browser!.get('/hosted/handbook')).statusCode).toBe(200);
    }
  });

  it("refuses a missing or invalid callback_url with a 422 in pydantic's shape", async () => {
    for (const url of ['/v2/handbook/automate/sessions', '/v2/handbook/session']) {
      for (const payload of [{}, { callback_url: 'not a url' }, { callback_url: 42 }]) {
        const res = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(422);
        const detail = json(res).detail as { loc: unknown[]; msg: string; type: string }[];
        expect(detail[0]!.loc).toEqual(['body', 'callback_url']);
        expect(typeof detail[0]!.msg).toBe('string');
      }
    }
  });

  it("needs the entity's bearer token (401), and a scope parameter naming another entity or platform is a 404", async () => {
    for (const headers of [{}, { authorization: apiKey }] as Record<string, string>[]) {
      expect((await get(headers)).statusCode).toBe(401);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v2/handbook/session',
            headers,
            payload: { callback_url: 'https://platform.example/x' },
          })
        ).statusCode,
      ).toBe(401);
    }
    const other = await createPlatformWithEntity(t, 'Other Platform');
    expect((await get(bearer(token), `?legal_entity_public_id=${other.entityId}`)).statusCode).toBe(404);
    expect((await get(bearer(token), `?platform_public_id=${other.platformId}`)).statusCode).toBe(404);
    expect((await get(bearer(token), `?legal_entity_public_id=${entityId}`)).statusCode).toBe(200);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/v2/handbook/automate/sessions?legal_entity_public_id=${other.entityId}`,
      headers: bearer(token),
      payload: { callback_url: 'https://platform.example/x' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('the OpenAPI document lists the three operations with their status codes', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    // At least these (the document may list more, e.g. 429 and 503, which every route can send).
    for (const operation of [
      doc.paths['/v2/handbook'].get,
      doc.paths['/v2/handbook/automate/sessions'].post,
      doc.paths['/v2/handbook/session'].post,
    ]) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
    }
  });
});
