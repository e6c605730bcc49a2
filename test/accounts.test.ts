import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, createPlatformWithEntity, createTestApp, json, TEST_VAULT_KEY, type TestApp } from './helpers/app.js';
import type { AccountsService } from '../src/modules/accounts/contract.js';
import { runCli } from './helpers/cli.js';

/** The CLI against the test database and the test vault key, with `stdin` piped in (the secrets). */
const runCliWithStdin = (args: string[], url: string, stdin: string) =>
  runCli(args, { DATABASE_URL: url, STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64') }, stdin);

const CA = '99be5e8f54c4680d';
const NY = '5894aa7b4729ed13';
const SECRETS = {
  username: 'payroll-admin@example.com',
  password: 'S3cret-Pa55word!',
  security_answers: [{ question: 'First pet', answer: 'Biscuit' }],
  totp_seed: 'JBSWY3DPEHPK3PXP',
};
const PLAINTEXT = ['payroll-admin@example.com', 'S3cret-Pa55word!', 'Biscuit', 'JBSWY3DPEHPK3PXP'];

describe('agency accounts and logins', () => {
  let t: TestApp;
  let accounts: AccountsService;
  let entityA: string;
  let entityB: string;
  let tokenA: string;
  let tokenB: string;
  let caAccount: string;
  let caLogin: string;
  let nyLogin: string;
  let looseLogin: string;
  const get = (url: string, token = tokenA) => t.app.inject({ url, headers: bearer(token) });

  beforeAll(async () => {
    t = await createTestApp();
    accounts = t.app.services.accounts;
    // Two platforms, one entity each.
    ({ entityId: entityA, token: tokenA } = await createPlatformWithEntity(t, 'Platform A'));
    ({ entityId: entityB, token: tokenB } = await createPlatformWithEntity(t, 'Platform B', { business_name: 'Other Co' }));

    caAccount = (
      await accounts.createAccount(entityA, {
        region_code: 'CA',
        agency_id: 'ca-edd',
        name: 'EDD employer account',
        data: [
          { name: 'Employer account number', description: 'EDD 8-digit number', value: '123-4567-8' },
          { name: 'UI rate', value: null },
        ],
      })
    ).id;
    const nyAccount = (await accounts.createAccount(entityA, { region_code: 'NY', agency_id: 'ny-dol', name: 'NY DOL account' })).id;
    caLogin = (
      await accounts.createLogin(entityA, {
        agency_account_id: caAccount,
        region_code: 'CA',
        name: 'EDD e-Services',
        login_url: 'https://eddservices.edd.ca.gov/',
        is_supported: true,
        secrets: SECRETS,
      })
    ).id;
    nyLogin = (
      await accounts.createLogin(entityA, {
        agency_account_id: nyAccount,
        region_code: 'NY',
        name: 'NY Business Online Services',
        login_url: 'https://www.ny.gov/services/business',
        secrets: SECRETS,
      })
    ).id;
    looseLogin = (
      await accounts.createLogin(entityA, {
        region_code: 'CA',
        name: 'CA SOS bizfile',
        login_url: 'https://bizfileonline.sos.ca.gov/',
        secrets: SECRETS,
      })
    ).id;
    // Entity B has its own CA account and login.
    const bAccount = (await accounts.createAccount(entityB, { region_code: 'CA', agency_id: 'ca-edd', name: 'B EDD account' })).id;
    await accounts.createLogin(entityB, {
      agency_account_id: bAccount,
      region_code: 'CA',
      name: 'B login',
      login_url: 'https://eddservices.edd.ca.gov/',
      secrets: { username: 'b', password: 'b-password' },
    });
  });
  afterAll(async () => t.close());

  it('GET /agency_accounts: the unversioned shape, with data and logins', async () => {
    const res = await get('/agency_accounts');
    expect(res.statusCode).toBe(200);
    const list = json(res);
    expect(list).toHaveLength(2);
    expect(list[0]).toEqual({
      location_id: CA,
      id: caAccount,
      name: 'EDD employer account',
      agency: { id: 'ca-edd', name: 'California Employment Development Department', website: 'https://edd.ca.gov' },
      data: [
        { name: 'Employer account number', description: 'EDD 8-digit number', value: '123-4567-8' },
        { name: 'UI rate', description: null, value: null },
      ],
      logins: [
        {
          id: caLogin,
          name: 'EDD e-Services',
          location_id: CA,
          region_code: 'CA',
          login_url: 'https://eddservices.edd.ca.gov/',
          url: `/logins/${caLogin}/sessions`,
          is_supported: true,
        },
      ],
    });
    expect(list[1]).toMatchObject({ location_id: NY, agency: { id: 'ny-dol' }, data: [], logins: [{ id: nyLogin, is_supported: false }] });
  });

  it('GET /locations/{id}/agency_accounts filters by location (id or code); unknown locations are a 404', async () => {
    expect(json(await get(`/locations/${CA}/agency_accounts`)).map((a: { id: string }) => a.id)).toEqual([caAccount]);
    expect(json(await get('/locations/ny/agency_accounts'))).toHaveLength(1);
    expect(json(await get('/locations/TX/agency_accounts'))).toEqual([]);
    const missing = await get('/locations/0000000000000000/agency_accounts');
    expect(missing.statusCode).toBe(404);
    expect(json(missing).detail).toMatch(/not found/);
  });

  it('GET /v2/agency_accounts: the v2 shape (region code, data status) and the region filter', async () => {
    const all = json(await get('/v2/agency_accounts'));
    expect(all).toHaveLength(2);
    expect(all[0]).toEqual({
      region: 'CA',
      id: caAccount,
      name: 'EDD employer account',
      agency: { id: 'ca-edd', name: 'California Employment Development Department', website: 'https://edd.ca.gov' },
      data: [
        { name: 'Employer account number', description: 'EDD 8-digit number', value: '123-4567-8', status: 'done' },
        { name: 'UI rate', description: null, value: null, status: 'todo' },
      ],
      logins: [
        {
          id: caLogin,
          name: 'EDD e-Services',
          region: 'CA',
          region_code: 'CA',
          login_url: 'https://eddservices.edd.ca.gov/',
          url: `/logins/${caLogin}/sessions`,
          is_supported: true,
        },
      ],
    });
    expect(json(await get('/v2/agency_accounts?region=NY')).map((a: { region: string }) => a.region)).toEqual(['NY']);
    expect(json(await get('/v2/agency_accounts?region=TX'))).toEqual([]);
    expect((await get('/v2/agency_accounts?region=XX')).statusCode).toBe(422);
    expect((await get(`/v2/agency_accounts?legal_entity_public_id=${entityB}`)).statusCode).toBe(404);
  });

  it('GET /logins, /locations/{id}/logins and /v2/logins', async () => {
    const all = json(await get('/logins'));
    expect(all.map((l: { id: string }) => l.id)).toEqual([caLogin, nyLogin, looseLogin]);
    expect(all[2]).toEqual({
      id: looseLogin,
      name: 'CA SOS bizfile',
      location_id: CA,
      region_code: 'CA',
      login_url: 'https://bizfileonline.sos.ca.gov/',
      url: `/logins/${looseLogin}/sessions`,
      is_supported: false,
    });
    expect(json(await get(`/locations/${NY}/logins`)).map((l: { id: string }) => l.id)).toEqual([nyLogin]);
    expect(json(await get('/locations/CA/logins')).map((l: { id: string }) => l.id)).toEqual([caLogin, looseLogin]);
    expect((await get('/locations/nowhere/logins')).statusCode).toBe(404);

    const v2 = json(await get('/v2/logins?region=CA'));
    expect(v2.map((l: { id: string }) => l.id)).toEqual([caLogin, looseLogin]);
    expect(v2[0]).toEqual({
      id: caLogin,
      name: 'EDD e-Services',
      region: 'CA',
      region_code: 'CA',
      login_url: 'https://eddservices.edd.ca.gov/',
      url: `/logins/${caLogin}/sessions`,
      is_supported: true,
    });
    expect(json(await get('/v2/logins'))).toHaveLength(3);
    expect((await get('/v2/logins?region=ZZ')).statusCode).toBe(422);
  });

  it("never shows another entity's accounts or logins", async () => {
    for (const url of ['/agency_accounts', '/v2/agency_accounts', '/v2/agency_accounts?region=CA', `/locations/${CA}/agency_accounts`]) {
      const list = json(await get(url, tokenB));
      expect(
        list.map((a: { name: string }) => a.name),
        url,
      ).toEqual(['B EDD account']);
    }
    for (const url of ['/logins', '/v2/logins', '/v2/logins?region=CA', `/locations/${CA}/logins`]) {
      const list = json(await get(url, tokenB));
      expect(
        list.map((l: { name: string }) => l.name),
        url,
      ).toEqual(['B login']);
    }
    expect(json(await get(`/locations/${NY}/logins`, tokenB))).toEqual([]);
    const bodyA = (await get('/agency_accounts')).body + (await get('/logins')).body;
    expect(bodyA).not.toContain('B EDD account');
    expect(bodyA).not.toContain('B login');
  });

  it('every endpoint needs a bearer token', async () => {
    for (const url of [
      '/agency_accounts',
      `/locations/${CA}/agency_accounts`,
      '/v2/agency_accounts',
      '/logins',
      `/locations/${CA}/logins`,
      '/v2/logins',
    ]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(401);
    }
  });

  it('stores the secrets encrypted: no plaintext in the row, none in any response; the vault opens them', async () => {
    const row = await sql<Record<string, unknown>>`select * from account_logins where id = ${caLogin}`.execute(t.db);
    const dump = JSON.stringify(row.rows[0], (_k, v: unknown) =>
      v && typeof v === 'object' && 'type' in v && (v as { type: string }).type === 'Buffer'
        ? Buffer.from((v as unknown as { data: number[] }).data).toString('latin1')
        : v,
    );
    const asText = await sql<{ t: string }>`select account_logins::text as t from account_logins where id = ${caLogin}`.execute(t.db);
    for (const plain of PLAINTEXT) {
      expect(dump).not.toContain(plain);
      expect(asText.rows[0]!.t).not.toContain(plain);
      expect(asText.rows[0]!.t).not.toContain(Buffer.from(plain).toString('hex'));
    }
    expect(row.rows[0]).toMatchObject({ key_id: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect((row.rows[0]!.secret_iv as Buffer).length).toBe(12);

    const bodies = await Promise.all(
      ['/agency_accounts', '/v2/agency_accounts', '/logins', '/v2/logins', `/locations/${CA}/logins`].map(async (u) => (await get(u)).body),
    );
    for (const body of bodies) for (const plain of PLAINTEXT) expect(body).not.toContain(plain);
    for (const body of bodies) expect(body).not.toMatch(/secret|password|username|key_id/);

    expect(await accounts.openLoginSecrets(entityA, caLogin)).toEqual(SECRETS);
    await expect(accounts.openLoginSecrets(entityB, caLogin)).rejects.toMatchObject({ status: 404 });
  });

  it('createAccount and createLogin check the entity, region, agency, account and secrets', async () => {
    await expect(accounts.createAccount('le_missing', { region_code: 'CA', agency_id: 'ca-edd', name: 'x' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(accounts.createAccount(entityA, { region_code: 'CA', agency_id: 'ny-dol', name: 'x' })).rejects.toThrow(
      /Unknown agency 'ny-dol' for CA/,
    );
    await expect(accounts.createAccount(entityA, { region_code: 'ZZ', agency_id: 'ca-edd', name: 'x' })).rejects.toThrow(/Unknown region/);
    const base = { region_code: 'CA', name: 'x', login_url: 'https://example.gov/', secrets: { username: 'u', password: 'p' } };
    // Another entity's account cannot be linked.
    const bAccount = json(await get('/agency_accounts', tokenB))[0].id;
    await expect(accounts.createLogin(entityA, { ...base, agency_account_id: bAccount })).rejects.toMatchObject({
      path: ['agency_account_id'],
    });
    await expect(accounts.createLogin(entityA, { ...base, region_code: 'NY', agency_account_id: caAccount })).rejects.toThrow(
      /is in CA, not NY/,
    );
    await expect(accounts.createLogin(entityA, { ...base, login_url: 'javascript:alert(1)' })).rejects.toThrow(/login_url/);
    await expect(accounts.createLogin(entityA, { ...base, secrets: { username: 'u' } as never })).rejects.toThrow(/secrets.password/);
    await expect(
      accounts.createLogin(entityA, { ...base, secrets: { username: 'u', password: 'very-secret-value', pin: '1234' } as never }),
    ).rejects.toThrow(/unknown fields: pin/);
    await expect(accounts.createLogin(entityA, { ...base, secrets: { username: 'u', password: 7 } as never })).rejects.not.toThrow(/7/);
  });

  it('CLI: accounts create and logins create (secrets from stdin, stored encrypted)', async () => {
    const created = await runCliWithStdin(
      [
        'accounts',
        'create',
        entityB,
        '--region',
        'NY',
        '--agency',
        'ny-dtf',
        '--name',
        'NY withholding',
        '--data',
        'Withholding ID=12-345',
        '--data',
        'Filing frequency=quarterly',
        '--json',
      ],
      t.url,
      '',
    );
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout);
    expect(account).toMatchObject({ agency_account_id: expect.stringMatching(/^acct_/), region: 'NY', agency_id: 'ny-dtf' });

    const login = await runCliWithStdin(
      [
        'logins',
        'create',
        entityB,
        '--region',
        'NY',
        '--name',
        'NY OLS',
        '--url',
        'https://www.tax.ny.gov/online/',
        '--account',
        account.agency_account_id,
        '--json',
      ],
      t.url,
      JSON.stringify({ username: 'cli-user', password: 'cli-Pa55word' }),
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout + login.stderr).not.toContain('cli-Pa55word');
    const loginId = JSON.parse(login.stdout).login_id;
    expect(await accounts.openLoginSecrets(entityB, loginId)).toEqual({ username: 'cli-user', password: 'cli-Pa55word' });

    const v2 = json(await get('/v2/agency_accounts?region=NY', tokenB));
    expect(v2).toEqual([
      expect.objectContaining({
        name: 'NY withholding',
        data: [
          { name: 'Withholding ID', description: null, value: '12-345', status: 'done' },
          { name: 'Filing frequency', description: null, value: 'quarterly', status: 'done' },
        ],
        logins: [expect.objectContaining({ id: loginId, name: 'NY OLS', region: 'NY' })],
      }),
    ]);

    const bad = await runCliWithStdin(
      ['logins', 'create', entityB, '--region', 'NY', '--name', 'x', '--url', 'https://x.gov/'],
      t.url,
      'password=oops',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/not valid JSON/);
    expect(bad.stderr).not.toContain('oops');
  });

  it('the OpenAPI document lists the six operations', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    for (const path of [
      '/agency_accounts',
      '/locations/{region_platform_public_id}/agency_accounts',
      '/v2/agency_accounts',
      '/logins',
      '/locations/{location_public_id}/logins',
      '/v2/logins',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
  });
});
