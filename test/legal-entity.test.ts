import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';

const ADDRESS = {
  id: 'a1',
  address_line_1: '9 Elm St',
  address_line_2: null,
  city: 'Boston',
  state: 'MA',
  country: 'US',
  postal_code: '02108',
};

describe('GET /legal_entity and /v2/legal_entity', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, platformId, entityId, token } = await createPlatformWithEntity(t, undefined, {
      user_email: 'ceo@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2018-07-04',
      ein: '11-2223333',
      business_address: ADDRESS,
      naics_code: '5415',
      accounting_method: 'accrual',
      accounting_period: 'calendar',
      accounting_year_end: 'December',
      futa_liability_year: '2019',
      external_company_id: 'harbor',
    }));
  });
  afterAll(async () => t.close());

  it('unversioned spelling', async () => {
    const res = await t.app.inject({ url: '/legal_entity', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      id: entityId,
      name: 'Harbor Labs',
      status: 'inactive',
      notices_url: null,
      user_email: 'ceo@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_classification: 'corp',
      incorporation_location: 'DE',
      incorporation_date: '2018-07-04',
      ein: '11-2223333',
      llc_managed_type: null,
      business_purpose: null,
      business_phone: null,
      business_email: null,
      business_address: ADDRESS,
      mailing_address: null,
      naics_code: '5415',
      accounting_method: 'accrual',
      accounting_period: 'calendar',
      accounting_year_end: 12,
      futa_liability_year: '2019',
      external_company_id: 'harbor',
    });
  });

  it('v2 spelling: incorporation_region, incorporated_date, month name, integer FUTA year', async () => {
    const res = await t.app.inject({ url: '/v2/legal_entity', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({
      incorporation_region: 'DE',
      incorporated_date: '2018-07-04',
      accounting_year_end: 'December',
      futa_liability_year: 2019,
      last_payroll_update: null,
    });
    expect(body).not.toHaveProperty('incorporation_location');
    expect(body).not.toHaveProperty('incorporation_date');
  });

  it('v2 scope query parameters can only narrow the scope', async () => {
    expect(
      (
        await t.app.inject({
          url: `/v2/legal_entity?legal_entity_public_id=${entityId}&platform_public_id=${platformId}`,
          headers: bearer(token),
        })
      ).statusCode,
    ).toBe(200);
    const other = await t.app.inject({ url: '/v2/legal_entity?legal_entity_public_id=le_other', headers: bearer(token) });
    expect(other.statusCode).toBe(404);
  });

  it('each token sees only its own entity', async () => {
    const { entityId: second, token: secondToken } = await signupWithToken(t.app, apiKey, {
      user_email: 'b@example.com',
      business_name: 'Second Co',
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'WY',
      incorporated_date: '2023-01-01',
    });
    expect(json(await t.app.inject({ url: '/legal_entity', headers: bearer(secondToken) })).id).toBe(second);
    expect(json(await t.app.inject({ url: '/legal_entity', headers: bearer(token) })).id).toBe(entityId);
  });
});
