import { expect } from 'vitest';
import type { ConnectionStatus } from '../../src/db/schema.js';
import type { JobSender, SendOptions } from '../../src/jobs/queue.js';
import { canTransition, transition } from '../../src/modules/connections/connection-states.js';
import { ADVANCE_JOB } from '../../src/modules/connections/connections.service.js';
import { bearer, createPlatformWithEntity, createTestApp, json, type TestApp } from './app.js';

/** What the connections-*.test.ts files share: the credentials a user types, and the event-log check. */
export const PASSWORD = 'Pl41ntext-never-stored-7731!';
export const USERNAME = 'edd-admin-5521';
export const TOTP_SEED = 'JBSWY3DPEHPK3PXPJBSWY3DP';

type Db = TestApp['db'];

/** Every event follows the previous one and the transition table, and the last one is the current status. */
export async function expectConsistentLog(db: Db, connectionId: string) {
  const row = await db.selectFrom('account_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('account_connection_events')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('id')
    .execute();
  expect(events[0]).toMatchObject({ from_status: null, to_status: 'pending' });
  for (let i = 1; i < events.length; i++) {
    expect(events[i]!.from_status).toBe(events[i - 1]!.to_status);
    expect(canTransition(events[i]!.from_status!, events[i]!.to_status), `${events[i]!.from_status} → ${events[i]!.to_status}`).toBe(true);
  }
  expect(events.at(-1)!.to_status).toBe(row.status);
  expect(row.status_changed_at.getTime()).toBe(events.at(-1)!.occurred_at.getTime());
  return { row, events };
}

/**
 * An app whose job queue only records what is sent (`sent`; tests run the job handlers themselves), with a
 * debug log kept in `logLines`, an entity with its token and another platform's entity with its token; plus
 * the connect, read and cancel calls and `connectionIn`, which moves a fresh account's connection along the table.
 */
export async function startConnectionsFixture() {
  const sent: { name: string; data: Record<string, unknown>; options: SendOptions | undefined }[] = [];
  const recorder: JobSender = {
    send: async (name, data, options) => void sent.push({ name, data, options }),
    sendMany: async (name, list, options) => void sent.push(...list.map((data) => ({ name, data, options }))),
  };
  const logLines: string[] = [];
  const t = await createTestApp(
    { sandboxConnectorStepMs: 0, logLevel: 'debug' },
    { write: (line) => void logLines.push(line) },
    { jobs: recorder },
  );
  const { entityId, token } = await createPlatformWithEntity(t);
  const { entityId: otherEntityId, token: otherToken } = await createPlatformWithEntity(t, 'Other Platform', { business_name: 'Other Co' });

  const newAccount = async (legalEntityId = entityId, name = 'EDD employer account') =>
    (await t.app.services.accounts.createAccount(legalEntityId, { region_code: 'CA', agency_id: 'ca-edd', name })).id;
  const connect = (agencyAccountId: string, tok = token, legalEntityId = entityId) =>
    t.app.inject({
      method: 'POST',
      url: '/accounts/connect',
      headers: bearer(tok),
      payload: { legal_entity_id: legalEntityId, agency_account_id: agencyAccountId },
    });
  const getConnection = (id: string, tok = token) => t.app.inject({ url: `/accounts/connections/${id}`, headers: bearer(tok) });
  const cancel = (id: string, tok = token) =>
    t.app.inject({ method: 'POST', url: `/accounts/connections/${id}/cancel`, headers: bearer(tok) });
  const handler = (name: string) => t.app.services.jobDefinitions.find((j) => j.name === name)!.handler;
  const advance = (connectionId: string) => handler(ADVANCE_JOB)({ connection_id: connectionId }) as Promise<string>;

  /** A connection of a fresh account, moved along the table to `status` (with stored credentials). */
  async function connectionIn(status: ConnectionStatus, password = PASSWORD) {
    const accountId = await newAccount();
    const id = json(await connect(accountId)).connection.id as string;
    const paths: Record<ConnectionStatus, ConnectionStatus[]> = {
      pending: [],
      authenticating: ['authenticating'],
      registering: ['authenticating', 'registering'],
      connected: ['authenticating', 'registering', 'connected'],
      disconnected: ['authenticating', 'disconnected'],
      canceled: ['canceled'],
    };
    let from: ConnectionStatus = 'pending';
    for (const to of paths[status]) {
      const login =
        from === 'pending'
          ? await t.app.services.accounts.saveLoginCredentials(entityId, {
              agencyAccountId: accountId,
              secrets: { username: USERNAME, password },
            })
          : null;
      expect(
        await transition(t.db, { connectionId: id, from: [from], to, reason: null, ...(login && { set: { login_id: login.id } }) }),
      ).not.toBeNull();
      from = to;
    }
    return { id, accountId };
  }

  return {
    t,
    entityId,
    token,
    otherEntityId,
    otherToken,
    sent,
    logLines,
    newAccount,
    connect,
    getConnection,
    cancel,
    handler,
    advance,
    connectionIn,
    close: () => t.close(),
  };
}

export type ConnectionsFixture = Awaited<ReturnType<typeof startConnectionsFixture>>;
