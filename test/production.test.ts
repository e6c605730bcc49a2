import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VAULT_KEY, VALID_SIGNUP_V2, bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { runCli, startServe, type ServeProcess } from './helpers/cli.js';
import { openLink } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';
const REGISTER = /statehouse platforms callbacks add plt_\w+ https:\/\/platform\.example/;

describe('production mode: statehouse serve refuses unsafe setups', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'statehouse-production-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // No database is needed: the refusal comes before anything is opened.
  const base = {
    STATEHOUSE_DATA_DIR: dataDir,
    STATEHOUSE_VAULT_KEY: undefined,
    PUBLIC_BASE_URL: undefined,
    NODE_ENV: undefined,
    STATEHOUSE_ENV: undefined,
  };

  it('names every problem at once: no vault key from the environment, no https, --demo', async () => {
    const result = await runCli(['serve', '--demo'], { ...base, STATEHOUSE_ENV: 'production' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toContain('production: STATEHOUSE_VAULT_KEY is not set');
    expect(result.stderr).toContain("production: PUBLIC_BASE_URL is not https (got 'http://127.0.0.1:8080')");
    expect(result.stderr).toContain('production: --demo');
    expect(result.stderr).not.toContain('listening');
    expect(result.stderr).not.toContain('DEVELOPMENT');
  }, 120_000);

  it('NODE_ENV=production is production too; each problem alone is refused', async () => {
    const key = TEST_VAULT_KEY.toString('base64');
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://sh.example.com' }, [], /STATEHOUSE_VAULT_KEY is not set/],
      [{ NODE_ENV: 'production', STATEHOUSE_VAULT_KEY: key }, [], /PUBLIC_BASE_URL is not https/],
      [{ STATEHOUSE_ENV: 'production', STATEHOUSE_VAULT_KEY: key, PUBLIC_BASE_URL: 'https://sh.example.com' }, ['--demo'], /--demo/],
    ];
    for (const [env, args, problem] of cases) {
      const result = await runCli(['serve', ...args], { ...base, ...env });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(problem);
      expect(result.stderr.match(/^ {2}- /gm)).toHaveLength(1);
    }
  }, 120_000);

  it('STATEHOUSE_ENV wins over NODE_ENV, and a bad value is a configuration error', async () => {
    const result = await runCli(['serve', '--demo'], { ...base, NODE_ENV: 'development', STATEHOUSE_ENV: 'production' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('production: --demo');
    const bad = await runCli(['serve'], { ...base, STATEHOUSE_ENV: 'prod' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("STATEHOUSE_ENV must be development or production (got 'prod')");
  }, 120_000);
});

describe('production and development starts', () => {
  let t: TestApp;
  let serve: ServeProcess | null = null;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    await t.close();
  });
  const stop = async () => {
    serve!.child.kill('SIGTERM');
    await serve!.exited;
    serve = null;
  };

  it('development says loudly, once, that it is not production and what production would refuse', async () => {
    serve = await startServe({
      DATABASE_URL: t.url,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      STATEHOUSE_ENV: 'development',
      PUBLIC_BASE_URL: undefined,
    });
    const output = serve.output();
    expect(output.match(/DEVELOPMENT mode/g)).toHaveLength(1);
    expect(output).toContain('With STATEHOUSE_ENV=production (or NODE_ENV=production) it would refuse:');
    expect(output).toContain('PUBLIC_BASE_URL is not https');
    expect(output).toContain('callback URLs of platforms with no registered callback origin');
    expect(output).not.toContain('STATEHOUSE_VAULT_KEY is not set'); // it is set here
    await stop();
  }, 120_000);

  it('production starts with a vault key, an https base URL and no demo, without the warning', async () => {
    serve = await startServe({
      DATABASE_URL: t.url,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      STATEHOUSE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://sh.example.com',
    });
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.output()).not.toContain('DEVELOPMENT');
    await stop();
  }, 120_000);
});

describe('production mode over HTTP', () => {
  let t: TestApp;
  let apiKey: string;
  let platformId: string;
  let token: string;
  let entityId: string;

  beforeAll(async () => {
    t = await createTestApp({ environment: 'production' });
    // No callback URL: nothing to check, so signup works (the helper requires its 200) without registered origins.
    ({ apiKey, platformId, entityId, token } = await createPlatformWithEntity(t, undefined, {
      user_email: 'a@example.com',
      business_name: 'Harbor Labs',
      entity_type: 'c_corp',
      tax_class: 'corp',
      incorporation_region: 'DE',
      incorporated_date: '2020-03-10',
    }));
    await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
  });
  afterAll(async () => t.close());

  it('every operation taking a callback URL refuses it with a 422 naming the command, until an origin is registered', async () => {
    const tasks = json<{ id: string; definition: { id: string } }[]>(await t.app.inject({ url: '/tasks', headers: bearer(token) }));
    const automatable = tasks.find((x) => x.definition.id === 'ca-edd-employer-registration')!;
    const loginId = (
      await t.app.services.accounts.createLogin(entityId, {
        region_code: 'CA',
        name: 'EDD',
        login_url: 'https://edd.ca.gov/',
        secrets: { username: 'u', password: 'p' },
      })
    ).id;
    const key = { authorization: apiKey };
    const operations: { url: string; headers: Record<string, string>; payload: Record<string, unknown>; field: string }[] = [
      {
        url: '/v2/signup',
        headers: key,
        payload: { ...VALID_SIGNUP_V2, authorization_callback_url: CALLBACK },
        field: 'authorization_callback_url',
      },
      {
        url: '/accounts/signup/sessions',
        headers: key,
        payload: { business_name: 'C', user_email: 'c@example.com', callback_url: CALLBACK },
        field: 'callback_url',
      },
      {
        url: '/v2/signup/sessions',
        headers: key,
        payload: { business_name: 'D', user_email: 'd@example.com', callback_url: CALLBACK },
        field: 'callback_url',
      },
      {
        url: '/v2/auth/payroll',
        headers: key,
        payload: { legal_entity_id: entityId, authorization_callback_url: CALLBACK },
        field: 'authorization_callback_url',
      },
      { url: '/tasks/sessions', headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
      {
        url: '/v2/tasks/manage/session',
        headers: bearer(token),
        payload: { callback_url: CALLBACK, task_type: 'requirement' },
        field: 'callback_url',
      },
      { url: `/v2/tasks/${tasks[0]!.id}/session`, headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
      {
        url: `/tasks/${automatable.id}/automate/sessions`,
        headers: bearer(token),
        payload: { callback_url: CALLBACK },
        field: 'callback_url',
      },
      { url: `/logins/${loginId}/sessions`, headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
      { url: `/v2/logins/${loginId}/session`, headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
      { url: '/v2/accounts/manage/session', headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
      { url: '/v2/documents/manage/session', headers: bearer(token), payload: { callback_url: CALLBACK }, field: 'callback_url' },
    ];
    for (const op of operations) {
      const res = await t.app.inject({ method: 'POST', url: op.url, headers: op.headers, payload: op.payload });
      expect(res.statusCode, `${op.url}: ${res.body}`).toBe(422);
      expect(res.body, op.url).toMatch(REGISTER);
      expect(res.body, op.url).toContain(platformId);
    }
    const first = json(
      await t.app.inject({ method: 'POST', url: '/tasks/sessions', headers: bearer(token), payload: { callback_url: CALLBACK } }),
    );
    expect(first.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['body', 'callback_url'], input: CALLBACK })]);
    expect(first.detail[0].msg).toMatch(/no registered callback origins/);

    const added = await runCli(['platforms', 'callbacks', 'add', platformId, 'https://platform.example'], { DATABASE_URL: t.url });
    expect(added.code, added.stderr).toBe(0);
    for (const op of operations) {
      const res = await t.app.inject({ method: 'POST', url: op.url, headers: op.headers, payload: op.payload });
      expect(res.statusCode, `${op.url}: ${res.body}`).toBe(200);
    }
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(token),
      payload: { callback_url: 'https://evil.example/x' },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.body).toContain('https://evil.example is not among');
  }, 120_000);

  it('marks the hosted session cookie Secure, even behind a plain-http base URL', async () => {
    expect(t.config.publicBaseUrl.startsWith('http://')).toBe(true);
    await t.db
      .insertInto('platform_callback_origins')
      .values({ platform_id: platformId, origin: 'https://platform.example' })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const link = json(
      await t.app.inject({ method: 'POST', url: '/tasks/sessions', headers: bearer(token), payload: { callback_url: CALLBACK } }),
    );
    const { response } = await openLink(t.app, link.url);
    expect(String(response.headers['set-cookie'])).toMatch(/; Secure/);

    const dev = await createTestApp();
    try {
      const { token: devToken } = await createPlatformWithEntity(dev);
      // Development: no origins registered, any https callback is accepted; the cookie is not Secure over http.
      const devLink = await dev.app.inject({
        method: 'POST',
        url: '/tasks/sessions',
        headers: bearer(devToken),
        payload: { callback_url: 'https://anywhere.example/x' },
      });
      expect(devLink.statusCode).toBe(200);
      const opened = await openLink(dev.app, json(devLink).url);
      expect(String(opened.response.headers['set-cookie'])).not.toMatch(/Secure/);
    } finally {
      await dev.close();
    }
  }, 120_000);
});
