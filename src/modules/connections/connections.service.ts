import { sql, type Transaction } from 'kysely';
import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { AgencyAccountDatum, AgencyAccountDetails, Database, AgencyAccountRow, ConnectionRow } from '../../db/schema.js';
import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { LoginSecrets } from '../accounts/vault.js';
import type { AccessScope } from '../../http/principals.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';
import { ACCEPTS_CREDENTIALS, CANCELABLE, IN_PROGRESS, recordCreated, transition } from './connection-states.js';
import type { Connector, ConnectorAccount, LearnedAttribute } from './connector.js';

export const CONNECTION_ID_PREFIX = 'conn';
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
export const CANCELED_REASON = 'Canceled by the platform';

export interface ConnectionsDeps {
  db: Db;
  accounts: AccountsService;
  sessions: HostedSessionsService;
  jobs: JobSender;
  catalog: Catalog;
  connector: Connector;
  /** Pause before each connector step (config.sandboxConnectorStepMs). */
  stepMs: number;
  hostedSessionTtlSeconds: number;
  now: () => Date;
}

/** The API's PlatformAccount: what the connection learned about the agency account. */
export interface PlatformAccountView extends AgencyAccountDetails {
  id: string;
  agency_account: { id: string; agency_id: string; region: string; name: string };
  notices: never[];
  account_login: { login_url: string; user_name: string; two_factor_enabled: boolean } | null;
}

export interface ConnectionView {
  id: string;
  status: ConnectionRow['status'];
  account: PlatformAccountView | null;
  agency_account_id: string;
  status_reason: string | null;
  status_changed_at: string;
  created_at: string;
}

