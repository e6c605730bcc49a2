import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, json, type TestApp } from './helpers/app.js';

interface Issue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

const PUBLIC = 'https://93.184.216.34/hooks';

describe('webhook endpoints: bad input is a 422 in the usual shape, and nothing is written', () => {
  let t: TestApp;
  let production: TestApp;
  let permissive: TestApp;
  let apiKey: string;
  const post = (app: TestApp, authorization: string, payload: unknown) =>
    app.app.inject({
      method: 'POST',
      url: '/v2/webhook_endpoints',
      headers: { authorization },
      payload: payload as Record<string, unknown>,
    });
  const issues = async (payload: unknown, app = t, key = apiKey): Promise<Issue[]> => {
    const res = await post(app, key, payload);
    expect(res.statusCode, res.body).toBe(422);
    return json(res).detail;
  };
  const endpointCount = async (app: TestApp) =>
    Number(
      (
        await app.db
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    [t, production, permissive] = await Promise.all([
      createTestApp(),
      createTestApp({ environment: 'production' }),
      createTestApp().then(async (base) => {
        await base.close();
        return createTestApp({ webhooks: { ...base.config.webhooks, allowPrivate: true } });
      }),
    ]);
    ({ apiKey } = await createPlatform(t.db));
  });
  afterAll(() => Promise.all([t?.close(), production?.close(), permissive?.close()]));

  it("refuses what is not an http(s) URL with pydantic's URL errors", async () => {
    expect(await issues({ url: 'ftp://93.184.216.34/x' })).toMatchObject([{ type: 'url_scheme', loc: ['body', 'url'] }]);
    expect(await issues({ url: 'not a url' })).toMatchObject([{ type: 'url_parsing', loc: ['body', 'url'] }]);
    expect(await issues({ url: '' })).toMatchObject([{ type: 'url_parsing', loc: ['body', 'url'] }]);
    expect(await issues({})).toMatchObject([{ type: 'missing', loc: ['body', 'url'] }]);
    expect(await issues({ url: 42 })).toMatchObject([{ type: 'url_type', loc: ['body', 'url'] }]);
    expect(await issues({ url: `https://93.184.216.34/${'a'.repeat(2100)}` })).toMatchObject([
      { type: 'url_too_long', loc: ['body', 'url'] },
    ]);
  });

  it('refuses credentials and fragments in the URL, saying why', async () => {
    const [credentials] = await issues({ url: 'https://user:pass@93.184.216.34/hooks' });
    expect(credentials).toMatchObject({ type: 'value_error', loc: ['body', 'url'], input: 'https://user:pass@93.184.216.34/hooks' });
    expect(credentials!.msg).toContain('credentials in the URL are not allowed');
    expect((await issues({ url: 'https://user@93.184.216.34/hooks' }))[0]!.msg).toContain('credentials');
    expect((await issues({ url: `${PUBLIC}#section` }))[0]!.msg).toContain('fragment');
  });

  it('refuses unknown, empty, over-long and mistyped event_types', async () => {
    const unknown = await issues({ url: PUBLIC, event_types: ['task.created', 'task.exploded'] });
    expect(unknown).toMatchObject([{ type: 'enum', loc: ['body', 'event_types', 1], input: 'task.exploded' }]);
    const [empty] = await issues({ url: PUBLIC, event_types: [] });
    expect(empty).toMatchObject({ type: 'value_error', loc: ['body', 'event_types'], input: [] });
    expect(empty!.msg).toContain('at least one event type');
    expect(await issues({ url: PUBLIC, event_types: 'task.created' })).toMatchObject([{ type: 'list_type', loc: ['body', 'event_types'] }]);
    expect(await issues({ url: PUBLIC, event_types: Array(101).fill('task.created') })).toMatchObject([
      { type: 'too_long', loc: ['body', 'event_types'] },
    ]);
  });

  it('refuses an over-long description and reports every field together', async () => {
    const all = await issues({ url: 'ftp://x', event_types: ['nope'], description: 'd'.repeat(501) });
    expect(all.map((i) => [i.type, i.loc])).toEqual([
      ['url_scheme', ['body', 'url']],
      ['enum', ['body', 'event_types', 0]],
      ['string_too_long', ['body', 'description']],
    ]);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
    ['http://127.1/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/hook', '127.0.0.1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/hook', '127.0.0.1 is a loopback address'],
    ['http://[::1]/hook', '::1 is a loopback address'],
    // A name resolved by the system (/etc/hosts): every address it has is judged.
    ['http://localhost:3000/hook', /localhost resolves to (127\.0\.0\.1|::1) is a loopback address/],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://10.0.0.8/hook', '10.0.0.8 is a private address'],
    ['http://192.168.1.20/hook', '192.168.1.20 is a private address'],
    ['http://[fd00::1]/hook', 'unique-local'],
    ['http://0.0.0.0/hook', 'unspecified'],
    ['http://224.0.0.1/hook', 'multicast'],
  ])('refuses the destination %s', async (url, reason) => {
    const [issue] = await issues({ url });
    expect(issue).toMatchObject({ type: 'value_error', loc: ['body', 'url'], input: url });
    expect(issue!.msg).toContain('the destination is not allowed');
    if (typeof reason === 'string') expect(issue!.msg).toContain(reason);
    else expect(issue!.msg).toMatch(reason);
  });

  it('PATCH checks a new URL and event types the same way; a refused change leaves the endpoint as it was', async () => {
    const created = await post(t, apiKey, { url: PUBLIC, event_types: ['mail.received'] });
    const id = json(created).id;
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/v2/webhook_endpoints/${id}`, headers: { authorization: apiKey }, payload });
    const refused = await patch({ url: 'http://localhost/hook', event_types: ['task.created'] });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).detail[0]).toMatchObject({ loc: ['body', 'url'] });
    expect(json(await patch({ event_types: [] })).detail[0]).toMatchObject({ loc: ['body', 'event_types'] });
    expect(json(await patch({ status: 'paused' })).detail[0]).toMatchObject({ type: 'enum', loc: ['body', 'status'] });
    const read = await t.app.inject({ url: `/v2/webhook_endpoints/${id}`, headers: { authorization: apiKey } });
    expect(json(read)).toMatchObject({ url: PUBLIC, event_types: ['mail.received'], status: 'enabled' });
  });

  it('rotation refuses an overlap that is negative, fractional or longer than 30 days', async () => {
    const id = json(await post(t, apiKey, { url: PUBLIC })).id;
    const rotate = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/webhook_endpoints/${id}/secret/rotate`,
        headers: { authorization: apiKey },
        payload: payload as Record<string, unknown>,
      });
    expect(json(await rotate({ expire_previous_after_seconds: -1 })).detail).toMatchObject([
      { type: 'greater_than_equal', loc: ['body', 'expire_previous_after_seconds'] },
    ]);
    expect(json(await rotate({ expire_previous_after_seconds: 1.5 })).detail).toMatchObject([{ type: 'int_from_float' }]);
    expect(json(await rotate({ expire_previous_after_seconds: 30 * 86_400 + 1 })).detail).toMatchObject([{ type: 'less_than_equal' }]);
    const secrets = await t.db.selectFrom('webhook_endpoint_secrets').select('expires_at').where('endpoint_id', '=', id).execute();
    expect(secrets).toEqual([{ expires_at: null }]);
  });

  it('an over-long id is a 422, an unknown one a 404', async () => {
    const long = await t.app.inject({ url: `/v2/webhook_endpoints/we_${'x'.repeat(80)}`, headers: { authorization: apiKey } });
    expect(long.statusCode).toBe(422);
    expect(json(long).detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'id'] });
    expect((await t.app.inject({ url: '/v2/webhook_endpoints/we_unknown', headers: { authorization: apiKey } })).statusCode).toBe(404);
  });

  it('none of the refused requests wrote an endpoint or a secret', async () => {
    const ids = (await t.db.selectFrom('webhook_endpoints').select('url').execute()).map((r) => r.url);
    expect(ids.every((url) => url === PUBLIC)).toBe(true);
    const orphans = await t.db
      .selectFrom('webhook_endpoint_secrets')
      .leftJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_endpoint_secrets.endpoint_id')
      .select('webhook_endpoint_secrets.id')
      .where('webhook_endpoints.url', '!=', PUBLIC)
      .execute();
    expect(orphans).toEqual([]);
  });

  it('production refuses plain http (https is accepted)', async () => {
    const { apiKey: key } = await createPlatform(production.db);
    const [issue] = await issues({ url: 'http://93.184.216.34/hooks' }, production, key);
    expect(issue).toMatchObject({ type: 'value_error', loc: ['body', 'url'] });
    expect(issue!.msg).toContain('https in production');
    expect((await post(production, key, { url: PUBLIC })).statusCode).toBe(201);
    expect(await endpointCount(production)).toBe(1);
  });

  it('STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1 lets local receivers through (development and tests)', async () => {
    const { apiKey: key } = await createPlatform(permissive.db);
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost:3000/hook', 'http://[::1]/hook', 'http://10.0.0.8/hook']) {
      const res = await post(permissive, key, { url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
    // Still refused, whatever the destination: credentials.
    expect((await post(permissive, key, { url: 'http://u:p@127.0.0.1/' })).statusCode).toBe(422);
  });
});
