import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AgencyAccountRow, ConnectionRow, Database } from '../../db/schema.js';
import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import { NotFoundError } from '../../lib/errors.js';
import type { AccountsConnectionPort } from '../accounts/contract.js';
import type { AccountConnectors, ConnectorAccount } from '../agencies/contract.js';
import type { LoginSecrets } from '../../crypto/vault.js';
import type { ConnectionAnnouncer } from './connections.events.js';
import { IN_PROGRESS, transition } from './connection-states.js';
import { createConnectionsRepository } from './connections.repository.js';

export const ADVANCE_JOB = 'connections.advance';
export const SWEEP_JOB = 'connections.sweep';
/** Every minute (UTC). */
export const SWEEP_CRON = '* * * * *';
/** A connection in progress this long after its last move is re-sent to the connector. */
export const STUCK_AFTER_SECONDS = 60;
/** A connection in progress this long is given up on (disconnected), so none stays in progress forever. */
export const GIVE_UP_AFTER_SECONDS = 15 * 60;
export const TIMED_OUT_REASON = 'The agency did not answer in time; enter your credentials again to retry';
export const NO_CREDENTIALS_REASON = 'No credentials are stored for this connection; enter them again';
export const NO_CONNECTOR_REASON = 'Statehouse cannot connect accounts of this agency yet';

export interface ConnectorJobsDeps {
  /** Opens the transactions of the connector's moves. */
  db: Db;
  accounts: Pick<AccountsConnectionPort, 'openLoginSecrets' | 'recordSync'>;
  jobs: JobSender;
  /** Records each move's connection.status_changed in the move's transaction. */
  announce: ConnectionAnnouncer;
  /** The agencies' account connectors (agencies registry): the account's agency picks one. */
  connectors: AccountConnectors;
  /** Pause before each connector step (config.sandboxConnectorStepMs). */
  stepMs: number;
  now: () => Date;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const connectorAccount = (account: AgencyAccountRow): ConnectorAccount => ({
  id: account.id,
  legalEntityId: account.legal_entity_id,
  regionCode: account.region_code,
  agencyId: account.agency_id,
  name: account.name,
  data: account.data,
});

/** The connector's work on connections in progress: one step per job, and the sweep that re-sends lost steps. */
export function createConnectorJobs(deps: ConnectorJobsDeps) {
  const repo = createConnectionsRepository(deps.db);

  /** The next connector step, durable in the job queue; `not_before` keeps sub-second steps exact. */
  async function scheduleAdvance(connectionId: string, transaction: Transaction<Database>) {
    const notBefore = new Date(Date.now() + deps.stepMs).toISOString();
    await deps.jobs.send(
      ADVANCE_JOB,
      { connection_id: connectionId, not_before: notBefore },
      { startAfterSeconds: Math.floor(deps.stepMs / 1000), transaction },
    );
  }

  /** The connection's credentials from the vault; null when its login is gone (other failures retry the job). */
  async function credentialsOf(row: ConnectionRow): Promise<LoginSecrets | null> {
    if (!row.login_id) return null;
    try {
      return await deps.accounts.openLoginSecrets(row.legal_entity_id, row.login_id);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /**
   * One connector step for a connection in progress, chosen by its status *now* (so a job that runs
   * twice, late, or after another step is harmless). Every move is status-conditional: when a cancel
   * (or another worker) got there first, this step changes nothing.
   */
  async function advance(connectionId: string): Promise<string> {
    const row = await repo.findConnectionById(connectionId);
    if (!row) return 'unknown connection';
    if (row.status !== 'authenticating' && row.status !== 'registering') return `nothing to do (${row.status})`;
    const status = row.status;
    const account = await repo.findAccount(row.legal_entity_id, row.agency_account_id);
    const credentials = await credentialsOf(row);
    const fail = async (reason: string) => {
      const moved = await transition(deps.db, { connectionId, from: [status], to: 'disconnected', reason, announce: deps.announce });
      return moved ? `${status} → disconnected` : 'superseded';
    };
    if (!credentials) return fail(NO_CREDENTIALS_REASON);
    const connector = deps.connectors.forAgency(account.agency_id);
    if (!connector) return fail(NO_CONNECTOR_REASON);

    if (status === 'authenticating') {
      const result = await connector.authenticate(credentials, connectorAccount(account));
      if (!result.ok) return fail(result.reason);
      // The next step is queued in the transaction of the move: both happen, or neither.
      const moved = await transition(deps.db, {
        connectionId,
        from: ['authenticating'],
        to: 'registering',
        reason: null,
        effects: (trx) => scheduleAdvance(connectionId, trx),
        announce: deps.announce,
      });
      if (!moved) return 'superseded';
      return 'authenticating → registering';
    }

    const registered = await connector.register(credentials, connectorAccount(account));
    if (!registered.ok) return fail(registered.reason);
    const synced = await connector.sync(connectorAccount(account), deps.now());
    const moved = await transition(deps.db, {
      connectionId,
      from: ['registering'],
      to: 'connected',
      reason: null,
      // The account's details and data change with the move, or not at all (a cancel that won leaves them untouched).
      effects: async (trx, connection) => {
        await deps.accounts.recordSync(trx, account.legal_entity_id, account.id, { ...synced, loginId: connection.login_id });
      },
      announce: deps.announce,
    });
    return moved ? 'registering → connected' : 'superseded';
  }

  /** Re-sends the step of connections whose job was lost; gives up on ones in progress for too long. */
  async function sweep(): Promise<{ resent: number; timedOut: number }> {
    const rows = await repo.findUnmovedSince(IN_PROGRESS, deps.stepMs / 1000 + STUCK_AFTER_SECONDS);
    let resent = 0;
    let timedOut = 0;
    for (const row of rows) {
      if (Date.now() - row.status_changed_at.getTime() > GIVE_UP_AFTER_SECONDS * 1000) {
        if (
          await transition(deps.db, {
            connectionId: row.id,
            from: [row.status],
            to: 'disconnected',
            reason: TIMED_OUT_REASON,
            announce: deps.announce,
          })
        )
          timedOut++;
      } else {
        await deps.jobs.send(ADVANCE_JOB, { connection_id: row.id });
        resent++;
      }
    }
    return { resent, timedOut };
  }

  /** The connector's jobs, run by the server's durable queue. */
  const definitions: JobDefinition[] = [
    {
      name: ADVANCE_JOB,
      pollingIntervalSeconds: 0.5,
      expireInSeconds: 60,
      handler: async (data) => {
        if (typeof data.connection_id !== 'string') return 'ignored: no connection_id';
        // pg-boss schedules in whole seconds; the rest of the pause is waited here (at most one step).
        if (typeof data.not_before === 'string') {
          const wait = Date.parse(data.not_before) - Date.now();
          if (wait > 0) await sleep(Math.min(wait, deps.stepMs));
        }
        return advance(data.connection_id);
      },
    },
    { name: SWEEP_JOB, cron: SWEEP_CRON, expireInSeconds: 60, handler: () => sweep() },
  ];

  return { scheduleAdvance, advance, sweep, jobDefinitions: () => definitions };
}
