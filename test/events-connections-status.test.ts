/**
 * connection.status_changed on every move (hosted connect page, connector steps, cancel), with the connection as
 * GET /accounts/connections/{id} answers it; the login the page stores and the account data the sync writes record
 * their own events; a refused cancel records nothing; no credential reaches a payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { PASSWORD, TOTP_SEED, USERNAME, startConnectionsFixture, type ConnectionsFixture } from './helpers/connections.js';
import { eventsOf, eventsText } from './helpers/outbox.js';
import { openLink } from './helpers/hosted.js';

describe('events: connection status changes', () => {
  let f: ConnectionsFixture;
  beforeAll(async () => {
    f = await startConnectionsFixture();
  });
  afterAll(async () => f?.close());

  const statusEvents = async (connectionId: string) =>
    (await eventsOf(f.t, f.entityId, ['connection.status_changed'])).filter((e) => e.data.object.id === connectionId);

  it('connect page → authenticating → registering → connected: one event per move, the last as the API answers', async () => {
    const accountId = await f.newAccount(f.entityId, 'Payroll tax account');
    const { connect_url, connection } = json(await f.connect(accountId));
    // Creating the connection (pending) is the POST's answer, not a status change.
    expect(await statusEvents(connection.id)).toEqual([]);
    const browser = (await openLink(f.t.app, connect_url)).browser!;
    const page = `/hosted/connections/${connection.id}`;
    await browser.get(page);
    expect((await browser.post(page, { username: USERNAME, password: PASSWORD, totp_seed: TOTP_SEED })).statusCode).toBe(303);
    const authenticating = await statusEvents(connection.id);
    expect(authenticating).toHaveLength(1);
    expect(authenticating[0]).toMatchObject({
      platform_id: expect.any(String),
      legal_entity_id: f.entityId,
      data: { changed: ['status'], object: { status: 'authenticating' } },
    });
    expect(await f.advance(connection.id)).toBe('authenticating → registering');
    expect(await f.advance(connection.id)).toBe('registering → connected');

    const moves = await statusEvents(connection.id);
    expect(moves.map((e) => e.data.object.status)).toEqual(['authenticating', 'registering', 'connected']);
    expect(moves.at(-1)!.data.object).toEqual(json(await f.getConnection(connection.id)));

    // The page's new login, and the data the sync learned, are the account's own events.
    const { login_id: loginId } = await f.t.db
      .selectFrom('account_connections')
      .select('login_id')
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    const logins = await eventsOf(f.t, f.entityId, ['login.created']);
    expect(logins.filter((e) => e.data.object.id === loginId)).toHaveLength(1);
    const updates = (await eventsOf(f.t, f.entityId, ['agency_account.updated'])).filter((e) => e.data.object.id === accountId);
    expect(updates.map((e) => e.data.changed)).toEqual([['logins'], ['data']]);
    const listed = json<Record<string, unknown>[]>(
      await f.t.app.inject({ url: '/v2/agency_accounts', headers: { authorization: `Bearer ${f.token}` } }),
    );
    expect(updates[1]!.data.object).toEqual(listed.find((a) => a.id === accountId));

    const text = await eventsText(f.t, f.entityId);
    for (const secret of [PASSWORD, USERNAME, TOTP_SEED]) expect(text).not.toContain(secret);
  });

  it('cancel records canceled; a refused cancel records nothing', async () => {
    const accountId = await f.newAccount();
    const id = json(await f.connect(accountId)).connection.id as string;
    expect((await f.cancel(id)).statusCode).toBe(200);
    const canceled = await statusEvents(id);
    expect(canceled.map((e) => e.data.object.status)).toEqual(['canceled']);
    expect(canceled[0]!.data.object).toEqual(json(await f.getConnection(id)));
    const before = (await eventsOf(f.t, f.entityId)).length;
    expect((await f.cancel(id)).statusCode).toBe(409);
    // Another platform's entity cannot move it either.
    expect((await f.cancel(id, f.otherToken)).statusCode).toBe(404);
    expect(await eventsOf(f.t, f.entityId)).toHaveLength(before);
    expect(await eventsOf(f.t, f.otherEntityId, ['connection.status_changed'])).toEqual([]);
  });

  it('a connector rejection records disconnected with its reason', async () => {
    const accountId = await f.newAccount();
    const { connect_url, connection } = json(await f.connect(accountId));
    const browser = (await openLink(f.t.app, connect_url)).browser!;
    await browser.get(`/hosted/connections/${connection.id}`);
    await browser.post(`/hosted/connections/${connection.id}`, { username: USERNAME, password: `x-fail-auth-${PASSWORD}` });
    expect(await f.advance(connection.id)).toBe('authenticating → disconnected');
    const moves = await statusEvents(connection.id);
    expect(moves.map((e) => e.data.object.status)).toEqual(['authenticating', 'disconnected']);
    expect(moves[1]!.data.object).toEqual(json(await f.getConnection(connection.id)));
  });
});
