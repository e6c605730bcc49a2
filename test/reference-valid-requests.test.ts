import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  bearer,
  createPlatform,
  createTestApp,
  json,
  VALID_SIGNUP_EMBEDDED,
  VALID_SIGNUP_V2,
  type TestApp,
} from './helpers/app.js';
import { issuesOf } from './helpers/errors.js';

// Issue 26 item 7: requests the reference interface allows are served, not refused with 422
// (docs/decisions/0076-reference-valid-requests.md, 0077-region-names-and-ids.md, 0078-paging-and-trailing-slashes.md).
const CA_ID = '99be5e8f54c4680d';

describe('reference-valid requests are served', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  const signup = (url: '/v2/signup' | '/accounts/signup', body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: apiKey },
      payload: { ...(url === '/v2/signup' ? VALID_SIGNUP_V2 : VALID_SIGNUP_EMBEDDED), ...body },
    });
  const entity = (id: string) => t.db.selectFrom('legal_entities').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('business_phone as people write it', () => {
    const cases: [sent: string, stored: string][] = [
      ['(555) 123-4567', '+15551234567'],
      ['555-123-4567 x12', '+15551234567;ext=12'],
      ['(415) 555-0134 ext. 7', '+14155550134;ext=7'],
      ['+44 20 7946 0958', '+442079460958'],
      // Not readable as a number: kept exactly as sent, never refused on its format.
      ['call the front desk', 'call the front desk'],
      ['12', '12'],
    ];
    for (const url of ['/v2/signup', '/accounts/signup'] as const) {
      for (const [sent, stored] of cases) {
        it(`${url} takes ${JSON.stringify(sent)} and stores ${JSON.stringify(stored)}`, async () => {
          const res = await signup(url, { business_phone: sent });
          expect(res.statusCode, res.body).toBe(200);
          expect((await entity(json(res).legal_entity_id)).business_phone).toBe(stored);
        });
      }
    }

    it('GET /v2/legal_entity answers the stored (E.164) number', async () => {
      const id = json(await signup('/v2/signup', { business_phone: '555-123-4567 x12' })).legal_entity_id;
      const res = await t.app.inject({ url: '/v2/legal_entity', headers: bearer(await accessToken(t.app, apiKey, id)) });
      expect(res.statusCode).toBe(200);
      expect(json(res).business_phone).toBe('+15551234567;ext=12');
    });

    it('still refuses what the reference schema refuses (not a string) and an absurd length', async () => {
      const notString = await signup('/v2/signup', { business_phone: 5551234567 });
      expect(notString.statusCode).toBe(422);
      expect(issuesOf(json(notString))[0]).toMatchObject({ type: 'string_type', loc: ['body', 'business_phone'] });
      const long = await signup('/accounts/signup', { business_phone: '5'.repeat(65) });
      expect(long.statusCode).toBe(422);
      expect(issuesOf(json(long))[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'business_phone'] });
    });
  });

  describe('a state by its name or location id where a code is expected', () => {
    for (const [given, code] of [
      ['California', 'CA'],
      ['california', 'CA'],
      [CA_ID, 'CA'],
      ['ca', 'CA'],
      ['District of Columbia', 'DC'],
      ['new york', 'NY'],
    ] as const) {
      it(`/accounts/signup incorporation_location ${JSON.stringify(given)} is ${code}`, async () => {
        const res = await signup('/accounts/signup', { incorporation_location: given });
        expect(res.statusCode, res.body).toBe(200);
        expect((await entity(json(res).legal_entity_id)).incorporation_region).toBe(code);
      });
    }

    it('/v2/signup incorporation_region takes a name too, and GET /v2/tasks?region= a name or id', async () => {
      const res = await signup('/v2/signup', { incorporation_region: 'Texas' });
      expect(res.statusCode, res.body).toBe(200);
      const id = json(res).legal_entity_id;
      expect((await entity(id)).incorporation_region).toBe('TX');
      const auth = bearer(await accessToken(t.app, apiKey, id));
      const put = await t.app.inject({ method: 'PUT', url: '/v2/regions/california', headers: auth, payload: { employee_count: 2 } });
      expect(put.statusCode, put.body).toBe(200);
      const byCode = await t.app.inject({ url: '/v2/tasks?region=CA&page_size=1000', headers: auth });
      for (const region of ['California', CA_ID]) {
        const res = await t.app.inject({ url: `/v2/tasks?region=${encodeURIComponent(region)}&page_size=1000`, headers: auth });
        expect(res.statusCode, res.body).toBe(200);
        expect(json(res)).toEqual(json(byCode));
      }
    });

    it('an unknown state is a 422 listing the codes (the enum issue, as pydantic words it)', async () => {
      const res = await signup('/accounts/signup', { incorporation_location: 'Atlantis' });
      expect(res.statusCode).toBe(422);
      expect(issuesOf(json(res))).toEqual([
        expect.objectContaining({
          type: 'enum',
          loc: ['body', 'incorporation_location'],
          input: 'Atlantis',
          msg: expect.stringContaining("Input should be 'AL', 'AK',"),
        }),
      ]);
    });
  });

  describe('empty strings of optional fields', () => {
    it('read as absent on create (ein, external_company_id, business_email, naics_code, authorization_callback_url)', async () => {
      const blanks = { ein: '', external_company_id: '', business_email: '', naics_code: '', authorization_callback_url: '' };
      for (const url of ['/v2/signup', '/accounts/signup'] as const) {
        // Twice: two blank external ids are not a duplicate external id.
        for (const _ of [1, 2]) {
          const res = await signup(url, blanks);
          expect(res.statusCode, res.body).toBe(200);
          expect(await entity(json(res).legal_entity_id)).toMatchObject({
            ein: null,
            external_company_id: null,
            business_email: null,
            naics_code: null,
            authorization_callback_url: null,
          });
        }
      }
    });

    it('a required field sent empty is still refused', async () => {
      const res = await signup('/v2/signup', { business_name: '' });
      expect(res.statusCode).toBe(422);
      expect(issuesOf(json(res))[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'business_name'] });
    });

    it('on an update, an empty string clears a nullable field (PATCH /v2/webhook_endpoints description)', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v2/webhook_endpoints',
        headers: { authorization: apiKey },
        payload: { url: 'https://hooks.platform.example/statehouse', description: 'ops', event_types: '' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(json(created)).toMatchObject({ description: 'ops', event_types: null });
      const id = json(created).id;
      const cleared = await t.app.inject({
        method: 'PATCH',
        url: `/v2/webhook_endpoints/${id}`,
        headers: { authorization: apiKey },
        payload: { description: '', url: '' },
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      // description cleared; url (not nullable) read as absent: unchanged.
      expect(json(cleared)).toMatchObject({ description: null, url: 'https://hooks.platform.example/statehouse' });
    });

    it('an empty query parameter is absent (GET /v2/tasks?region=&page_size=)', async () => {
      const id = json(await signup('/v2/signup', {})).legal_entity_id;
      const auth = bearer(await accessToken(t.app, apiKey, id));
      const res = await t.app.inject({ url: '/v2/tasks?region=&page_size=', headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-page-size']).toBe('50');
    });
  });

  describe('GET /v2/tasks page_size', () => {
    it('serves any page size as asked (1000, 10000) with every task on one page', async () => {
      const id = json(await signup('/v2/signup', { incorporation_region: 'CA' })).legal_entity_id;
      const auth = bearer(await accessToken(t.app, apiKey, id));
      for (const region of ['NY', 'TX', 'WA', 'IL']) {
        await t.app.inject({ method: 'PUT', url: `/v2/regions/${region}`, headers: auth, payload: { employee_count: 3 } });
      }
      const small = await t.app.inject({ url: '/v2/tasks?page_size=5', headers: auth });
      const total = Number(small.headers['x-total']);
      expect(total).toBeGreaterThan(5);
      for (const size of [1000, 10_000, 1_000_000]) {
        const res = await t.app.inject({ url: `/v2/tasks?page_size=${size}`, headers: auth });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-page-size']).toBe(String(size));
        expect(res.headers['x-next-page']).toBeUndefined();
        expect(json(res)).toHaveLength(total);
      }
    });

    it('still refuses a page size of 0 (the reference: exclusiveMinimum 0)', async () => {
      const id = json(await signup('/v2/signup', {})).legal_entity_id;
      const res = await t.app.inject({ url: '/v2/tasks?page_size=0', headers: bearer(await accessToken(t.app, apiKey, id)) });
      expect(res.statusCode).toBe(422);
    });
  });
});