/** What the hosted connect page shows. */
export interface ConnectPageData {
  connection: ConnectionRow;
  account: AgencyAccountRow;
  agencyName: string;
  regionName: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Merges learned attributes into the account's data by name: fills (status `done`) or appends. */
export function mergeAttributes(data: AgencyAccountDatum[], learned: LearnedAttribute[]): AgencyAccountDatum[] {
  const out = data.map((d) => ({ ...d }));
  for (const attribute of learned) {
    const existing = out.find((d) => d.name.toLowerCase() === attribute.name.toLowerCase());
    if (existing) {
      existing.value = attribute.value;
      existing.status = 'done';
    } else {
      out.push({ name: attribute.name, description: attribute.description, value: attribute.value, status: 'done' });
    }
  }
  return out;
}

export function createConnectionsService(deps: ConnectionsDeps) {
  const { db } = deps;

  const findConnection = (legalEntityId: string, id: string) =>
    db.selectFrom('account_connections').selectAll().where('legal_entity_id', '=', legalEntityId).where('id', '=', id).executeTakeFirst();

  async function requireConnection(scope: AccessScope, id: string): Promise<ConnectionRow> {
    const row = await findConnection(scope.legalEntityId, id);
    if (!row) throw new NotFoundError(`Connection '${id}' not found`);
    return row;
  }

  async function accountLogin(row: ConnectionRow) {
    if (!row.login_id) return null;
    const login = await db.selectFrom('account_logins').select(['id', 'login_url'])
      .where('legal_entity_id', '=', row.legal_entity_id).where('id', '=', row.login_id).executeTakeFirst();
    if (!login) return null;
    try {
      // The reference's shape has a user name, but credentials never leave the vault through the API:
      // enough of it to recognise the login, not to use it.
      const secrets = await deps.accounts.openLoginSecrets(row.legal_entity_id, login.id);
      return { login_url: login.login_url, user_name: maskUserName(secrets.username), two_factor_enabled: Boolean(secrets.totp_seed) };
    } catch {
      return null; // a secret whose vault key is gone: the connection is still readable
    }
  }

  async function view(row: ConnectionRow): Promise<ConnectionView> {
    const account = await db.selectFrom('agency_accounts').selectAll()
      .where('legal_entity_id', '=', row.legal_entity_id).where('id', '=', row.agency_account_id).executeTakeFirstOrThrow();
    const details = account.details;
    return {
      id: row.id,
      status: row.status,
      account: details
        ? {
            id: account.id,
            agency_account: { id: account.id, agency_id: account.agency_id, region: account.region_code, name: account.name },
            status: details.status, id_number: details.id_number, has_tpa: details.has_tpa, tax_rate_percent: details.tax_rate_percent,
            reporting_schedule: details.reporting_schedule, balance: details.balance, history: details.history,
            // Agency notices arrive with mail (a later capability).
            notices: [],
            account_login: await accountLogin(row),
            synced_at: details.synced_at,
          }
        : null,
      agency_account_id: row.agency_account_id,
      status_reason: row.status_reason,
      status_changed_at: row.status_changed_at.toISOString(),
      created_at: row.created_at.toISOString(),
    };
  }

  /** The next connector step, durable in the job queue; `not_before` keeps sub-second steps exact. */
  async function scheduleAdvance(connectionId: string, transaction: Transaction<Database>) {
    const notBefore = new Date(Date.now() + deps.stepMs).toISOString();
    await deps.jobs.send(ADVANCE_JOB, { connection_id: connectionId, not_before: notBefore }, { startAfterSeconds: Math.floor(deps.stepMs / 1000), transaction });
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

  const connectorAccount = (account: AgencyAccountRow): ConnectorAccount => ({
    id: account.id, legalEntityId: account.legal_entity_id, regionCode: account.region_code, agencyId: account.agency_id, name: account.name, data: account.data,
  });

  /**
   * One connector step for a connection in progress, chosen by its status *now* (so a job that runs
   * twice, late, or after another step is harmless). Every move is status-conditional: when a cancel
   * (or another worker) got there first, this step changes nothing.
   */
  async function advance(connectionId: string): Promise<string> {
    const row = await db.selectFrom('account_connections').selectAll().where('id', '=', connectionId).executeTakeFirst();
    if (!row) return 'unknown connection';
    if (row.status !== 'authenticating' && row.status !== 'registering') return `nothing to do (${row.status})`;
    const status = row.status;
    const account = await db.selectFrom('agency_accounts').selectAll()
      .where('legal_entity_id', '=', row.legal_entity_id).where('id', '=', row.agency_account_id).executeTakeFirstOrThrow();
    const credentials = await credentialsOf(row);
    const fail = async (reason: string) => {
      const moved = await transition(db, { connectionId, from: [status], to: 'disconnected', reason });
      return moved ? `${status} → disconnected` : 'superseded';
    };
    if (!credentials) return fail(NO_CREDENTIALS_REASON);

    if (status === 'authenticating') {
      const result = await deps.connector.authenticate(credentials, connectorAccount(account));
      if (!result.ok) return fail(result.reason);
      // The next step is queued in the transaction of the move: both happen, or neither.
      const moved = await transition(db, {
        connectionId, from: ['authenticating'], to: 'registering', reason: null, effects: (trx) => scheduleAdvance(connectionId, trx),
      });
      if (!moved) return 'superseded';
      return 'authenticating → registering';
    }

    const registered = await deps.connector.register(credentials, connectorAccount(account));
    if (!registered.ok) return fail(registered.reason);
    const synced = await deps.connector.sync(connectorAccount(account), deps.now());
    const moved = await transition(db, {
      connectionId, from: ['registering'], to: 'connected', reason: null,
      // The account's details and data change with the move, or not at all (a cancel that won leaves them untouched).
      effects: async (trx, connection) => {
        // The connector signed in and worked with this login: automation can use it.
        if (connection.login_id) await trx.updateTable('account_logins').set({ is_supported: true }).where('id', '=', connection.login_id).execute();
        const current = await trx.selectFrom('agency_accounts').select('data').where('id', '=', account.id).forUpdate().executeTakeFirstOrThrow();
        await trx.updateTable('agency_accounts')
          .set({ details: JSON.stringify(synced.details), data: JSON.stringify(mergeAttributes(current.data, synced.attributes)), updated_at: new Date() })
          .where('id', '=', account.id).execute();
      },
    });
    return moved ? 'registering → connected' : 'superseded';
  }

  /** Re-sends the step of connections whose job was lost; gives up on ones in progress for too long. */
  async function sweep(): Promise<{ resent: number; timedOut: number }> {
    const stuckSeconds = deps.stepMs / 1000 + STUCK_AFTER_SECONDS;
    const rows = await db.selectFrom('account_connections').select(['id', 'status', 'status_changed_at'])
      .where('status', 'in', [...IN_PROGRESS])
      .where('status_changed_at', '<', sql<Date>`now() - make_interval(secs => ${stuckSeconds})`)
      .orderBy('status_changed_at').limit(500).execute();
    let resent = 0;
    let timedOut = 0;
    for (const row of rows) {
      if (Date.now() - row.status_changed_at.getTime() > GIVE_UP_AFTER_SECONDS * 1000) {
        if (await transition(db, { connectionId: row.id, from: [row.status], to: 'disconnected', reason: TIMED_OUT_REASON })) timedOut++;
      } else {
        await deps.jobs.send(ADVANCE_JOB, { connection_id: row.id });
        resent++;
      }
    }
    return { resent, timedOut };
  }

  return {
    /**
     * POST /accounts/connect. Idempotent while a connection of the account is live (pending, authenticating, registering):
     * that one comes back with a fresh link; otherwise a new pending connection.
     */
    async connect(scope: AccessScope, input: { legal_entity_id: string; agency_account_id: string }) {
      // Another entity's id is "not found", never "forbidden": it must not confirm that the entity exists.
      if (input.legal_entity_id !== scope.legalEntityId) throw new NotFoundError(`Legal entity '${input.legal_entity_id}' not found`);
      const row = await db.transaction().execute(async (trx) => {
        // The account row lock makes concurrent connects for one account queue: one live connection at most.
        const account = await trx.selectFrom('agency_accounts').select('id')
          .where('legal_entity_id', '=', scope.legalEntityId).where('id', '=', input.agency_account_id).forUpdate().executeTakeFirst();
        if (!account) throw new NotFoundError(`Agency account '${input.agency_account_id}' not found`);
        const live = await trx.selectFrom('account_connections').selectAll()
          .where('agency_account_id', '=', account.id).where('status', 'in', [...CANCELABLE])
          .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
        if (live) return live;
        const created = await trx.insertInto('account_connections').values({
          id: newId(CONNECTION_ID_PREFIX), legal_entity_id: scope.legalEntityId, platform_id: scope.platformId, agency_account_id: account.id,
          status: 'pending',
        }).returningAll().executeTakeFirstOrThrow();
        await recordCreated(trx, created);
        return created;
      });
      const session = await deps.sessions.issue({
        purpose: 'connect', legalEntityId: scope.legalEntityId, callbackUrl: null, ttlSeconds: deps.hostedSessionTtlSeconds, scope: { connection_id: row.id },
      });
      return { connect_url: session.url, connection: await view(row), connection_id: row.id };
    },

    /** GET /accounts/connections/{connection_id}. */
    get: async (scope: AccessScope, id: string) => view(await requireConnection(scope, id)),

    /** Operator view: every connection of an entity, newest first, each with its full transition log. */
    async listWithEvents(legalEntityId: string) {
      const rows = await db.selectFrom('account_connections').selectAll().where('legal_entity_id', '=', legalEntityId)
        .orderBy('created_at', 'desc').orderBy('id').execute();
      const events = rows.length === 0 ? [] : await db.selectFrom('account_connection_events').selectAll()
        .where('connection_id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
      return rows.map((row) => ({
        id: row.id, platform_id: row.platform_id, agency_account_id: row.agency_account_id, status: row.status, status_reason: row.status_reason,
        created_at: row.created_at.toISOString(), status_changed_at: row.status_changed_at.toISOString(),
        events: events.filter((e) => e.connection_id === row.id)
          .map((e) => ({ from_status: e.from_status, to_status: e.to_status, reason: e.reason, occurred_at: e.occurred_at.toISOString() })),
      }));
    },

    /** POST /accounts/connections/{connection_id}/cancel: pending, authenticating or registering → canceled; any other status is a 409 and nothing changes. */
    async cancel(scope: AccessScope, id: string): Promise<ConnectionView> {
      // A disconnected connection can become authenticating between our attempt and our read: try again then.
      for (let attempt = 0; attempt < 3; attempt++) {
        const moved = await transition(db, { connectionId: id, legalEntityId: scope.legalEntityId, from: CANCELABLE, to: 'canceled', reason: CANCELED_REASON });
        if (moved) return view(moved);
        const current = await requireConnection(scope, id);
        if (!CANCELABLE.includes(current.status)) {
          throw new ConflictError(`Connection '${id}' is ${current.status}; only pending, authenticating or registering connections can be canceled`);
        }
      }
      throw new ConflictError(`Connection '${id}' is changing right now; try again`);
    },

    /** The hosted page's view of a connection of this entity, or null. */
    async pageData(legalEntityId: string, id: string): Promise<ConnectPageData | null> {
      const connection = await findConnection(legalEntityId, id);
      if (!connection) return null;
      const account = await db.selectFrom('agency_accounts').selectAll()
        .where('legal_entity_id', '=', legalEntityId).where('id', '=', connection.agency_account_id).executeTakeFirstOrThrow();
      const agency = deps.catalog.regions.get(account.region_code)?.agencies.get(account.agency_id);
      return { connection, account, agencyName: agency?.name ?? account.agency_id, regionName: regionByCode(account.region_code)?.name ?? account.region_code };
    },

    /**
     * The connect page's form. Order matters: (1) the credentials go into the vault (on the connection's
     * login if it has one), (2) one transaction moves the connection to `authenticating`, attaches the
     * login and queues the first step. A failure after (1) leaves the connection as it was, ready for
     * another try.
     * Returns false when the connection no longer accepts credentials (e.g. canceled meanwhile).
     */
    async submitCredentials(legalEntityId: string, id: string, secrets: LoginSecrets): Promise<boolean> {
      const row = await findConnection(legalEntityId, id);
      if (!row || !ACCEPTS_CREDENTIALS.includes(row.status)) return false;
      const login = await deps.accounts.saveLoginCredentials(legalEntityId, { agencyAccountId: row.agency_account_id, loginId: row.login_id, secrets });
      const moved = await transition(db, {
        connectionId: id, legalEntityId, from: ACCEPTS_CREDENTIALS, to: 'authenticating', reason: null, set: { login_id: login.id },
        effects: (trx) => scheduleAdvance(id, trx),
      });
      return moved !== null;
    },

    advance,
    sweep,

    /** The connector's jobs, run by the server's durable queue. */
    jobDefinitions(): JobDefinition[] {
      return [
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
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;

/** `edd-admin-5521` → `e***1`: first and last character (only the first for short names). */
export function maskUserName(userName: string): string {
  const chars = [...userName];
  return chars.length >= 6 ? `${chars[0]}***${chars.at(-1)}` : `${chars[0] ?? ''}***`;
}
