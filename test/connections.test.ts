import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../src/db/schema.js';
import type { JobSender, SendOptions } from '../src/jobs/queue.js';
import { canTransition, InvalidTransitionError, transition } from '../src/modules/connections/connection-states.js';
import {
  ADVANCE_JOB, CANCELED_REASON, GIVE_UP_AFTER_SECONDS, SWEEP_JOB, TIMED_OUT_REASON, maskUserName,
} from '../src/modules/connections/connections.service.js';
import { AUTH_REJECTED_REASON, REGISTER_REJECTED_REASON, sandboxIdNumber, sandboxTaxRate } from '../src/modules/connections/sandbox-connector.js';
import { accessToken, bearer, createPlatform, createTestApp, json, signupEntity, type TestApp } from './helpers/app.js';
import { openLink, type HostedBrowser } from './helpers/hosted.js';
import { waitUntil } from './helpers/wait.js';

const PASSWORD = 'Pl41ntext-never-stored-7731!';
const USERNAME = 'edd-admin-5521';
const TOTP_SEED = 'JBSWY3DPEHPK3PXPJBSWY3DP';

type Db = TestApp['db'];

/** Every event follows the previous one and the transition table, and the last one is the current status. */
async function expectConsistentLog(db: Db, connectionId: string) {
  const row = await db.selectFrom('account_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
  const events = await db.selectFrom('account_connection_events').selectAll().where('connection_id', '=', connectionId).orderBy('id').execute();
  expect(events[0]).toMatchObject({ from_status: null, to_status: 'pending' });
  for (let i = 1; i < events.length; i++) {
    expect(events[i]!.from_status).toBe(events[i - 1]!.to_status);
    expect(canTransition(events[i]!.from_status!, events[i]!.to_status), `${events[i]!.from_status} → ${events[i]!.to_status}`).toBe(true);
  }
  expect(events.at(-1)!.to_status).toBe(row.status);
  expect(row.status_changed_at.getTime()).toBe(events.at(-1)!.occurred_at.getTime());
  return { row, events };
}


describe('connections API (POST /accounts/connect, GET and cancel /accounts/connections/{id}) and the connect page', () => {
  let t: TestApp;
  let entityId: string;
  let token: string;
  let otherEntityId: string;
  let otherToken: string;
  const sent: { name: string; data: Record<string, unknown>; options: SendOptions | undefined }[] = [];
  const recorder: JobSender = { send: async (name, data, options) => void sent.push({ name, data, options }) };
  const logLines: string[] = [];

  const newAccount = async (legalEntityId = entityId, name = 'EDD employer account') =>
    (await t.app.services.accounts.createAccount(legalEntityId, { region_code: 'CA', agency_id: 'ca-edd', name })).id;
  const connect = (agencyAccountId: string, tok = token, legalEntityId = entityId) =>
    t.app.inject({ method: 'POST', url: '/accounts/connect', headers: bearer(tok), payload: { legal_entity_id: legalEntityId, agency_account_id: agencyAccountId } });
  const getConnection = (id: string, tok = token) => t.app.inject({ url: `/accounts/connections/${id}`, headers: bearer(tok) });
  const cancel = (id: string, tok = token) => t.app.inject({ method: 'POST', url: `/accounts/connections/${id}/cancel`, headers: bearer(tok) });
  const handler = (name: string) => t.app.services.jobDefinitions.find((j) => j.name === name)!.handler;
  const advance = (connectionId: string) => handler(ADVANCE_JOB)({ connection_id: connectionId }) as Promise<string>;

  /** A connection of a fresh account, moved along the table to `status` (with stored credentials). */
  async function connectionIn(status: ConnectionStatus, password = PASSWORD) {
    const accountId = await newAccount();
    const id = json(await connect(accountId)).connection.id as string;
    const paths: Record<ConnectionStatus, ConnectionStatus[]> = {
      pending: [], authenticating: ['authenticating'], registering: ['authenticating', 'registering'],
      connected: ['authenticating', 'registering', 'connected'], disconnected: ['authenticating', 'disconnected'], canceled: ['canceled'],
    };
    let from: ConnectionStatus = 'pending';
    for (const to of paths[status]) {
      const login = from === 'pending' ? await t.app.services.accounts.saveLoginCredentials(entityId, { agencyAccountId: accountId, secrets: { username: USERNAME, password } }) : null;
      expect(await transition(t.db, { connectionId: id, from: [from], to, reason: null, ...(login && { set: { login_id: login.id } }) })).not.toBeNull();
      from = to;
    }
    return { id, accountId };
  }

  beforeAll(async () => {
    t = await createTestApp({ sandboxConnectorStepMs: 0, logLevel: 'debug' }, { write: (line) => void logLines.push(line) }, { jobs: recorder });
    const { apiKey } = await createPlatform(t.db);
    entityId = await signupEntity(t.app, apiKey);
    token = await accessToken(t.app, apiKey, entityId);
    const other = await createPlatform(t.db, 'Other Platform');
    otherEntityId = await signupEntity(t.app, other.apiKey, { business_name: 'Other Co' });
    otherToken = await accessToken(t.app, other.apiKey, otherEntityId);
  });
  afterAll(async () => t.close());

  it('the transition table is enforced in one place, and a move happens only from an allowed status', async () => {
    const { id } = await connectionIn('pending');
    await expect(transition(t.db, { connectionId: id, from: ['pending'], to: 'connected', reason: null })).rejects.toBeInstanceOf(InvalidTransitionError);
    await expect(transition(t.db, { connectionId: id, from: ['canceled'], to: 'pending', reason: null })).rejects.toThrow("cannot move from 'canceled' to 'pending'");
    expect(await transition(t.db, { connectionId: id, from: ['authenticating'], to: 'registering', reason: null })).toBeNull();
    expect(await transition(t.db, { connectionId: id, legalEntityId: otherEntityId, from: ['pending'], to: 'canceled', reason: null })).toBeNull();
    const moved = await transition(t.db, { connectionId: id, legalEntityId: entityId, from: ['pending', 'authenticating'], to: 'canceled', reason: 'test' });
    expect(moved).toMatchObject({ id, status: 'canceled', status_reason: 'test', previous_status: 'pending' });
    const { events } = await expectConsistentLog(t.db, id);
    expect(events.map((e) => [e.from_status, e.to_status, e.reason])).toEqual([[null, 'pending', null], ['pending', 'canceled', 'test']]);
  });

  it('POST /accounts/connect returns a connect link and a pending connection', async () => {
    const accountId = await newAccount();
    const res = await connect(accountId);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['connect_url', 'connection', 'connection_id']);
    expect(body.connection_id).toBe(body.connection.id);
    expect(body.connect_url).toMatch(/^http:\/\/statehouse\.test\/hosted\/s\/[A-Za-z0-9_-]{40,}$/);
    expect(body.connection).toMatchObject({ id: expect.stringMatching(/^conn_/), status: 'pending', account: null, agency_account_id: accountId, status_reason: null });
    expect(json(await getConnection(body.connection.id))).toEqual(body.connection);
    const row = await t.db.selectFrom('account_connections').selectAll().where('id', '=', body.connection.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ legal_entity_id: entityId, agency_account_id: accountId, login_id: null, status: 'pending' });
    await expectConsistentLog(t.db, body.connection.id);
  });

  it('is idempotent while a connection is live: the same connection with a fresh link; a new one after cancel', async () => {
    const accountId = await newAccount();
    const [a, b] = await Promise.all([connect(accountId), connect(accountId)]);
    expect(json(a).connection.id).toBe(json(b).connection.id);
    expect(json(a).connect_url).not.toBe(json(b).connect_url);
    expect(await t.db.selectFrom('account_connections').select('id').where('agency_account_id', '=', accountId).execute()).toHaveLength(1);
    expect((await cancel(json(a).connection.id)).statusCode).toBe(200);
    const c = json(await connect(accountId));
    expect(c.connection.id).not.toBe(json(a).connection.id);
    expect(c.connection.status).toBe('pending');
  });

  it('401 without a valid access token', async () => {
    const accountId = await newAccount();
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: token }]) {
      const responses = await Promise.all([
        t.app.inject({ method: 'POST', url: '/accounts/connect', headers, payload: { legal_entity_id: entityId, agency_account_id: accountId } }),
        t.app.inject({ url: '/accounts/connections/conn_x', headers }),
        t.app.inject({ method: 'POST', url: '/accounts/connections/conn_x/cancel', headers }),
      ]);
      for (const res of responses) {
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(typeof json(res).detail).toBe('string');
      }
    }
    expect(await t.db.selectFrom('account_connections').select('id').where('agency_account_id', '=', accountId).execute()).toEqual([]);
  });

  it('422 for a body that is not a connect request', async () => {
    const missing = await t.app.inject({ method: 'POST', url: '/accounts/connect', headers: bearer(token) });
    expect(missing.statusCode).toBe(422);
    expect(json(missing).detail).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    const empty = await t.app.inject({ method: 'POST', url: '/accounts/connect', headers: bearer(token), payload: {} });
    expect(json(empty).detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual([
      [['body', 'legal_entity_id'], 'missing'], [['body', 'agency_account_id'], 'missing'],
    ]);
    const wrongType = await t.app.inject({ method: 'POST', url: '/accounts/connect', headers: bearer(token), payload: { legal_entity_id: entityId, agency_account_id: 5 } });
    expect(wrongType.statusCode).toBe(422);
    expect(json(wrongType).detail).toEqual([{ type: 'string_type', loc: ['body', 'agency_account_id'], msg: 'Input should be a valid string', input: 5 }]);
    const long = await getConnection('c'.repeat(65));
    expect(long.statusCode).toBe(422);
    expect(json(long).detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'connection_id'] });
  });

  it('404 for another entity’s legal entity, account or connection — never revealing it exists', async () => {
    const accountId = await newAccount();
    const otherAccountId = await newAccount(otherEntityId);
    const otherConnection = json(await connect(otherAccountId, otherToken, otherEntityId)).connection.id;

    const otherEntity = await connect(accountId, token, otherEntityId);
    expect(otherEntity.statusCode).toBe(404);
    expect(json(otherEntity)).toEqual({ detail: `Legal entity '${otherEntityId}' not found` });
    expect(json(await connect(accountId, token, 'le_unknown'))).toEqual({ detail: "Legal entity 'le_unknown' not found" });
    const otherAccount = await connect(otherAccountId);
    expect(otherAccount.statusCode).toBe(404);
    expect(json(otherAccount)).toEqual({ detail: `Agency account '${otherAccountId}' not found` });
    expect(json(await connect('acct_unknown'))).toEqual({ detail: "Agency account 'acct_unknown' not found" });

    for (const res of [await getConnection(otherConnection), await cancel(otherConnection), await getConnection('conn_unknown'), await cancel('conn_unknown')]) {
      expect(res.statusCode).toBe(404);
      expect(json(res).detail).toMatch(/^Connection 'conn_\w+' not found$/);
    }
    // Nothing happened to the other entity's connection.
    expect(json(await getConnection(otherConnection, otherToken)).status).toBe('pending');
    expect(await t.db.selectFrom('account_connections').select('id').where('agency_account_id', '=', accountId).execute()).toEqual([]);
  });

  it('cancel works from pending, authenticating and registering, and is recorded', async () => {
    for (const status of ['pending', 'authenticating', 'registering'] as const) {
      const { id } = await connectionIn(status);
      const res = await cancel(id);
      expect(res.statusCode, status).toBe(200);
      expect(json(res)).toMatchObject({ id, status: 'canceled', status_reason: CANCELED_REASON, account: null });
      expect(json(await getConnection(id)).status).toBe('canceled');
      const { events } = await expectConsistentLog(t.db, id);
      expect(events.at(-1)).toMatchObject({ from_status: status, to_status: 'canceled', reason: CANCELED_REASON });
      // A step that runs after the cancel changes nothing.
      expect(await advance(id)).toBe('nothing to do (canceled)');
    }
  });

  it('cancel from connected, disconnected or canceled is a 409 and changes nothing', async () => {
    for (const status of ['connected', 'disconnected', 'canceled'] as const) {
      const { id } = await connectionIn(status);
      const before = await t.db.selectFrom('account_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const eventsBefore = await t.db.selectFrom('account_connection_events').select('id').where('connection_id', '=', id).execute();
      const res = await cancel(id);
      expect(res.statusCode, status).toBe(409);
      expect(json(res)).toEqual({ detail: `Connection '${id}' is ${status}; only pending, authenticating or registering connections can be canceled` });
      expect(await t.db.selectFrom('account_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);
      expect(await t.db.selectFrom('account_connection_events').select('id').where('connection_id', '=', id).execute()).toEqual(eventsBefore);
    }
  });

  it('concurrent cancel and advance never both win, and the event log stays consistent', async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const start = (['authenticating', 'registering'] as const)[i % 2]!;
      const { id, accountId } = await connectionIn(start, i % 4 === 0 ? `${PASSWORD}fail-auth` : PASSWORD);
      // The cancel starts at staggered moments of the step, so both sides win some races.
      const delay = (i % 6) * 4;
      const [cancelRes, step] = await Promise.all([new Promise((r) => setTimeout(r, delay)).then(() => cancel(id)), advance(id)]);
      const { row, events } = await expectConsistentLog(t.db, id);
      const canceled = cancelRes.statusCode === 200;
      outcomes.add(`${start}:${row.status}`);
      if (canceled) {
        expect(row.status).toBe('canceled');
        // From registering the step's move would end the cancelable statuses: it can only have lost.
        if (start === 'registering') expect(step).toMatch(/superseded|nothing to do/);
      } else {
        // The step won with a move out of the cancelable statuses; the cancel saw that and changed nothing.
        expect(cancelRes.statusCode).toBe(409);
        expect(['connected', 'disconnected']).toContain(row.status);
        expect(json(cancelRes).detail).toContain(`is ${row.status};`);
      }
      // Exactly one move out of the starting status.
      expect(events.filter((e) => e.from_status === start)).toHaveLength(1);
      // The account's details are written with the move to connected, never for a canceled connection.
      const account = await t.db.selectFrom('agency_accounts').select('details').where('id', '=', accountId).executeTakeFirstOrThrow();
      expect(account.details !== null).toBe(row.status === 'connected');
    }
    expect([...outcomes].some((o) => o.endsWith(':canceled'))).toBe(true);
  }, 60_000);

  it('of many simultaneous cancels exactly one wins', async () => {
    const { id } = await connectionIn('registering');
    const responses = await Promise.all(Array.from({ length: 6 }, () => cancel(id)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const { events } = await expectConsistentLog(t.db, id);
    expect(events.filter((e) => e.to_status === 'canceled')).toHaveLength(1);
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
    expect(await t.app.services.accounts.openLoginSecrets(entityId, row.login_id!)).toEqual({ username: USERNAME, password: PASSWORD, totp_seed: TOTP_SEED });
    expect(sent).toEqual([{ name: ADVANCE_JOB, data: { connection_id: connection.id, not_before: expect.any(String) }, options: { startAfterSeconds: 0, transaction: expect.anything() } }]);

    const progress = await b.get(path);
    expect(progress.body).not.toContain('http-equiv="refresh"');
    expect(progress.body).toContain('>Check status</a>');
    expect(progress.body).toContain('aria-current="step"');
    expect(progress.body).not.toContain('name="password"');
    // A second post while in progress changes nothing.
    expect((await b.post(path, { username: 'x', password: 'y' })).statusCode).toBe(303);
    expect((await t.db.selectFrom('account_connections').select('status').where('id', '=', connection.id).executeTakeFirstOrThrow()).status).toBe('authenticating');

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
      id: connection.id, status: 'connected', status_reason: null,
      account: {
        id: accountId, agency_account: { id: accountId, agency_id: 'ca-edd', region: 'CA', name: 'Payroll tax account' },
        status: 'active', id_number: sandboxIdNumber(accountId), has_tpa: false, tax_rate_percent: sandboxTaxRate(accountId),
        reporting_schedule: 'quarterly', balance: 0, notices: [],
        account_login: { login_url: expect.stringMatching(/^https?:\/\//), user_name: maskUserName(USERNAME), two_factor_enabled: true },
      },
    });
    expect(api.account.history).toHaveLength(4);
    expect(api.account.history[3]).toEqual({
      period_start_date: expect.stringMatching(/^\d{4}-\d{2}-01$/), period_end_date: expect.any(String), payment_date: expect.any(String),
      filing_date: expect.any(String), payment_amount: expect.any(Number), amount_due: expect.any(Number), amount_applied: expect.any(Number),
      raw_data: { source: 'sandbox', quarter: expect.stringMatching(/^\d{4}-Q[1-4]$/) },
    });
    expect(JSON.stringify(api)).not.toContain(PASSWORD);
    expect(JSON.stringify(api)).not.toContain(USERNAME);
    const { events } = await expectConsistentLog(t.db, connection.id);
    expect(events.map((e) => e.to_status)).toEqual(['pending', 'authenticating', 'registering', 'connected']);

    const accounts = json(await t.app.inject({ url: '/v2/agency_accounts?region=CA', headers: bearer(token) }));
    const data = accounts.find((a: { id: string }) => a.id === accountId).data;
    expect(data).toContainEqual({ name: 'Account number', description: expect.any(String), value: sandboxIdNumber(accountId), status: 'done' });
    // The login the connector used is now marked as usable for automation.
    const [login] = json(await t.app.inject({ url: '/v2/logins?region=CA', headers: bearer(token) })).filter((l: { id: string }) => l.id === row.login_id);
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
    expect(json(await getConnection(connection.id))).toMatchObject({ status: 'disconnected', status_reason: AUTH_REJECTED_REASON, account: null });
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
    expect(events.map((e) => e.to_status)).toEqual(['pending', 'authenticating', 'disconnected', 'authenticating', 'registering', 'connected']);
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

  it('the sweeper re-queues a stranded connection and gives up on one in progress for too long', async () => {
    const stranded = await connectionIn('registering');
    const ancient = await connectionIn('authenticating');
    const fresh = await connectionIn('authenticating');
    await t.db.updateTable('account_connections').set({ status_changed_at: sql<Date>`now() - interval '2 minutes'` }).where('id', '=', stranded.id).execute();
    await t.db.updateTable('account_connections').set({ status_changed_at: sql<Date>`now() - make_interval(secs => ${GIVE_UP_AFTER_SECONDS + 60})` })
      .where('id', '=', ancient.id).execute();
    sent.length = 0;
    expect(await handler(SWEEP_JOB)({})).toEqual({ resent: 1, timedOut: 1 });
    expect(sent.map((s) => s.data.connection_id)).toEqual([stranded.id]);
    expect(sent.map((s) => s.data.connection_id)).not.toContain(fresh.id);
    expect(json(await getConnection(ancient.id))).toMatchObject({ status: 'disconnected', status_reason: TIMED_OUT_REASON });
  });

  it('never writes a password in plain text to the database or the log', async () => {
    const tables = ['account_logins', 'account_connections', 'account_connection_events', 'agency_accounts', 'hosted_sessions', 'hosted_browser_sessions'];
    for (const table of tables) {
      const { rows } = await sql<{ dump: string }>`select coalesce(string_agg(t::text, ' '), '') as dump from ${sql.table(table)} t`.execute(t.db);
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
    const { apiKey } = await createPlatform(t.db);
    entityId = await signupEntity(t.app, apiKey);
    token = await accessToken(t.app, apiKey, entityId);
  });
  afterAll(async () => t.close());

  async function submit(password: string) {
    const accountId = (await t.app.services.accounts.createAccount(entityId, { region_code: 'CA', agency_id: 'ca-edd', name: 'EDD account' })).id;
    const { connect_url, connection } = json(await t.app.inject({ method: 'POST', url: '/accounts/connect', headers: bearer(token), payload: { legal_entity_id: entityId, agency_account_id: accountId } }));
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
    const { rows } = await sql<{ dump: string }>`select coalesce(string_agg(j.data::text, ' '), '') as dump from pgboss.job j`.execute(t.db);
    expect(rows[0]!.dump).toContain(id);
    expect(rows[0]!.dump).not.toContain(PASSWORD);
  });
});
