import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';
import { BUSINESS_STEP, CONTACT_STEP, openLink, type HostedBrowser } from './helpers/hosted.js';

/** The hosted signup as a new owner meets it: the introduction, what the platform filled in, phones, the review in words. */
describe('hosted signup: introduction, prefilled steps, phones and the review', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({ signupSessionTtlSeconds: 3600 });
    ({ apiKey } = await createPlatform(t.db, 'Acme Payroll'));
  });
  afterAll(async () => t.close());

  async function open(body: Record<string, unknown> = {}): Promise<{ browser: HostedBrowser; id: string }> {
    const res = json<{ url: string; legal_entity_id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/accounts/signup/sessions',
        headers: { authorization: apiKey },
        payload: {
          business_name: 'Rose & Thorn Florists',
          user_email: 'rose@example.com',
          callback_url: 'https://platform.example/welcome',
          ...body,
        },
      }),
    );
    const { browser } = await openLink(t.app, res.url);
    return { browser: browser!, id: res.legal_entity_id };
  }
  const entity = (id: string) => t.db.selectFrom('legal_entities').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const text = (body: string) =>
    body
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');

  describe('the introduction', () => {
    it('names the platform, lists the steps, the time and what to have at hand, and what happens after', async () => {
      const { browser } = await open();
      expect((await browser.get('/hosted/signup')).headers.location).toBe('/hosted/signup/welcome');
      const page = text((await browser.get('/hosted/signup/welcome')).body);
      expect(page).toContain('Set up Rose & Thorn Florists with Acme Payroll');
      expect(page).toContain('Acme Payroll uses Statehouse to work out which registrations, filings and renewals');
      for (const step of ['About your business', 'How to reach you', 'Accounting (optional)', 'Review and confirm'])
        expect(page).toContain(step);
      expect(page).toContain('about 5 minutes');
      expect(page).toContain('EIN, from the IRS letter that assigned it (CP 575)');
      expect(page).toContain('After you confirm');
    });

    it('lists what the platform filled in, step by step', async () => {
      const { browser } = await open({ business_information: { entity_type: 'llc', incorporation_region: 'OR', naics_code: '453110' } });
      const page = text((await browser.get('/hosted/signup/welcome')).body);
      expect(page).toContain('Already filled in by Acme Payroll');
      expect(page).toContain(
        'About your business: legal business name, entity type, state of incorporation or formation How to reach you: your email Accounting (optional): NAICS code',
      );
      expect(page).toContain('You will see these details before you confirm, and can change any of them.');
    });

    it('Start leads to the first step to fill in, and a returning owner is not shown the introduction again', async () => {
      const { browser, id } = await open();
      await browser.get('/hosted/signup/welcome');
      const started = await browser.post('/hosted/signup/welcome', {});
      expect(started.statusCode).toBe(303);
      expect(started.headers.location).toBe('/hosted/signup/business');
      expect(await entity(id)).toMatchObject({ signup_step: 'business', signup_confirmed_steps: [] });
      expect((await browser.get('/hosted/signup')).headers.location).toBe('/hosted/signup/business');
    });

    it('Start needs the CSRF token', async () => {
      const { browser } = await open();
      await browser.get('/hosted/signup/welcome');
      expect((await browser.post('/hosted/signup/welcome', {}, { csrf: 'forged' })).statusCode).toBe(403);
    });
  });

  describe('steps the platform filled in', () => {
    it('say so until the owner saves them', async () => {
      const { browser, id } = await open({ business_information: { entity_type: 'llc', incorporation_region: 'OR' } });
      const before = await browser.get('/hosted/signup/business');
      expect(before.body).toContain(
        '<div class="notice info" role="note"><p>Acme Payroll filled in some of these details. Check them and correct anything that is wrong.</p></div>',
      );
      await browser.post('/hosted/signup/business', BUSINESS_STEP);
      expect((await entity(id)).signup_confirmed_steps).toEqual(['business']);
      expect((await browser.get('/hosted/signup/business')).body).not.toContain('notice info');
      // A step with nothing filled in has no note.
      expect((await browser.get('/hosted/signup/accounting')).body).not.toContain('notice info');
    });

    it('are marked on the review, with a link to change each step', async () => {
      const { browser } = await open({
        business_information: {
          entity_type: 'c_corp',
          tax_classification: 'corp',
          incorporation_region: 'DE',
          incorporation_date: '2024-03-04',
        },
      });
      await browser.get('/hosted/signup/welcome');
      expect((await browser.post('/hosted/signup/welcome', {})).headers.location).toBe('/hosted/signup/review');
      const review = await browser.get('/hosted/signup/review');
      expect(review.statusCode).toBe(200);
      const page = text(review.body);
      expect(page).toContain('About your business Change about your business Filled in by Acme Payroll: check these details.');
      expect(page).toContain('How to reach you Change how to reach you Filled in by Acme Payroll');
      expect(page).not.toContain('Accounting (optional) Change accounting (optional) Filled in');
      expect(page).toContain('State of incorporation or formation Delaware Date of incorporation or formation March 4, 2024');
      for (const step of ['business', 'contact', 'accounting']) expect(review.body).toContain(`<a href="/hosted/signup/${step}">Change`);
    });
  });

  describe('phone numbers', () => {
    it.each(['(415) 555-0134', '415.555.0134', '+1 415 555 0134', '4155550134'])(
      '%j is stored as +14155550134 and shown as (415) 555-0134',
      async (typed) => {
        const { browser, id } = await open();
        await browser.get('/hosted/signup/contact');
        const saved = await browser.post('/hosted/signup/contact', { ...CONTACT_STEP, business_phone: typed });
        expect(saved.statusCode, saved.body).toBe(303);
        expect((await entity(id)).business_phone).toBe('+14155550134');
        expect((await browser.get('/hosted/signup/contact')).body).toContain('value="(415) 555-0134"');
      },
    );

    it('the field carries a format hint', async () => {
      const { browser } = await open();
      const page = await browser.get('/hosted/signup/contact');
      expect(page.body).toContain(
        '<p class="hint" id="f-business_phone-hint">A US number such as (415) 555-0134, or another country&#39;s starting with +, e.g. +44 20 7946 0958</p>',
      );
      expect(page.body).toContain('aria-describedby="f-business_phone-hint"');
    });

    it('a number that is not valid gets a clear message next to the field, and everything typed is kept', async () => {
      const { browser, id } = await open();
      await browser.get('/hosted/signup/contact');
      const res = await browser.post('/hosted/signup/contact', {
        ...CONTACT_STEP,
        business_email: 'shop@example.com',
        business_phone: '555-0134',
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(
        '<p class="error" id="f-business_phone-error">Enter the full number with its area code, e.g. (415) 555-0134</p>',
      );
      expect(res.body).toContain('<a href="#f-business_phone">Business phone: Enter the full number with its area code');
      expect(res.body).toContain('value="555-0134"');
      expect(res.body).toContain('value="shop@example.com"');
      expect(res.body).toContain('value="1 Main St"');
      expect((await entity(id)).business_phone).toBeNull();

      const invalid = await browser.post('/hosted/signup/contact', { ...CONTACT_STEP, business_phone: '+1 (123) 456-7890' });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.body).toContain('Enter a valid phone number, e.g. (415) 555-0134 (or +44 20 7946 0958 outside the US)');
    });

    it('errors are listed in the order of the form', async () => {
      const { browser } = await open();
      await browser.get('/hosted/signup/contact');
      const res = await browser.post('/hosted/signup/contact', { ...CONTACT_STEP, user_email: '', business_phone: 'call me' });
      expect(res.statusCode).toBe(422);
      expect(res.body.indexOf('<a href="#f-user_email">')).toBeLessThan(res.body.indexOf('<a href="#f-business_phone">'));
    });
  });

  it('the review shows every detail in words: labels, state names, readable dates, the address as an address', async () => {
    const { browser } = await open();
    await browser.get('/hosted/signup/business');
    await browser.post('/hosted/signup/business', BUSINESS_STEP);
    await browser.get('/hosted/signup/contact');
    await browser.post('/hosted/signup/contact', {
      ...CONTACT_STEP,
      'business_address.address_line_2': 'Suite 200',
      business_email: 'shop@example.com',
      business_phone: '(415) 555-0134',
    });
    await browser.get('/hosted/signup/accounting');
    await browser.post('/hosted/signup/accounting', {
      naics_code: '453110',
      accounting_method: 'accrual',
      accounting_period: 'fiscal',
      accounting_year_end: '6',
      futa_liability_year: '2021',
    });
    const review = await browser.get('/hosted/signup/review');
    const page = text(review.body);
    for (const [label, value] of [
      ['Legal business name', 'Rose & Thorn Florists'],
      ['Entity type', 'Limited liability company (LLC)'],
      ['Tax classification', 'Disregarded entity (single-member LLC)'],
      ['LLC management', 'Member-managed'],
      ['State of incorporation or formation', 'Oregon'],
      ['Date of incorporation or formation', 'April 9, 2021'],
      ['Federal EIN', '12-3456789'],
      ['Your email', 'rose@example.com'],
      ['Business email', 'shop@example.com'],
      ['Business phone', '(415) 555-0134'],
      ['Business address', '1 Main St Suite 200 Portland, OR 97201 United States'],
      ['NAICS code', '453110'],
      ['Accounting method', 'Accrual'],
      ['Accounting period', 'Fiscal year'],
      ['Fiscal year ends in', 'June'],
      ['First year of FUTA liability', '2021'],
    ])
      expect(page).toContain(`${label} ${value}`);
    expect(review.body).toContain('1 Main St<br>Suite 200<br>Portland, OR 97201<br>United States');
    expect(page).not.toContain('Filled in by');
  });

  it('the review says which optional details were not given', async () => {
    const { browser } = await open();
    await browser.get('/hosted/signup/business');
    await browser.post('/hosted/signup/business', { ...BUSINESS_STEP, ein: '' });
    await browser.get('/hosted/signup/contact');
    await browser.post('/hosted/signup/contact', CONTACT_STEP);
    const page = text((await browser.get('/hosted/signup/review')).body);
    expect(page).toContain('Federal EIN Not given');
    expect(page).toContain('Business phone Not given');
  });
});
