import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';
import { BUSINESS_STEP, CONTACT_STEP, openLink } from './helpers/hosted.js';

describe('hosted signup', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({ signupSessionTtlSeconds: 3600 });
    ({ apiKey } = await createPlatform(t.db, 'Acme <Payroll>'));
  });
  afterAll(async () => t.close());

  async function session(body: Record<string, unknown> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/accounts/signup/sessions',
      headers: { authorization: apiKey },
      payload: {
        business_name: 'Rose & Thorn <Florists>',
        user_email: 'r@example.com',
        callback_url: 'https://platform.example/welcome?ref=abc',
        ...body,
      },
    });
    return json<{ url: string; legal_entity_id: string }>(res);
  }
  const entity = (id: string) => t.db.selectFrom('legal_entities').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('the link', () => {
    it('opens once: a cookie session scoped to the entity, and a redirect to a clean URL', async () => {
      const { url } = await session();
      const { response } = await openLink(t.app, url);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/hosted/signup');
      expect(String(response.headers['set-cookie'])).toMatch(
        /^statehouse_session=[A-Za-z0-9_-]{43}; Path=\/hosted; HttpOnly; SameSite=Lax; Max-Age=3600$/,
      );
      const again = await t.app.inject({ url: new URL(url).pathname });
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain('This link has expired');
      expect(again.body).toContain('Ask your platform for a new one');
      expect(again.headers['set-cookie']).toBeUndefined();
    });

    it('expires, and unknown links show the same page with 404', async () => {
      const { url } = await session();
      t.advance(3_601_000);
      expect((await t.app.inject({ url: new URL(url).pathname })).statusCode).toBe(410);
      const unknown = await t.app.inject({ url: '/hosted/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('This link has expired');
    });

    it('secure headers on every page', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      const page = await browser!.get('/hosted/signup/business');
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).not.toMatch(/<script|style=/);
    });

    it('pages need a session', async () => {
      const res = await t.app.inject({ url: '/hosted/signup/business' });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('Your session has ended');
      expect((await t.app.inject({ url: '/hosted/signup', headers: { cookie: 'statehouse_session=forged' } })).statusCode).toBe(401);
    });
  });

  describe('the steps', () => {
    it('prefills what the platform sent and escapes it', async () => {
      const { url } = await session({ business_information: { entity_type: 'llc', incorporation_region: 'OR', ein: '12-3456789' } });
      const { browser } = await openLink(t.app, url);
      const start = await browser!.get('/hosted/signup');
      expect(start.headers.location).toBe('/hosted/signup/welcome');
      const page = await browser!.get('/hosted/signup/business');
      expect(page.body).toContain('value="Rose &amp; Thorn &lt;Florists&gt;"');
      expect(page.body).toContain('<option value="llc" selected>');
      expect(page.body).toContain('<option value="OR" selected>Oregon</option>');
      expect(page.body).toContain('value="12-3456789"');
      expect(page.body).toContain('Acme &lt;Payroll&gt;');
    });

    it('validates like the API, showing each error next to its field and keeping what was typed', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      const res = await browser!.post('/hosted/signup/business', {
        ...BUSINESS_STEP,
        incorporation_date: '2021-02-30',
        ein: '12-34',
        entity_type: '',
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('<p class="error" id="f-incorporation_date-error">Enter a valid date</p>');
      expect(res.body).toContain('aria-describedby="f-ein-hint f-ein-error" aria-invalid="true"');
      expect(res.body).toContain('Enter the 9-digit EIN');
      expect(res.body).toMatch(/<p class="error" id="f-entity_type-error">Choose the entity type<\/p>/);
      expect(res.body).toContain('Please fix these 3 problems');
      expect(res.body).toContain('value="2021-02-30"');
    });

    it('refuses a formation date in the future or before 1800, keeping what was typed', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      const future = await browser!.post('/hosted/signup/business', { ...BUSINESS_STEP, incorporation_date: '2031-05-05' });
      expect(future.statusCode).toBe(422);
      expect(future.body).toContain(
        '<p class="error" id="f-incorporation_date-error">The date of incorporation or formation cannot be in the future</p>',
      );
      expect(future.body).toContain('value="2031-05-05"');
      const old = await browser!.post('/hosted/signup/business', { ...BUSINESS_STEP, incorporation_date: '1776-07-04' });
      expect(old.statusCode).toBe(422);
      expect(old.body).toContain('<p class="error" id="f-incorporation_date-error">Enter a date from 1 January 1800 onwards</p>');
      expect(old.body).toContain('value="1776-07-04"');
      expect((await browser!.post('/hosted/signup/business', { ...BUSINESS_STEP, incorporation_date: '1800-01-01' })).statusCode).toBe(303);
    });

    it('refuses a company profile that cannot be true, on the field that conflicts', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      const res = await browser!.post('/hosted/signup/business', {
        ...BUSINESS_STEP,
        entity_type: 'c_corp',
        tax_classification: 'disregarded',
        llc_managed_type: 'member_managed',
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(
        '<p class="error" id="f-tax_classification-error">Only an LLC or PLLC can be a disregarded entity (the entity type is C corporation)</p>',
      );
      expect(res.body).toContain(
        '<p class="error" id="f-llc_managed_type-error">Only an LLC or PLLC has LLC management: leave it blank (the entity type is C corporation)</p>',
      );
      expect(res.body).toContain('Please fix these 2 problems');
      for (const [entity_type, tax_classification] of [
        ['gp', 's_corp'],
        ['c_corp', 'partnership'],
        ['llp', 'corp'],
      ] as const) {
        const refused = await browser!.post('/hosted/signup/business', {
          ...BUSINESS_STEP,
          entity_type,
          tax_classification,
          llc_managed_type: '',
        });
        expect(refused.body).toContain('id="f-tax_classification-error"');
      }
      // Combinations that can be true: an LLC taxed as a corporation or an S corporation, a corporation's S election.
      for (const [entity_type, tax_classification] of [
        ['llc', 'corp'],
        ['pllc', 's_corp'],
        ['p_corp', 's_corp'],
        ['lp', 'partnership'],
        ['c_corp', 'corp'],
      ] as const) {
        const form = {
          ...BUSINESS_STEP,
          entity_type,
          tax_classification,
          ...(entity_type.endsWith('llc') ? {} : { llc_managed_type: '' }),
        };
        expect((await browser!.post('/hosted/signup/business', form)).statusCode).toBe(303);
      }
    });

    it('the business address: a state select stored as its code, a US ZIP, and the country "US"', async () => {
      const { url, legal_entity_id } = await session();
      const { browser } = await openLink(t.app, url);
      const page = await browser!.get('/hosted/signup/contact');
      expect(page.body).toMatch(
        /<select id="f-business_address-state" name="business_address\.state">\n<option value="">Choose…<\/option>\n(<option value="[A-Z]{2}">[A-Za-z ]+<\/option>){51}\n<\/select>/,
      );
      expect(page.body).toContain('<option value="TX">Texas</option>');
      expect(page.body).toMatch(
        /<select id="f-business_address-country" name="business_address\.country">\n<option value="">Choose…<\/option>\n<option value="US" selected>United States<\/option>\n<\/select>/,
      );
      const address = {
        ...CONTACT_STEP,
        'business_address.city': 'Austin',
        'business_address.state': 'TX',
        'business_address.postal_code': '7870',
      };
      const bad = await browser!.post('/hosted/signup/contact', {
        ...address,
        'business_address.state': 'Texas!',
        'business_address.country': 'Canada',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.body).toContain(
        '<p class="error" id="f-business_address-postal_code-error">Enter a 5-digit ZIP code, like 78701, or ZIP+4, like 78701-1234</p>',
      );
      expect(bad.body).toContain('<p class="error" id="f-business_address-state-error">Choose the state</p>');
      expect(bad.body).toContain(
        '<p class="error" id="f-business_address-country-error">Only addresses in the United States can be given</p>',
      );
      expect(bad.body).toContain('value="7870"');
      // A state written out and "USA" (a form from before, or a platform's prefill) are stored as the API's examples are: TX, US.
      const ok = await browser!.post('/hosted/signup/contact', {
        ...address,
        'business_address.state': 'Texas',
        'business_address.postal_code': '78701-1234',
        'business_address.country': 'USA',
      });
      expect(ok.statusCode).toBe(303);
      expect((await entity(legal_entity_id)).business_address).toMatchObject({
        city: 'Austin',
        state: 'TX',
        postal_code: '78701-1234',
        country: 'US',
      });
    });

    it("errors name the field and say what is expected; the summary uses the fields' labels", async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      const business = await browser!.post('/hosted/signup/business', { ...BUSINESS_STEP, business_name: ' ', incorporation_date: '' });
      expect(business.body).toContain('<p class="error" id="f-business_name-error">Enter the business name</p>');
      expect(business.body).toContain('<a href="#f-business_name">Legal business name: Enter the business name</a>');
      expect(business.body).toContain(
        '<a href="#f-incorporation_date">Date of incorporation or formation: Enter the date of incorporation or formation</a>',
      );
      expect(business.body).not.toContain('This field is required');
      const accounting = await browser!.post('/hosted/signup/accounting', { naics_code: '7', futa_liability_year: '24' });
      expect(accounting.statusCode).toBe(422);
      expect(accounting.body).toContain('<p class="error" id="f-naics_code-error">A NAICS code has 2 to 6 digits</p>');
      expect(accounting.body).toContain('<p class="error" id="f-futa_liability_year-error">Enter a four-digit year, like 2024</p>');
      expect(accounting.body).toContain(
        '<a href="#f-futa_liability_year">First year of federal unemployment (FUTA) liability: Enter a four-digit year, like 2024</a>',
      );
      expect(accounting.body).not.toContain('This does not look right');
      // Every summary label is its field's label.
      for (const [, href, label] of accounting.body.matchAll(/<a href="#(f-[^"]+)">([^:]+): /g)) {
        expect(accounting.body).toContain(`<label for="${href}">${label}`);
      }
    });

    it('saves each step, resumes where the user left, and ends with a review', async () => {
      const first = await session();
      const { browser } = await openLink(t.app, first.url);
      await browser!.get('/hosted/signup/business');
      const saved = await browser!.post('/hosted/signup/business', BUSINESS_STEP);
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe('/hosted/signup/contact');
      const row = await entity(first.legal_entity_id);
      expect(row).toMatchObject({
        business_name: 'Rose & Thorn Florists',
        entity_type: 'llc',
        incorporation_region: 'OR',
        ein: '12-3456789',
        status: 'inactive',
        signup_step: 'contact',
      });

      // The user leaves; the platform sends a new link for the same entity; signup resumes at the contact step.
      const again = json<{ url: string }>(
        await t.app.inject({
          method: 'POST',
          url: '/v2/signup/sessions',
          headers: { authorization: apiKey },
          payload: {
            business_name: 'Rose & Thorn Florists',
            user_email: 'r@example.com',
            callback_url: 'https://platform.example/welcome',
            legal_entity_id: first.legal_entity_id,
          },
        }),
      );
      const { browser: second } = await openLink(t.app, again.url);
      expect((await second!.get('/hosted/signup')).headers.location).toBe('/hosted/signup/contact');
      await second!.get('/hosted/signup/contact');
      expect((await second!.post('/hosted/signup/contact', CONTACT_STEP)).headers.location).toBe('/hosted/signup/accounting');
      await second!.get('/hosted/signup/accounting');
      expect((await second!.post('/hosted/signup/accounting', { naics_code: '453110', accounting_year_end: '6' })).headers.location).toBe(
        '/hosted/signup/review',
      );
      const review = await second!.get('/hosted/signup/review');
      expect(review.statusCode).toBe(200);
      expect(review.body).toContain('Confirm and complete signup');
      expect(review.headers['content-security-policy']).toContain("form-action 'self' https://platform.example");

      const done = await second!.post('/hosted/signup/review', {});
      expect(done.statusCode).toBe(303);
      const location = new URL(done.headers.location as string);
      expect(location.origin + location.pathname).toBe('https://platform.example/welcome');
      expect(Object.fromEntries(location.searchParams)).toEqual({ legal_entity_id: first.legal_entity_id, status: 'complete' });
      const completed = await entity(first.legal_entity_id);
      expect(completed).toMatchObject({
        status: 'active',
        naics_code: '453110',
        accounting_year_end: 6,
        business_address: expect.objectContaining({ city: 'Portland' }),
      });
      const tasks = await t.db.selectFrom('tasks').select('definition_id').where('legal_entity_id', '=', first.legal_entity_id).execute();
      expect(tasks.some((x) => x.definition_id.startsWith('or-'))).toBe(true); // the tasks of its state of formation
      expect((await second!.get('/hosted/signup')).statusCode).toBe(401); // the session ended with the signup
    });

    it('the review cannot be submitted while a required step is missing', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      const res = await browser!.post('/hosted/signup/review', {});
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/hosted/signup/business');
    });

    it('forms need the CSRF token and a same-origin request', async () => {
      const { browser } = await openLink(t.app, (await session()).url);
      await browser!.get('/hosted/signup/business');
      expect((await browser!.post('/hosted/signup/business', BUSINESS_STEP, { csrf: null })).statusCode).toBe(403);
      expect((await browser!.post('/hosted/signup/business', BUSINESS_STEP, { csrf: 'forged' })).statusCode).toBe(403);
      expect((await browser!.post('/hosted/signup/business', BUSINESS_STEP, { origin: 'https://evil.example' })).statusCode).toBe(403);
      expect((await browser!.post('/hosted/signup/business', BUSINESS_STEP, { origin: 'http://statehouse.test' })).statusCode).toBe(303);
    });
  });

  it('without a callback the user sees a completion page', async () => {
    const res = json<{ url: string; legal_entity_id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/v2/signup',
        headers: { authorization: apiKey },
        payload: {
          user_email: 'n@example.com',
          business_name: 'No Callback LLC',
          entity_type: 'llc',
          tax_class: 'disregarded',
          incorporation_region: 'OH',
          incorporated_date: '2021-01-01',
        },
      }),
    );
    const { browser } = await openLink(t.app, res.url);
    expect((await browser!.get('/hosted/signup')).headers.location).toBe('/hosted/signup/welcome');
    await browser!.get('/hosted/signup/welcome');
    // Everything required was given through the API: Start leads to the review, where the owner checks it.
    expect((await browser!.post('/hosted/signup/welcome', {})).headers.location).toBe('/hosted/signup/review');
    await browser!.get('/hosted/signup/review');
    const done = await browser!.post('/hosted/signup/review', {});
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Signup complete');
    expect((await entity(res.legal_entity_id)).status).toBe('active');
  });

  it('serves its stylesheet', async () => {
    const res = await t.app.inject({ url: '/hosted/assets/statehouse.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/css');
  });
});
