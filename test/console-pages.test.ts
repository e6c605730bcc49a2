import { waitUntil } from './helpers/wait.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createPlatform, createTestApp, json, signupWithToken, type TestApp } from './helpers/app.js';
import { consoleUser, type ConsoleBrowser } from './helpers/console.js';

const RECEIVER = 'https://93.184.216.34/hooks/console';

/** Console pages through HTTP: what each role may do, one platform's users never see another's, every action audited. */
describe('console pages', () => {
  let t: TestApp;
  let acme: { platformId: string; apiKey: string; apiKeyId: string };
  let other: { platformId: string; apiKey: string; apiKeyId: string };
  let admin: ConsoleBrowser;
  let developer: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let outsider: ConsoleBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    acme = await createPlatform(t.db, 'Acme Payroll');
    other = await createPlatform(t.db, 'Other Payroll');
    admin = await consoleUser(t.app, t.db, acme.platformId, 'admin@acme.example', 'admin');
    developer = await consoleUser(t.app, t.db, acme.platformId, 'dev@acme.example', 'developer');
    reader = await consoleUser(t.app, t.db, acme.platformId, 'reader@acme.example', 'read_only');
    outsider = await consoleUser(t.app, t.db, other.platformId, 'admin@other.example', 'admin');
  });
  afterAll(() => t.close());

  const audited = async (platformId: string) =>
    (await t.db.selectFrom('console_audit_events').selectAll().where('platform_id', '=', platformId).execute()).map((e) => ({
      action: e.action,
      by: e.user_email,
      subject: e.subject_id,
    }));

  it('an admin creates an API key (shown once, and it works) and revokes it; both audited', async () => {
    await admin.get('/console/api-keys');
    const created = await admin.post('/console/api-keys', {});
    expect(created.statusCode).toBe(200);
    const key = /<code class="secret">(sh_key_[^<]+)<\/code>/.exec(created.body)?.[1];
    expect(key).toBeDefined();
    expect((await t.app.inject({ url: '/v2/webhook_endpoints', headers: bearer(key!) })).statusCode).toBe(200);
    const listed = await admin.get('/console/api-keys');
    expect(listed.body).not.toContain(key!);
    const keyId = (await t.db.selectFrom('api_keys').select('id').where('platform_id', '=', acme.platformId).execute()).at(-1)!.id;
    expect((await admin.post(`/console/api-keys/${keyId}/revoke`, {})).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/v2/webhook_endpoints', headers: bearer(key!) })).statusCode).toBe(403);
    expect(await audited(acme.platformId)).toEqual(
      expect.arrayContaining([
        { action: 'api_key.create', by: 'admin@acme.example', subject: keyId },
        { action: 'api_key.revoke', by: 'admin@acme.example', subject: keyId },
      ]),
    );
  });

  it('a developer adds, disables and deletes a webhook endpoint, but cannot touch API keys or users', async () => {
    const page = await developer.get('/console/webhooks');
    expect(page.body).toContain('Add endpoint');
    const created = await developer.post('/console/webhooks', { url: RECEIVER, event_type: 'task.created', description: 'ours' });
    expect(created.statusCode).toBe(200);
    expect(created.body).toMatch(/<code class="secret">whsec_[^<]+<\/code>/);
    const endpoints = json<{ id: string; status: string; event_types: string[] | null }[]>(
      await t.app.inject({ url: '/v2/webhook_endpoints', headers: bearer(acme.apiKey) }),
    );
    const endpoint = endpoints.find((e) => e.event_types?.includes('task.created'))!;
    expect((await developer.post(`/console/webhooks/${endpoint.id}/disable`, {})).statusCode).toBe(303);
    expect((await developer.get('/console/webhooks')).body).toContain('disabled');
    expect((await developer.post(`/console/webhooks/${endpoint.id}/delete`, {})).statusCode).toBe(303);
    expect((await developer.get('/console/api-keys')).body).not.toContain('Create an API key');
    expect((await developer.post('/console/api-keys', {})).statusCode).toBe(403);
    expect((await developer.post('/console/users', { email: 'x@acme.example', role: 'admin' })).statusCode).toBe(403);
    const actions = (await audited(acme.platformId)).filter((e) => e.subject === endpoint.id).map((e) => e.action);
    expect(actions.sort()).toEqual(['webhook_endpoint.create', 'webhook_endpoint.delete', 'webhook_endpoint.disable']);
  });

  it('read-only sees every page without a button, and every action post is refused with 403', async () => {
    for (const path of [
      '/console',
      '/console/api-keys',
      '/console/webhooks',
      '/console/events',
      '/console/callback-origins',
      '/console/branding',
      '/console/users',
      '/console/audit',
    ]) {
      const res = await reader.get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).not.toMatch(/<button type="submit">(Create|Add|Invite|Save)/);
    }
    for (const [path, form] of [
      ['/console/api-keys', {}],
      ['/console/webhooks', { url: RECEIVER }],
      ['/console/callback-origins', { origin: 'https://app.acme.example' }],
      ['/console/branding', { display_name: 'Hacked' }],
      ['/console/users', { email: 'x@acme.example', role: 'admin' }],
    ] as const) {
      expect((await reader.post(path, form)).statusCode, path).toBe(403);
    }
    expect((await t.db.selectFrom('platform_callback_origins').selectAll().execute()).length).toBe(0);
  });

  it('an admin manages callback origins, branding and users (invite link shown once, role change, removal)', async () => {
    await admin.get('/console/callback-origins');
    expect((await admin.post('/console/callback-origins', { origin: 'not a url' })).statusCode).toBe(422);
    expect((await admin.post('/console/callback-origins', { origin: 'https://app.acme.example/path' })).statusCode).toBe(303);
    expect((await admin.get('/console/callback-origins')).body).toContain('https://app.acme.example');
    expect((await admin.post('/console/branding', { display_name: 'Acme', accent_color: 'blue-ish' })).statusCode).toBe(422);
    expect((await admin.post('/console/branding', { display_name: 'Acme', accent_color: '#0b5cad' })).statusCode).toBe(303);
    const invited = await admin.post('/console/users', { email: 'new@acme.example', role: 'developer' });
    expect(invited.statusCode).toBe(200);
    expect(invited.body).toMatch(/http:\/\/statehouse\.test\/console\/invite\/[A-Za-z0-9_-]{40,}/);
    expect((await admin.post('/console/users', { email: 'dev@acme.example', role: 'admin' })).body).toContain(
      'already has a console account',
    );
    const dev = (await t.db.selectFrom('console_users').select('id').where('email', '=', 'dev@acme.example').executeTakeFirstOrThrow()).id;
    expect((await admin.post(`/console/users/${dev}/role`, { role: 'read_only' })).statusCode).toBe(303);
    const reader2 = await consoleUser(t.app, t.db, acme.platformId, 'gone@acme.example', 'read_only');
    const gone = (await t.db.selectFrom('console_users').select('id').where('email', '=', 'gone@acme.example').executeTakeFirstOrThrow())
      .id;
    expect((await admin.post(`/console/users/${gone}/remove`, {})).statusCode).toBe(303);
    expect((await reader2.get('/console')).statusCode).toBe(303);
    expect((await audited(acme.platformId)).map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'callback_origin.add',
        'brand.update',
        'console_user.invite',
        'console_user.change_role',
        'console_user.remove',
      ]),
    );
  });

  let acmeEntity = '';
  it("the event log shows the platform's events, filtered by type and entity", async () => {
    const { entityId } = await signupWithToken(t.app, acme.apiKey, {});
    acmeEntity = entityId;
    // The event log lists an event once every older transaction has ended (docs/events.md): wait for it.
    const page = await waitUntil(async () => {
      const listed = await admin.get('/console/events?type=task.created');
      return listed.body.includes(entityId) && listed;
    }, "the new entity's events in the console");
    expect(page.body).toContain(entityId);
    const filtered = await admin.get(`/console/events?type=task.deleted&legal_entity_id=${entityId}`);
    expect(filtered.body).toContain('No events match these filters');
    expect((await admin.get(`/console/events?legal_entity_id=${entityId}`)).body).toContain(entityId);
  });

  it('a console user sees and acts on their own platform only', async () => {
    await signupWithToken(t.app, other.apiKey, { business_name: 'Other Business' });
    const home = await outsider.get('/console');
    expect(home.body).toContain('Other Payroll');
    expect(home.body).not.toContain('Acme Payroll');
    expect((await outsider.get('/console/users')).body).not.toContain('acme.example');
    expect((await outsider.get('/console/api-keys')).body).not.toContain(acme.apiKeyId);
    expect((await outsider.get('/console/callback-origins')).body).not.toContain('app.acme.example');
    const events = await waitUntil(async () => {
      const listed = await outsider.get('/console/events?type=task.created');
      return listed.body.includes('task.created') && listed;
    }, "the other platform's events in its console");
    expect(events.body).toContain('task.created');
    expect(events.body).not.toContain(acmeEntity);
    // Acting on another platform's records: 404, nothing changed.
    expect((await outsider.post(`/console/api-keys/${acme.apiKeyId}/revoke`, {})).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v2/webhook_endpoints', headers: bearer(acme.apiKey) })).statusCode).toBe(200);
    const dev = (await t.db.selectFrom('console_users').select('id').where('email', '=', 'dev@acme.example').executeTakeFirstOrThrow()).id;
    expect((await outsider.post(`/console/users/${dev}/remove`, {})).statusCode).toBe(404);
    expect((await outsider.get('/console/audit')).body).not.toContain('acme.example');
  });

  it('an admin cannot remove themself, and the last admin cannot be demoted', async () => {
    const me = (await t.db.selectFrom('console_users').select('id').where('email', '=', 'admin@other.example').executeTakeFirstOrThrow())
      .id;
    await outsider.get('/console/users');
    expect((await outsider.post(`/console/users/${me}/remove`, {})).statusCode).toBe(403);
    expect((await outsider.post(`/console/users/${me}/role`, { role: 'developer' })).statusCode).toBe(409);
  });
});
