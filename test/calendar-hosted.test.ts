/**
 * The hosted task list's "Subscribe in your calendar": getting the link, seeing it (and its webcal:// twin), stopping
 * sharing, the CSRF rule of every hosted form, and no offer on lists the platform limited to a location or to questions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { openLink, type HostedBrowser } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';

describe('calendar on the hosted task list', () => {
  let t: TestApp;
  let apiKey: string;

  const setup = async () => {
    const headers = bearer((await signupWithToken(t.app, apiKey, { business_name: 'Harbor Labs' })).token);
    // Tasks (and so forms with the page's CSRF token) on every list, the limited ones included.
    const location = await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers,
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    expect(location.statusCode, location.body).toBe(200);
    const open = async (url: string, payload: Record<string, unknown>): Promise<HostedBrowser> => {
      const res = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(res.statusCode, res.body).toBe(200);
      const { browser } = await openLink(t.app, json(res).url);
      return browser!;
    };
    return { headers, open };
  };
  const urlOn = (html: string) => /id="calendar-url" type="text" readonly value="([^"]+)"/.exec(html)?.[1] ?? null;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(async () => t.close());

  it('offers a link, shows it with a webcal:// link once made, and stops sharing it', async () => {
    const { headers, open } = await setup();
    const browser = await open('/tasks/sessions', { callback_url: CALLBACK });
    const before = await browser.get('/hosted/tasks');
    expect(before.body).toContain('<h2 id="calendar-title">Subscribe in your calendar</h2>');
    expect(urlOn(before.body)).toBeNull();

    const made = await browser.post('/hosted/calendar', {});
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/hosted/tasks?calendar=on#calendar');
    const shown = await browser.get('/hosted/tasks?calendar=on');
    const url = urlOn(shown.body)!;
    expect(url).toMatch(/^http:\/\/statehouse\.test\/calendar\/shcal_[\w-]+\.ics$/);
    expect(shown.body).toContain(`href="${url.replace('http://', 'webcal://')}"`);
    expect(shown.body).toContain('Your calendar link is ready');
    // The platform's API hands out the same URL.
    expect(json(await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers })).url).toBe(url);
    expect((await t.app.inject({ url: new URL(url).pathname })).statusCode).toBe(200);

    const stopped = await browser.post('/hosted/calendar/stop', {});
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe('/hosted/tasks?calendar=off#calendar');
    expect((await t.app.inject({ url: new URL(url).pathname })).statusCode).toBe(404);
    const after = await browser.get('/hosted/tasks?calendar=off');
    expect(urlOn(after.body)).toBeNull();
    expect(after.body).toContain('You stopped sharing your calendar');
  });

  it('refuses a form without its CSRF token or from another origin, and changes nothing', async () => {
    const { headers, open } = await setup();
    const browser = await open('/tasks/sessions', { callback_url: CALLBACK });
    await browser.get('/hosted/tasks');
    expect((await browser.post('/hosted/calendar', {}, { csrf: null })).statusCode).toBe(403);
    expect((await browser.post('/hosted/calendar', {}, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers })).statusCode, 'no URL was made').toBe(201);
    expect((await browser.post('/hosted/calendar/stop', {}, { csrf: 'forged' })).statusCode).toBe(403);
    expect(urlOn((await browser.get('/hosted/tasks')).body), 'still shared').not.toBeNull();
    // No session at all: the page's own answer, not the calendar's.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/hosted/calendar',
      payload: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a list limited to a location or to questions offers no calendar, and its forms are refused', async () => {
    const { headers, open } = await setup();
    for (const scope of [{ task_type: 'requirement', region_id: 'CA' }, { task_type: 'question' }]) {
      const browser = await open('/v2/tasks/manage/session', { callback_url: CALLBACK, status: 'todo', ...scope });
      const page = await browser.get('/hosted/tasks');
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('Subscribe in your calendar');
      const refused = await browser.post('/hosted/calendar', {});
      expect(refused.statusCode).toBe(303);
      expect(refused.headers.location).toMatch(/^\/hosted\/tasks\?error=/);
    }
    expect((await t.app.inject({ method: 'POST', url: '/v2/tasks/calendar', headers })).statusCode, 'no URL was made').toBe(201);
    // A list of the entity's requirements (the platform's usual v2 list) offers it.
    const requirements = await open('/v2/tasks/manage/session', { callback_url: CALLBACK, task_type: 'requirement', status: 'todo' });
    expect(urlOn((await requirements.get('/hosted/tasks')).body)).toMatch(/\/calendar\/shcal_/);
  });
});
