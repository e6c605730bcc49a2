/**
 * Connections API (POST /accounts/connect, GET and cancel /accounts/connections/{id}): the transition table,
 * idempotent connect, authentication, validation and tenant checks, cancel and its races, and the sweeper.
 * The hosted connect page and the durable job queue: connections-connect-page.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidTransitionError, transition } from '../src/modules/connections/connection-states.js';
import { CANCELED_REASON, GIVE_UP_AFTER_SECONDS, SWEEP_JOB, TIMED_OUT_REASON } from '../src/modules/connections/connections.service.js';
import { bearer, json } from './helpers/app.js';
import { PASSWORD, expectConsistentLog, startConnectionsFixture, type ConnectionsFixture } from './helpers/connections.js';

describe('connections API (POST /accounts/connect, GET and cancel /accounts/connections/{id})', () => {
  let fixture: ConnectionsFixture;
  let t: ConnectionsFixture['t'];
  let entityId: ConnectionsFixture['entityId'];
  let token: ConnectionsFixture['token'];
  let otherEntityId: ConnectionsFixture['otherEntityId'];
  let otherToken: ConnectionsFixture['otherToken'];
  let sent: ConnectionsFixture['sent'];
  let newAccount: ConnectionsFixture['newAccount'];
  let connect: ConnectionsFixture['connect'];
  let getConnection: ConnectionsFixture['getConnection'];
  let cancel: ConnectionsFixture['cancel'];
  let handler: ConnectionsFixture['handler'];
  let advance: ConnectionsFixture['advance'];
  let connectionIn: ConnectionsFixture['connectionIn'];

  beforeAll(async () => {
    fixture = await startConnectionsFixture();
    ({ t, entityId, token, otherEntityId, otherToken, sent, newAccount, connect, getConnection, cancel, handler, advance, connectionIn } =
      fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('the transition table is enforced in one place, and a move happens only from an allowed status', async () => {
    const { id } = await connectionIn('pending');
    await expect(transition(t.db, { connectionId: id, from: ['pending'], to: 'connected', reason: null })).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    await expect(transition(t.db, { connectionId: id, from: ['canceled'], to: 'pending', reason: null })).rejects.toThrow(
      "cannot move from 'canceled' to 'pending'",
    );
    expect(await transition(t.db, { connectionId: id, from: ['authenticating'], to: 'registering', reason: null })).toBeNull();
    expect(
      await transition(t.db, { connectionId: id, legalEntityId: otherEntityId, from: ['pending'], to: 'canceled', reason: null }),
    ).toBeNull();
    const moved = await transition(t.db, {
      connectionId: id,
      legalEntityId: entityId,
      from: ['pending', 'authenticating'],
      to: 'canceled',
      reason: 'test',
    });
    expect(moved).toMatchObject({ id, status: 'canceled', status_reason: 'test', previous_status: 'pending' });
    const { events } = await expectConsistentLog(t.db, id);
    expect(events.map((e) => [e.from_status, e.to_status, e.reason])).toEqual([
      [null, 'pending', null],
      ['pending', 'canceled', 'test'],
    ]);
  });

  it('POST /accounts/connect returns a connect link and a pending connection', async () => {
    const accountId = await newAccount();
    const res = await connect(accountId);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['connect_url', 'connection', 'connection_id']);
    expect(body.connection_id).toBe(body.connection.id);
    expect(body.connect_url).toMatch(/^http:\/\/statehouse\.test\/hosted\/s\/[A-Za-z0-9_-]{40,}$/);
    expect(body.connection).toMatchObject({
      id: expect.stringMatching(/^conn_/),
      status: 'pending',
      account: null,
      agency_account_id: accountId,
      status_reason: null,
    });
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
        t.app.inject({
          method: 'POST',
          url: '/accounts/connect',
          headers,
          payload: { legal_entity_id: entityId, agency_account_id: accountId },
        }),
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
      [['body', 'legal_entity_id'], 'missing'],
      [['body', 'agency_account_id'], 'missing'],
    ]);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/accounts/connect',
      headers: bearer(token),
      payload: { legal_entity_id: entityId, agency_account_id: 5 },
    });
    expect(wrongType.statusCode).toBe(422);
    expect(json(wrongType).detail).toEqual([
      { type: 'string_type', loc: ['body', 'agency_account_id'], msg: 'Input should be a valid string', input: 5 },
    ]);
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

    for (const res of [
      await getConnection(otherConnection),
      await cancel(otherConnection),
      await getConnection('conn_unknown'),
      await cancel('conn_unknown'),
    ]) {
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
      expect(json(res)).toEqual({
        detail: `Connection '${id}' is ${status}; only pending, authenticating or registering connections can be canceled`,
      });
      expect(await t.db.selectFrom('account_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);
      expect(await t.db.selectFrom('account_connection_events').select('id').where('connection_id', '=', id).execute()).toEqual(
        eventsBefore,
      );
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

  it('the sweeper re-queues a stranded connection and gives up on one in progress for too long', async () => {
    const stranded = await connectionIn('registering');
    const ancient = await connectionIn('authenticating');
    const fresh = await connectionIn('authenticating');
    await t.db
      .updateTable('account_connections')
      .set({ status_changed_at: sql<Date>`now() - interval '2 minutes'` })
      .where('id', '=', stranded.id)
      .execute();
    await t.db
      .updateTable('account_connections')
      .set({ status_changed_at: sql<Date>`now() - make_interval(secs => ${GIVE_UP_AFTER_SECONDS + 60})` })
      .where('id', '=', ancient.id)
      .execute();
    sent.length = 0;
    expect(await handler(SWEEP_JOB)({})).toEqual({ resent: 1, timedOut: 1 });
    expect(sent.map((s) => s.data.connection_id)).toEqual([stranded.id]);
    expect(sent.map((s) => s.data.connection_id)).not.toContain(fresh.id);
    expect(json(await getConnection(ancient.id))).toMatchObject({ status: 'disconnected', status_reason: TIMED_OUT_REASON });
  });
});
