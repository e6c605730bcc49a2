/**
 * The accounts page's empty state: why accounts matter and a form to add an agency account the owner already has
 * (POST /hosted/accounts/accounts), limited to the session's states, refused field by field with what was typed kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { eventsUntil } from './helpers/events.js';
import { openLink, type HostedBrowser } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';

describe('accounts page: adding an agency account', () => {
  let t: TestApp;
  let apiKey: string;
  let token: string;
  const open = async (payload: Record<string, unknown> = { callback_url: CALLBACK }): Promise<HostedBrowser> => {
    const res = await t.app.inject({ method: 'POST', url: '/v2/accounts/manage/session', headers: bearer(token), payload });
    const { browser } = await openLink(t.app, json(res).url);
    await browser!.get('/hosted/accounts');
    return browser!;
  };
  const accounts = async () =>
    json<{ id: string; name: string; agency: { id: string } }[]>(
      await t.app.inject({ url: '/v2/agency_accounts', headers: bearer(token) }),
    );

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, token } = await createPlatformWithEntity(t, 'Acme Payroll', { business_name: 'Fresh Start LLC' }));
  });
  afterAll(async () => t?.close());

  it('the empty state says why accounts matter and offers the form, open, with the agencies by state', async () => {
    const page = (await (await open()).get('/hosted/accounts')).body;
    expect(page).toContain('No agency accounts yet');
    expect(page).toContain('are where filings and payments go');
    expect(page).toMatch(/<details class="credentials add-account" open><summary>Add an agency account you already have<\/summary>/);
    expect(page).toContain('<optgroup label="California">');
    expect(page).toContain('<option value="CA:ca-edd">');
    // A session limited to one state offers that state's agencies only.
    const texas = (await (await open({ callback_url: CALLBACK, region_id: 'TX' })).get('/hosted/accounts')).body;
    expect(texas).toContain('<optgroup label="Texas">');
    expect(texas).not.toContain('<optgroup label="California">');
  });

  it('refuses a missing or foreign agency and a name that is too long, keeping what was typed (422), and adds nothing', async () => {
    const browser = await open();
    const missing = await browser.post('/hosted/accounts/accounts', { agency: '', account_name: 'Payroll tax' });
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('Choose the agency of the account');
    expect(missing.body).toContain('href="#f-add-account-agency"');
    expect(missing.body).toContain('value="Payroll tax"');
    const unknown = await browser.post('/hosted/accounts/accounts', { agency: 'CA:nope', account_name: '' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain('Choose an agency from the list');
    const long = await browser.post('/hosted/accounts/accounts', { agency: 'CA:ca-edd', account_name: 'x'.repeat(201) });
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('Use at most 200 characters');
    expect(long.body).toMatch(/<option value="CA:ca-edd" selected>/);
    const texas = await open({ callback_url: CALLBACK, region_id: 'TX' });
    expect((await texas.post('/hosted/accounts/accounts', { agency: 'CA:ca-edd' })).statusCode).toBe(422);
    expect(await accounts()).toEqual([]);
    // No CSRF token: refused before anything is read.
    expect((await browser.post('/hosted/accounts/accounts', { agency: 'CA:ca-edd' }, { csrf: null })).statusCode).toBe(403);
    expect(await accounts()).toEqual([]);
  });

  it('adds the account (named after the agency when no name is given), records agency_account.created, and offers its login form', async () => {
    const browser = await open();
    const added = await browser.post('/hosted/accounts/accounts', { agency: 'CA:ca-edd', account_name: '  ' });
    expect(added.statusCode).toBe(303);
    const [account] = await accounts();
    expect(account).toMatchObject({ agency: { id: 'ca-edd' } });
    expect(added.headers.location).toBe(`/hosted/accounts?added=${account!.id}#account-${account!.id}`);
    const page = (await browser.get(`/hosted/accounts?added=${account!.id}`)).body;
    expect(page).toContain(`Account added: ${account!.name}. Add its login below`);
    expect(page).not.toContain('No agency accounts yet');
    expect(page).toContain(`name="agency_account_id" value="${account!.id}"`);
    // The form stays available, closed, below the accounts.
    expect(page).toMatch(/<details class="credentials add-account"><summary>/);
    const named = await browser.post('/hosted/accounts/accounts', { agency: 'CA:ca-edd', account_name: 'Employer payroll tax account' });
    expect(named.statusCode).toBe(303);
    expect((await accounts()).map((a) => a.name)).toContain('Employer payroll tax account');
    const namedId = (await accounts()).find((a) => a.name === 'Employer payroll tax account')!.id;
    // Wait for these two accounts' events by id (the log lists an event once older transactions have ended).
    const createdIds = (list: Awaited<ReturnType<typeof eventsUntil>>) =>
      list.filter((e) => e.type === 'agency_account.created').map((e) => e.data.object.id);
    const events = await eventsUntil(t.app, apiKey, (list) => createdIds(list).includes(account!.id) && createdIds(list).includes(namedId));
    expect(createdIds(events)).toEqual(expect.arrayContaining([account!.id, namedId]));
  });
});
