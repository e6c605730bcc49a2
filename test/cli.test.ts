import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { VALID_SIGNUP_V2 } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

// Each CLI run is a process of its own (plain node on the test build), several runs per test: generous on a busy machine.
describe('statehouse CLI (external database)', { timeout: 180_000 }, () => {
  let url: string;
  let db: Db;
  let app: Awaited<ReturnType<typeof buildApp>>;
  // The demo seals a login and stores a PDF: keep its vault key and files out of the working tree.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'statehouse-cli-'));
  const env = () => ({ DATABASE_URL: url, STATEHOUSE_DATA_DIR: dataDir });
  const signupWith = async (key: string) =>
    (await app.inject({ method: 'POST', url: '/v2/signup', headers: { authorization: key }, payload: VALID_SIGNUP_V2 })).statusCode;

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    db = createDb(url, 2);
    app = await buildApp({ config: loadConfig({}, { databaseUrl: url, dataDir }), db, logger: false });
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('platforms create prints the key once, on a line of its own, and the key works', async () => {
    const result = await runCli(['platforms', 'create', 'Acme Payroll'], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^sh_key_[A-Za-z0-9_-]{43}$/);
    expect(lines[0]).toMatch(/^Created platform Acme Payroll \(plt_[0-9a-z]+\)\.$/);
    expect(await signupWith(key)).toBe(200);
  });

  it('--json gives machine-readable output; keys can be listed, rotated and revoked', async () => {
    const created = JSON.parse((await runCli(['platforms', 'create', 'Json Co', '--json'], env())).stdout);
    expect(created).toMatchObject({
      platform_id: expect.stringMatching(/^plt_/),
      name: 'Json Co',
      api_key_id: expect.stringMatching(/^key_/),
      api_key: expect.stringMatching(/^sh_key_/),
    });

    const rotated = JSON.parse((await runCli(['platforms', 'keys', 'rotate', created.platform_id, '--json'], env())).stdout);
    expect(rotated.api_key).not.toBe(created.api_key);
    expect(await signupWith(created.api_key)).toBe(200);
    expect(await signupWith(rotated.api_key)).toBe(200);

    const revoked = await runCli(['platforms', 'keys', 'revoke', created.api_key_id], env());
    expect(revoked.code).toBe(0);
    expect(await signupWith(created.api_key)).toBe(403);
    expect(await signupWith(rotated.api_key)).toBe(200);

    const keys = JSON.parse((await runCli(['platforms', 'keys', 'list', created.platform_id, '--json'], env())).stdout);
    expect(keys).toHaveLength(2);
    expect(keys.find((k: { api_key_id: string }) => k.api_key_id === created.api_key_id).revoked_at).not.toBeNull();
    expect(JSON.stringify(keys)).not.toContain(rotated.api_key);

    const list = JSON.parse((await runCli(['platforms', 'list', '--json'], env())).stdout);
    expect(list.map((p: { name: string }) => p.name)).toContain('Json Co');
  });

  it('demo creates a platform, a key and legal entities, repeatably', async () => {
    const first = JSON.parse((await runCli(['demo', '--json'], env())).stdout);
    const second = JSON.parse((await runCli(['demo', '--json'], env())).stdout);
    expect(second.legalEntityId).toBe(first.legalEntityId);
    expect(await signupWith(second.apiKey)).toBe(200);
    expect(await signupWith(first.apiKey)).toBe(403); // older demo keys are revoked
    const auth = await app.inject({
      method: 'POST',
      url: '/accounts/auth',
      headers: { authorization: second.apiKey },
      payload: { legal_entity_id: first.legalEntityId },
    });
    expect(auth.json().state.signup_complete).toBe(true);
    const locations = await app.inject({ url: '/locations', headers: { authorization: `Bearer ${auth.json().access_token}` } });
    expect(locations.json().map((l: { location: { code: string } }) => l.location.code)).toEqual(['CA', 'NY']);
    // An agency account with a login, and one piece of mail whose link downloads a real PDF (seeded once).
    const bearerHeaders = { authorization: `Bearer ${auth.json().access_token}` };
    const accounts = (await app.inject({ url: '/v2/agency_accounts', headers: bearerHeaders })).json();
    expect(accounts).toEqual([
      expect.objectContaining({
        region: 'CA',
        agency: expect.objectContaining({ id: 'ca-edd' }),
        logins: [expect.objectContaining({ is_supported: true })],
      }),
    ]);
    const mail = (await app.inject({ url: '/v2/mail', headers: bearerHeaders })).json();
    expect(mail).toEqual([expect.objectContaining({ region: 'CA', type: 'registered-agent', sender: 'California Secretary of State' })]);
    const file = new URL(mail[0].file_url);
    const pdf = await app.inject({ url: `${file.pathname}${file.search}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.body).toContain('(Statement of Information reminder \\(DEMO\\))');
    expect(pdf.body).toMatch(/startxref\n\d+\n%%EOF\n$/);
  });

  it('platforms callbacks: allowed callback origins', async () => {
    const created = JSON.parse((await runCli(['platforms', 'create', 'Callback Co', '--json'], env())).stdout);
    const add = await runCli(['platforms', 'callbacks', 'add', created.platform_id, 'https://app.example.com/some/path', '--json'], env());
    expect(JSON.parse(add.stdout)).toEqual({ platform_id: created.platform_id, origin: 'https://app.example.com' });
    expect(JSON.parse((await runCli(['platforms', 'callbacks', 'list', created.platform_id, '--json'], env())).stdout)).toEqual([
      'https://app.example.com',
    ]);
    const session = (callback: string) =>
      app.inject({
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: { authorization: created.api_key },
        payload: { business_name: 'A', user_email: 'a@example.com', callback_url: callback },
      });
    expect((await session('https://elsewhere.example/x')).statusCode).toBe(422);
    expect((await session('https://app.example.com/done')).statusCode).toBe(200);
    expect((await runCli(['platforms', 'callbacks', 'add', created.platform_id, 'javascript:alert(1)'], env())).code).toBe(2);
    expect((await runCli(['platforms', 'callbacks', 'remove', created.platform_id, 'https://app.example.com'], env())).stdout).toContain(
      'Removed',
    );
    expect((await session('https://elsewhere.example/x')).statusCode).toBe(200);
  });

  it('migrate reports an up-to-date database', async () => {
    const result = await runCli(['migrate'], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('database is up to date');
  });

  it('explains bad configuration and bad usage', async () => {
    const config = await runCli(['platforms', 'list'], { ...env(), PORT: 'eighty', PUBLIC_BASE_URL: 'ftp://x' });
    expect(config.code).toBe(1);
    expect(config.stderr).toContain("PORT must be a whole number from 0 to 65535 (got 'eighty')");
    expect(config.stderr).toContain("PUBLIC_BASE_URL must be an absolute http(s) URL (got 'ftp://x')");
    const usage = await runCli(['frobnicate'], env());
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Unknown command 'frobnicate'");
    const missing = await runCli(['platforms', 'keys', 'revoke', 'key_nope'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("API key 'key_nope' not found");
  });
});
