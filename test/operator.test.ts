import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { openLink } from './helpers/hosted.js';
import { tinyPdf } from './helpers/pdf.js';

const SECRETS = { username: 'op-user-4410', password: 'Tr0ub4dor&3-operator', totp_seed: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' };

describe('operator API (/operator/v1)', () => {
  let t: TestApp;
  let operatorKey: string;
  let apiKey: string;
  let platformId: string;
  let entityId: string;
  let otherEntityId: string;
  let token: string;
  const lines: string[] = [];
  const op = (key = operatorKey) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    t = await createTestApp(
      { logLevel: 'debug', dataDir: mkdtempSync(path.join(tmpdir(), 'statehouse-op-')) },
      { write: (line) => void lines.push(line) },
    );
    operatorKey = (await createOperatorsService(t.db).createKey('ops team')).key;
    ({ apiKey, platformId, entityId, token } = await createPlatformWithEntity(t));
    otherEntityId = await signupEntity(t.app, apiKey);
  });
  afterAll(async () => t.close());

  it('refuses every credential but a live operator key', async () => {
    const url = `/operator/v1/legal_entities/${entityId}/agency_accounts`;
    const revoked = await createOperatorsService(t.db).createKey('temp');
    await createOperatorsService(t.db).revokeKey(revoked.id);
    for (const authorization of [
      undefined,
      apiKey,
      `Bearer ${apiKey}`,
      `Bearer ${token}`,
      'Bearer sh_op_not-a-real-key',
      `Bearer ${revoked.key}`,
    ]) {
      const res = await t.app.inject({ url, headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(json(res)).toEqual({ detail: 'Missing or invalid operator key' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    // And an operator key is not a platform credential either.
    const signup = await t.app.inject({ method: 'POST', url: '/accounts/auth', headers: op(), payload: { legal_entity_id: entityId } });
    expect(signup.statusCode).toBe(401);
  });

  it('records an agency account that the platform then sees', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/agency_accounts`,
      headers: op(),
      payload: {
        region: 'CA',
        agency_id: 'ca-edd',
        name: 'Employer payroll tax account',
        data: [{ name: 'Account number', value: '123-4567-8' }, { name: 'UI rate' }],
      },
    });
    expect(res.statusCode).toBe(201);
    const account = json(res);
    expect(account).toMatchObject({
      legal_entity_id: entityId,
      region: 'CA',
      name: 'Employer payroll tax account',
      agency: { id: 'ca-edd' },
      data: [
        { name: 'Account number', value: '123-4567-8', status: 'done', description: null },
        { name: 'UI rate', value: null, status: 'todo' },
      ],
      logins: [],
    });
    expect(account.id).toMatch(/^acct_/);
    const listed = json(await t.app.inject({ url: '/v2/agency_accounts', headers: bearer(token) }));
    expect(listed.map((a: { id: string }) => a.id)).toEqual([account.id]);
    const operatorList = json(await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/agency_accounts`, headers: op() }));
    expect(operatorList.map((a: { id: string }) => a.id)).toEqual([account.id]);
  });

  it('rejects bad accounts with a 422 or 404 and writes nothing', async () => {
    const post = (id: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/operator/v1/legal_entities/${id}/agency_accounts`, headers: op(), payload: payload as object });
    const unknownAgency = await post(entityId, { region: 'CA', agency_id: 'tx-twc', name: 'x' });
    expect(unknownAgency.statusCode).toBe(422);
    expect(json(unknownAgency).detail[0]).toMatchObject({ loc: ['body', 'agency_id'], type: 'value_error' });
    expect(json(unknownAgency).detail[0].msg).toContain('ca-edd');
    const badRegion = await post(entityId, { region: 'XX', agency_id: 'ca-edd', name: 'x' });
    expect(json(badRegion).detail[0]).toMatchObject({ loc: ['body', 'region'], type: 'enum' });
    const missing = await post(entityId, { region: 'CA', agency_id: 'ca-edd' });
    expect(json(missing).detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'missing' });
    const badStatus = await post(entityId, { region: 'CA', agency_id: 'ca-edd', name: 'x', data: [{ name: 'a', status: 'finished' }] });
    expect(json(badStatus).detail[0].loc).toEqual(['body', 'data', 0, 'status']);
    expect((await post('le_nope', { region: 'CA', agency_id: 'ca-edd', name: 'x' })).statusCode).toBe(404);
    const rows = await t.db.selectFrom('agency_accounts').select('id').execute();
    expect(rows).toHaveLength(1);
  });

  it('records a login whose secrets go into the vault and never come back', async () => {
    const [account] = json(await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/agency_accounts`, headers: op() }));
    const res = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/logins`,
      headers: op(),
      payload: {
        region: 'CA',
        name: 'EDD e-Services',
        login_url: 'https://eddservices.edd.ca.gov/',
        agency_account_id: account.id,
        is_supported: true,
        secrets: SECRETS,
      },
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({ name: 'EDD e-Services', region: 'CA', agency_account_id: account.id, is_supported: true });
    expect(res.body).not.toContain(SECRETS.username);
    expect(res.body).not.toContain(SECRETS.password);
    const row = await t.db.selectFrom('account_logins').selectAll().where('id', '=', json(res).id).executeTakeFirstOrThrow();
    const raw = JSON.stringify(row) + row.secret_ciphertext.toString('latin1');
    expect(raw).not.toContain(SECRETS.password);
    expect(raw).not.toContain(SECRETS.username);
    expect(await t.app.services.accounts.openLoginSecrets(entityId, json(res).id)).toEqual(SECRETS);
    const platformView = json(await t.app.inject({ url: '/v2/logins', headers: bearer(token) }));
    expect(platformView.map((l: { id: string }) => l.id)).toEqual([json(res).id]);
    expect(lines.join('\n')).not.toContain(SECRETS.password);
  });

  it('never echoes a secret in a 422', async () => {
    const post = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/operator/v1/legal_entities/${entityId}/logins`, headers: op(), payload: payload as object });
    const longPassword = `${'p'.repeat(1001)}-hunter2`;
    const tooLong = await post({
      region: 'CA',
      name: 'x',
      login_url: 'https://a.example/',
      secrets: { username: 'visible-user-name', password: longPassword },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(json(tooLong).detail[0]).toMatchObject({ loc: ['body', 'secrets', 'password'], type: 'string_too_long', input: '[redacted]' });
    expect(tooLong.body).not.toContain('hunter2');
    // pydantic puts the parent object in a `missing` error's input: that would carry the username.
    const missing = await post({ region: 'CA', name: 'x', login_url: 'https://a.example/', secrets: { username: 'visible-user-name' } });
    expect(json(missing).detail[0]).toMatchObject({ loc: ['body', 'secrets', 'password'], type: 'missing', input: '[redacted]' });
    expect(missing.body).not.toContain('visible-user-name');
    const notObject = await post({ region: 'CA', name: 'x', login_url: 'https://a.example/', secrets: 'user:hunter2' });
    expect(notObject.body).not.toContain('hunter2');
    // Other fields still echo their input, as everywhere else.
    const badUrl = await post({ region: 'CA', name: 'x', login_url: 'ftp://a.example/', secrets: SECRETS });
    expect(json(badUrl).detail[0]).toMatchObject({ loc: ['body', 'login_url'], input: 'ftp://a.example/' });
    expect(badUrl.body).not.toContain(SECRETS.password);
  });

  it('refuses a login for another entity’s account or another state', async () => {
    const [account] = json(await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/agency_accounts`, headers: op() }));
    const post = (id: string, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/operator/v1/legal_entities/${id}/logins`,
        headers: op(),
        payload: { name: 'x', login_url: 'https://a.example/', secrets: SECRETS, ...payload },
      });
    const crossEntity = await post(otherEntityId, { region: 'CA', agency_account_id: account.id });
    expect(crossEntity.statusCode).toBe(422);
    expect(json(crossEntity).detail[0].loc).toEqual(['body', 'agency_account_id']);
    const wrongState = await post(entityId, { region: 'NY', agency_account_id: account.id });
    expect(json(wrongState).detail[0]).toMatchObject({ loc: ['body', 'region'] });
    expect(wrongState.body).not.toContain(SECRETS.password);
    expect(await t.db.selectFrom('account_logins').select('id').where('legal_entity_id', '=', otherEntityId).execute()).toEqual([]);
  });

  it('lists the credential-view audit trail', async () => {
    const [login] = json(await t.app.inject({ url: '/v2/logins', headers: bearer(token) }));
    const session = json(
      await t.app.inject({ method: 'POST', url: `/v2/logins/${login.id}/session`, headers: bearer(token), payload: {} }),
    );
    const { browser } = await openLink(t.app, session.url);
    expect((await browser!.get(`/hosted/logins/${login.id}`)).statusCode).toBe(200);
    const reveals = await t.app.inject({ url: `/operator/v1/login_reveals?legal_entity_id=${entityId}`, headers: op() });
    expect(reveals.statusCode).toBe(200);
    expect(json(reveals)).toEqual([
      expect.objectContaining({ login_id: login.id, legal_entity_id: entityId, platform_id: platformId, login_name: 'EDD e-Services' }),
    ]);
    expect(json(await t.app.inject({ url: `/operator/v1/login_reveals?legal_entity_id=${otherEntityId}`, headers: op() }))).toEqual([]);
    expect(json(await t.app.inject({ url: `/operator/v1/login_reveals?platform_id=${platformId}`, headers: op() }))).toHaveLength(1);
  });

  it('lists an entity’s connections with their transition log', async () => {
    const [account] = json(await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/agency_accounts`, headers: op() }));
    const connect = await t.app.inject({
      method: 'POST',
      url: '/accounts/connect',
      headers: bearer(token),
      payload: { legal_entity_id: entityId, agency_account_id: account.id },
    });
    const connectionId = json(connect).connection.id;
    expect(
      (await t.app.inject({ method: 'POST', url: `/accounts/connections/${connectionId}/cancel`, headers: bearer(token) })).statusCode,
    ).toBe(200);
    const res = await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/connections`, headers: op() });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual([
      {
        id: connectionId,
        platform_id: platformId,
        agency_account_id: account.id,
        status: 'canceled',
        status_reason: expect.any(String),
        created_at: expect.any(String),
        status_changed_at: expect.any(String),
        events: [
          { from_status: null, to_status: 'pending', reason: null, occurred_at: expect.any(String) },
          { from_status: 'pending', to_status: 'canceled', reason: expect.any(String), occurred_at: expect.any(String) },
        ],
      },
    ]);
    expect(json(await t.app.inject({ url: `/operator/v1/legal_entities/${otherEntityId}/connections`, headers: op() }))).toEqual([]);
    expect((await t.app.inject({ url: '/operator/v1/legal_entities/le_nope/connections', headers: op() })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/operator/v1/legal_entities/${entityId}/connections`, headers: bearer(token) })).statusCode).toBe(
      401,
    );
  });

  it('keeps signed file links out of the log', async () => {
    const pdf = tinyPdf('log test');
    const upload = await t.app.inject({
      method: 'POST',
      url: `/operator/v1/legal_entities/${entityId}/mail?region=CA&sender=EDD`,
      headers: { ...op(), 'content-type': 'application/pdf' },
      payload: pdf,
    });
    expect(upload.statusCode).toBe(201);
    const [item] = json(await t.app.inject({ url: '/v2/mail', headers: bearer(token) }));
    const link = new URL(item.file_url);
    const signature = link.searchParams.get('signature')!;
    const download = await t.app.inject({ url: `${link.pathname}${link.search}` });
    expect(download.statusCode).toBe(200);
    const log = lines.join('\n');
    expect(log).toContain(`${link.pathname}?expires=${link.searchParams.get('expires')}&signature=[redacted]`);
    expect(log).not.toContain(signature);
  });

  it('documents the operator operations in the OpenAPI document', async () => {
    const doc = json(await t.app.inject({ url: '/openapi.json' }));
    expect(doc.components.securitySchemes.operatorKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/operator/v1/legal_entities/{legal_entity_id}/logins'].post.security).toEqual([{ operatorKey: [] }]);
  });

  it('CLI: operators keys create/list/revoke', async () => {
    const created = await runCli(['operators', 'keys', 'create', 'night shift'], { DATABASE_URL: t.url });
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sh_op_/);
    const url = `/operator/v1/legal_entities/${entityId}/agency_accounts`;
    expect((await t.app.inject({ url, headers: op(key) })).statusCode).toBe(200);
    const listed = JSON.parse((await runCli(['operators', 'keys', 'list', '--json'], { DATABASE_URL: t.url })).stdout);
    const entry = listed.find((k: { name: string }) => k.name === 'night shift');
    expect(entry.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await runCli(['operators', 'keys', 'revoke', entry.id], { DATABASE_URL: t.url })).code).toBe(0);
    expect((await t.app.inject({ url, headers: op(key) })).statusCode).toBe(401);
    const unknown = await runCli(['operators', 'keys', 'revoke', 'opk_nope'], { DATABASE_URL: t.url });
    expect(unknown.code).not.toBe(0);
  });
});
