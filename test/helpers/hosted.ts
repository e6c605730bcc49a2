import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A browser as far as hosted pages care: a cookie jar and the CSRF token of the last page. */
export interface HostedBrowser {
  cookie: string;
  get(path: string): Promise<LightMyRequestResponse>;
  post(path: string, form: Record<string, string>, options?: { csrf?: string | null; origin?: string }): Promise<LightMyRequestResponse>;
}

export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null;

/**
 * Opens a hosted link as its person does: the link's page (GET, which never uses it up), then its button (a
 * same-origin POST of the token to /hosted/s, which does). Returns that POST's answer (a 303 with the session
 * cookie), or the page's when the link cannot be used, and a browser holding the session cookie.
 */
export async function openLink(
  app: FastifyInstance,
  url: string,
): Promise<{ response: LightMyRequestResponse; browser: HostedBrowser | null }> {
  const page = await app.inject({ url: new URL(url).pathname });
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
  if (page.statusCode !== 200 || !token) return { response: page, browser: null };
  const response = await app.inject({
    method: 'POST',
    url: '/hosted/s',
    payload: new URLSearchParams({ token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
  });
  const setCookie = response.headers['set-cookie'];
  if (response.statusCode !== 303 || !setCookie) return { response, browser: null };
  const cookie = String(setCookie).split(';')[0]!;
  let lastCsrf: string | null = null;
  const browser: HostedBrowser = {
    cookie,
    async get(path) {
      const res = await app.inject({ url: path, headers: { cookie } });
      lastCsrf = csrfOf(res.body) ?? lastCsrf;
      return res;
    },
    async post(path, form, options = {}) {
      const csrf = options.csrf === undefined ? lastCsrf : options.csrf;
      const body = new URLSearchParams({ ...form, ...(csrf ? { _csrf: csrf } : {}) }).toString();
      const res = await app.inject({
        method: 'POST',
        url: path,
        payload: body,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...(options.origin && { origin: options.origin }) },
      });
      lastCsrf = csrfOf(res.body) ?? lastCsrf;
      return res;
    },
  };
  return { response, browser };
}

export const BUSINESS_STEP = {
  business_name: 'Rose & Thorn Florists',
  entity_type: 'llc',
  tax_classification: 'disregarded',
  incorporation_location: 'OR',
  incorporation_date: '2021-04-09',
  ein: '123456789',
  llc_managed_type: 'member_managed',
};
export const CONTACT_STEP = {
  user_email: 'rose@example.com',
  'business_address.address_line_1': '1 Main St',
  'business_address.city': 'Portland',
  'business_address.state': 'OR',
  'business_address.postal_code': '97201',
  'business_address.country': 'US',
};

/** Walks the hosted signup to the end, filling required steps that are not complete yet. */
export async function finishSignup(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  const { browser, response } = await openLink(app, url);
  if (!browser) throw new Error(`link did not open: ${response.statusCode}`);
  for (let i = 0; i < 5; i++) {
    const start = await browser.get('/hosted/signup');
    const location = start.headers.location as string | undefined;
    if (!location) break;
    const page = await browser.get(location);
    const step = location.split('/').at(-1);
    if (step === 'review') break;
    const form = step === 'business' ? BUSINESS_STEP : step === 'contact' ? CONTACT_STEP : {};
    void page;
    await browser.post(location, form);
  }
  await browser.get('/hosted/signup/review');
  return browser.post('/hosted/signup/review', {});
}

/**
 * Connects payroll as the business owner does: `POST /v2/auth/payroll` with the platform's key, then the
 * owner accepts on the hosted consent page (test/payroll.test.ts tests that page itself).
 */
export async function connectPayroll(app: FastifyInstance, apiKey: string, legalEntityId: string): Promise<void> {
  const setup = await app.inject({
    method: 'POST',
    url: '/v2/auth/payroll',
    headers: { authorization: apiKey },
    payload: { legal_entity_id: legalEntityId, authorization_callback_url: 'https://platform.example/payroll' },
  });
  if (setup.statusCode !== 200) throw new Error(`POST /v2/auth/payroll answered ${setup.statusCode}: ${setup.body}`);
  const { browser } = await openLink(app, (JSON.parse(setup.body) as { url: string }).url);
  await browser!.get('/hosted/payroll');
  const accepted = await browser!.post('/hosted/payroll', {});
  if (accepted.statusCode !== 303) throw new Error(`POST /hosted/payroll answered ${accepted.statusCode}: ${accepted.body}`);
}
