/**
 * The hosted connect page (validation, credentials into the vault, progress, rejection, cancel), that no
 * password is ever written in plain text, and connections run on the durable job queue.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVANCE_JOB, maskUserName } from '../src/modules/connections/connections.service.js';
import {
  AUTH_REJECTED_REASON,
  REGISTER_REJECTED_REASON,
  sandboxIdNumber,
  sandboxTaxRate,
} from '../src/modules/agencies/sandbox/sandbox-accounts.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { openLink, type HostedBrowser } from './helpers/hosted.js';
import { waitUntil } from './helpers/wait.js';
import {
  PASSWORD,
  USERNAME,
  TOTP_SEED,
  expectConsistentLog,
  startConnectionsFixture,
  type ConnectionsFixture,
} from './helpers/connections.js';

describe('connections: the connect page', () => {
  let fixture: ConnectionsFixture;
  let t: ConnectionsFixture['t'];
  let entityId: ConnectionsFixture['entityId'];
  let token: ConnectionsFixture['token'];
  let sent: ConnectionsFixture['sent'];
  let logLines: ConnectionsFixture['logLines'];
  let newAccount: ConnectionsFixture['newAccount'];
  let connect: ConnectionsFixture['connect'];
  let getConnection: ConnectionsFixture['getConnection'];
  let cancel: ConnectionsFixture['cancel'];
  let advance: ConnectionsFixture['advance'];
  let connectionIn: ConnectionsFixture['connectionIn'];

  beforeAll(async () => {
    fixture = await startConnectionsFixture();
    ({ t, entityId, token, sent, logLines, newAccount, connect, getConnection, cancel, advance, connectionIn } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('the hosted connect page: validation, credentials into the vault, progress, connected', async () => {
    sent.length = 0;
    const accountId = await newAccount(entityId, 'Payroll tax account');
    const { connect_url, connection } = json(await connect(accountId));
    const { response, browser } = await openLink(t.app, connect_url);
    expect(response.headers.location).toBe(`/hosted/connections/${connection.id}`);
    const b = browser as HostedBrowser;
    const path = `/hosted/connections/${connection.id}`;

    const form = await b.get(path);
    expect(form.statusCode).toBe(200);
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.body).toContain('Connect your California Employment Development Department account');
    expect(form.body).toContain('Payroll tax account');
    expect(form.body).toContain('type="password"');
    expect(form.body).not.toContain('http-equiv="refresh"');

    const invalid = await b.post(path, { username: '', password: PASSWORD, totp_seed: 'not base32!' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('class="error-summary"');
    expect(invalid.body).toContain('Username: Enter the username');
    expect(invalid.body).toContain('href="#f-totp_seed"');
    expect(invalid.body).not.toContain(PASSWORD);
    expect(invalid.body).not.toContain('not base32!');
    const noPassword = await b.post(path, { username: USERNAME, password: '' });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.body).toContain(`value="${USERNAME}"`);
    expect(noPassword.body).toContain('aria-invalid="true"');
    expect(json(await getConnection(connection.id)).status).toBe('pending');

    const posted = await b.post(path, { username: USERNAME, password: PASSWORD, totp_seed: TOTP_SEED });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    const row = await t.db.selectFrom('account_connections').selectAll().where('id', '=', connection.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('authenticating');
    expect(row.login_id).not.toBeNull();
    expect(await t.app.services.accounts.openLoginSecrets(entityId, row.login_id!)).toEqual({
      username: USERNAME,
      password: PASSWORD,
      totp_seed: TOTP_SEED,
    });
    expect(sent).toEqual([
      {
        name: ADVANCE_JOB,
        data: { connection_id: connection.id, not_before: expect.any(String) },
        options: { startAfterSeconds: 0, transaction: expect.anything() },
      },
    ]);

    const progress = await b.get(path);
    expect(progress.body).not.toContain('http-equiv="refresh"');
    expect(progress.body).toContain('>Check status</a>');
    expect(progress.body).toContain('aria-current="step"');
    expect(progress.body).not.toContain('name="password"');
    // A second post while in progress changes nothing.
    expect((await b.post(path, { username: 'x', password: 'y' })).statusCode).toBe(303);
    expect(
      (await t.db.selectFrom('account_connections').select('status').where('id', '=', connection.id).executeTakeFirstOrThrow()).status,
    ).toBe('authenticating');

    expect(await advance(connection.id)).toBe('authenticating → registering');
    expect(sent).toHaveLength(2);
    expect(await advance(connection.id)).toBe('registering → connected');
    expect(await advance(connection.id)).toBe('nothing to do (connected)');

    const done = await b.get(path);
    expect(done.body).toContain('<h1>Connected</h1>');
    expect(done.body).toContain(sandboxIdNumber(accountId));
    expect(done.body).not.toContain('http-equiv="refresh"');

    const api = json(await getConnection(connection.id));
    expect(api).toMatchObject({
      id: connection.id,
      status: 'connected',
      status_reason: null,
      account: {
        id: accountId,
        agency_account: { id: accountId, agency_id: 'ca-edd', region: 'CA', name: 'Payroll tax account' },
        status: 'active',
        id_number: sandboxIdNumber(accountId),
        has_tpa: false,
        tax_rate_percent: sandboxTaxRate(accountId),
        reporting_schedule: 'quarterly',
        balance: 0,
        notices: [],
        account_login: { login_url: expect.stringMatching(/^https?:\/\//), user_name: maskUserName(USERNAME), two_factor_enabled: true },
      },
    });
    expect(api.account.history).toHaveLength(4);
    expect(api.account.history[3]).toEqual({
      period_start_date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
      period_end_date: expect.any(String),
      payment_date: expect.any(String),
      filing_date: expect.any(String),
      payment_amount: expect.any(Number),
      amount_due: expect.any(Number),
      amount_applied: expect.any(Number),
      raw_data: { source: 'sandbox', quarter: expect.stringMatching(/^\d{4}-Q[1-4]$/) },
    });
    expect(JSON.stringify(api)).not.toContain(PASSWORD);
    expect(JSON.stringify(api)).not.toContain(USERNAME);
    const { events } = await expectConsistentLog(t.db, connection.id);
    expect(events.map((e) => e.to_status)).toEqual(['pending', 'authenticating', 'registering', 'connected']);

    const accounts = json(await t.app.inject({ url: '/v2/agency_accounts?region=CA', headers: bearer(token) }));
    const data = accounts.find((a: { id: string }) => a.id === accountId).data;
    expect(data).toContainEqual({
      name: 'Account number',
      description: expect.any(String),
      value: sandboxIdNumber(accountId),
      status: 'done',
    });
    // The login the connector used is now marked as usable for automation.
    const [login] = json(await t.app.inject({ url: '/v2/logins?region=CA', headers: bearer(token) })).filter(
      (l: { id: string }) => l.id === row.login_id,
    );
    expect(login.is_supported).toBe(true);

    // The session opens only its own connection.
    const other = await connectionIn('pending');
    expect((await b.get(`/hosted/connections/${other.id}`)).statusCode).toBe(404);
    expect((await b.post(`/hosted/connections/${other.id}`, { username: USERNAME, password: PASSWORD })).statusCode).toBe(404);
    expect(json(await getConnection(other.id)).status).toBe('pending');
  });

  it('a rejected password disconnects with a reason; entering credentials again reuses the login and connects', async () => {
    const accountId = await newAccount();
    const { connect_url, connection } = json(await connect(accountId));
    const b = (await openLink(t.app, connect_url)).browser!;
    const path = `/hosted/connections/${connection.id}`;
    await b.get(path);
    await b.post(path, { username: USERNAME, password: `wrong-fail-auth-${PASSWORD}` });
    expect(await advance(connection.id)).toBe('authenticating → disconnected');
    expect(json(await getConnection(connection.id))).toMatchObject({
      status: 'disconnected',
      status_reason: AUTH_REJECTED_REASON,
      account: null,
    });
    const failed = await b.get(path);
    expect(failed.body).toContain('We could not connect the account');
    expect(failed.body).toContain(AUTH_REJECTED_REASON);
    expect(failed.body).toContain('name="password"');

    await b.post(path, { username: USERNAME, password: PASSWORD });
    expect(json(await getConnection(connection.id))).toMatchObject({ status: 'authenticating', status_reason: null });
    await advance(connection.id);
    await advance(connection.id);
    expect(json(await getConnection(connection.id)).status).toBe('connected');
    const logins = await t.db.selectFrom('account_logins').select('id').where('agency_account_id', '=', accountId).execute();
    expect(logins).toHaveLength(1);
    const { events } = await expectConsistentLog(t.db, connection.id);
    expect(events.map((e) => e.to_status)).toEqual([
      'pending',
      'authenticating',
      'disconnected',
      'authenticating',
      'registering',
      'connected',
    ]);
  });

  it('a registration the agency refuses disconnects from registering', async () => {
    const { id } = await connectionIn('authenticating', `${PASSWORD}-fail-register`);
    expect(await advance(id)).toBe('authenticating → registering');
    expect(await advance(id)).toBe('registering → disconnected');
    expect(json(await getConnection(id))).toMatchObject({ status: 'disconnected', status_reason: REGISTER_REJECTED_REASON });
  });

  it('a canceled connection’s page says so and takes no credentials', async () => {
    const accountId = await newAccount();
    const { connect_url, connection } = json(await connect(accountId));
    const b = (await openLink(t.app, connect_url)).browser!;
    const path = `/hosted/connections/${connection.id}`;
    await b.get(path);
    await cancel(connection.id);
    const page = await b.get(path);
    expect(page.body).toContain('Connection canceled');
    expect(page.body).not.toContain('name="password"');
    expect((await b.post(path, { username: USERNAME, password: PASSWORD })).statusCode).toBe(303);
    expect(await t.db.selectFrom('account_logins').select('id').where('agency_account_id', '=', accountId).execute()).toEqual([]);
    expect(json(await getConnection(connection.id)).status).toBe('canceled');
  });

  it('never writes a password in plain text to the database or the log', async () => {
    const tables = [
      'account_logins',
      'account_connections',
      'account_connection_events',
      'agency_accounts',
      'hosted_sessions',
      'hosted_browser_sessions',
    ];
    for (const table of tables) {
      const { rows } = await sql<{
        dump: string;
      }>`select coalesce(string_agg(t::text, ' '), '') as dump from ${sql.table(table)} t`.execute(t.db);
      expect(rows[0]!.dump, table).not.toContain(PASSWORD);
      expect(rows[0]!.dump, table).not.toContain(Buffer.from(PASSWORD).toString('hex'));
    }
    expect(JSON.stringify(sent)).not.toContain(PASSWORD);
    expect(logLines.length).toBeGreaterThan(10);
    const log = logLines.join('');
    expect(log).toContain('/hosted/connections/');
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(TOTP_SEED);
  });
});

describe('connections on the durable job queue', () => {
  let t: TestApp;
  let entityId: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ sandboxConnectorStepMs: 200 }, undefined, { jobs: true });
    ({ entityId, token } = await createPlatformWithEntity(t));
  });
  afterAll(async () => t.close());

  async function submit(password: string) {
    const accountId = (
      await t.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'EDD account' })
    ).id;
    const { connect_url, connection } = json(
      await t.app.inject({
        method: 'POST',
        url: '/accounts/connect',
        headers: bearer(token),
        payload: { legal_entity_id: entityId, agency_account_id: accountId },
      }),
    );
    const b = (await openLink(t.app, connect_url)).browser!;
    await b.get(`/hosted/connections/${connection.id}`);
    expect((await b.post(`/hosted/connections/${connection.id}`, { username: USERNAME, password })).statusCode).toBe(303);
    return { id: connection.id as string, accountId };
  }
  const status = async (id: string) => json(await t.app.inject({ url: `/accounts/connections/${id}`, headers: bearer(token) }));

  it('reaches connected on its own, with the account’s details and history', async () => {
    const started = Date.now();
    const { id, accountId } = await submit(PASSWORD);
    const done = await waitUntil(async () => {
      const c = await status(id);
      return c.status === 'connected' && c;
    }, 'connected');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400); // two steps of 200 ms
    expect(done.account).toMatchObject({ id: accountId, id_number: sandboxIdNumber(accountId), status: 'active', balance: 0 });
    expect(done.account.history).toHaveLength(4);
    const { events } = await expectConsistentLog(t.db, id);
    expect(events.map((e) => e.to_status)).toEqual(['pending', 'authenticating', 'registering', 'connected']);
  });

  it('the marker password ends disconnected with the reason', async () => {
    const { id } = await submit(`x-fail-auth-${PASSWORD}`);
    const done = await waitUntil(async () => {
      const c = await status(id);
      return c.status === 'disconnected' && c;
    }, 'disconnected');
    expect(done).toMatchObject({ status_reason: AUTH_REJECTED_REASON, account: null });
    const { rows } = await sql<{ dump: string }>`select coalesce(string_agg(j.data::text, ' '), '') as dump from pgboss.job j`.execute(
      t.db,
    );
    expect(rows[0]!.dump).toContain(id);
    expect(rows[0]!.dump).not.toContain(PASSWORD);
  });
});
