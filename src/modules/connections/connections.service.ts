import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { ConnectionRow } from '../../db/schema.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AccountsConnectionPort } from '../accounts/contract.js';
import type { LoginSecrets } from '../../crypto/vault.js';
import type { AccessScope } from '../../http/principals.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import type { ConnectionAnnouncer } from './connections.events.js';
import { ACCEPTS_CREDENTIALS, CANCELABLE, recordCreated, transition } from './connection-states.js';
import { createConnectionViews } from './connections.views.js';
import type { ConnectionsService, ConnectionView, ConnectPageData } from './contract.js';
import { createConnectionsRepository } from './connections.repository.js';
import { createConnectorJobs, type ConnectorJobsDeps } from './connections.jobs.js';

export { ADVANCE_JOB, GIVE_UP_AFTER_SECONDS, SWEEP_JOB, TIMED_OUT_REASON } from './connections.jobs.js';
export { maskUserName } from './connections.views.js';

export const CONNECTION_ID_PREFIX = 'conn';
export const CANCELED_REASON = 'Canceled by the platform';

/** The connector jobs' dependencies (db, jobs, connectors, stepMs, now, announce), and what connecting adds. */
export interface ConnectionsDeps extends Omit<ConnectorJobsDeps, 'accounts'> {
  accounts: ConnectorJobsDeps['accounts'] & Pick<AccountsConnectionPort, 'saveLoginCredentials' | 'lockAccount'>;
  sessions: Pick<HostedSessionsService, 'issue'>;
  catalog: Pick<Catalog, 'regions'>;
  hostedSessionTtlSeconds: number;
}

/** The service, and the connector's work the module's index.ts runs as jobs. */
export type ConnectionsWork = ConnectionsService & Pick<ReturnType<typeof createConnectorJobs>, 'advance' | 'sweep' | 'jobDefinitions'>;

export function createConnectionsService(deps: ConnectionsDeps): ConnectionsWork {
  const { db } = deps;
  const repo = createConnectionsRepository(db);
  const connector = createConnectorJobs(deps);
  const views = createConnectionViews(deps);
  const announce: ConnectionAnnouncer = deps.announce;

  async function requireConnection(scope: AccessScope, id: string): Promise<ConnectionRow> {
    const row = await repo.findConnection(scope.legalEntityId, id);
    if (!row) throw new NotFoundError(`Connection '${id}' not found`);
    return row;
  }

  const view = (row: ConnectionRow) => views.view(repo, row);

  return {
    /**
     * POST /accounts/connect. Idempotent while a connection of the account is live (pending, authenticating, registering):
     * that one comes back with a fresh link; otherwise a new pending connection.
     */
    async connect(scope: AccessScope, input: { legal_entity_id: string; agency_account_id: string }) {
      // Another entity's id is "not found", never "forbidden": it must not confirm that the entity exists.
      if (input.legal_entity_id !== scope.legalEntityId) throw new NotFoundError(`Legal entity '${input.legal_entity_id}' not found`);
      const row = await db.transaction().execute(async (trx) => {
        const inTrx = createConnectionsRepository(trx);
        // The account row lock makes concurrent connects for one account queue: one live connection at most.
        const account = await deps.accounts.lockAccount(trx, scope.legalEntityId, input.agency_account_id);
        if (!account) throw new NotFoundError(`Agency account '${input.agency_account_id}' not found`);
        const live = await inTrx.findNewestConnection(scope.legalEntityId, account.id, CANCELABLE);
        if (live) return live;
        const created = await inTrx.insertConnection({
          id: newId(CONNECTION_ID_PREFIX),
          legal_entity_id: scope.legalEntityId,
          platform_id: scope.platformId,
          agency_account_id: account.id,
          status: 'pending',
        });
        await recordCreated(trx, created);
        return created;
      });
      const session = await deps.sessions.issue({
        purpose: 'connect',
        legalEntityId: scope.legalEntityId,
        callbackUrl: null,
        ttlSeconds: deps.hostedSessionTtlSeconds,
        scope: { connection_id: row.id },
      });
      return { connect_url: session.url, connection: await view(row), connection_id: row.id };
    },

    /** GET /accounts/connections/{connection_id}. */
    get: async (scope: AccessScope, id: string) => view(await requireConnection(scope, id)),

    /** Operator view: every connection of an entity, newest first, each with its full transition log. */
    async listWithEvents(legalEntityId: string) {
      const rows = await repo.findConnections(legalEntityId);
      const events = await repo.findEvents(rows.map((r) => r.id));
      return rows.map((row) => ({
        id: row.id,
        platform_id: row.platform_id,
        agency_account_id: row.agency_account_id,
        status: row.status,
        status_reason: row.status_reason,
        created_at: row.created_at.toISOString(),
        status_changed_at: row.status_changed_at.toISOString(),
        events: events
          .filter((e) => e.connection_id === row.id)
          .map((e) => ({ from_status: e.from_status, to_status: e.to_status, reason: e.reason, occurred_at: e.occurred_at.toISOString() })),
      }));
    },

    /** POST /accounts/connections/{connection_id}/cancel: pending, authenticating or registering → canceled; any other status is a 409 and nothing changes. */
    async cancel(scope: AccessScope, id: string): Promise<ConnectionView> {
      // A disconnected connection can become authenticating between our attempt and our read: try again then.
      for (let attempt = 0; attempt < 3; attempt++) {
        const moved = await transition(db, {
          connectionId: id,
          legalEntityId: scope.legalEntityId,
          from: CANCELABLE,
          to: 'canceled',
          reason: CANCELED_REASON,
          announce,
        });
        if (moved) return view(moved);
        const current = await requireConnection(scope, id);
        if (!CANCELABLE.includes(current.status)) {
          throw new ConflictError(
            `Connection '${id}' is ${current.status}; only pending, authenticating or registering connections can be canceled`,
          );
        }
      }
      throw new ConflictError(`Connection '${id}' is changing right now; try again`);
    },

    /** The hosted page's view of a connection of this entity, or null. */
    async pageData(legalEntityId: string, id: string): Promise<ConnectPageData | null> {
      const connection = await repo.findConnection(legalEntityId, id);
      if (!connection) return null;
      const account = await repo.findAccount(legalEntityId, connection.agency_account_id);
      const agency = deps.catalog.regions.get(account.region_code)?.agencies.get(account.agency_id);
      return {
        connection,
        account,
        agencyName: agency?.name ?? account.agency_id,
        regionName: regionByCode(account.region_code)?.name ?? account.region_code,
      };
    },

    /**
     * The connect page's form. Order matters: (1) the credentials go into the vault (on the connection's
     * login if it has one), (2) one transaction moves the connection to `authenticating`, attaches the
     * login and queues the first step. A failure after (1) leaves the connection as it was, ready for
     * another try.
     * Returns false when the connection no longer accepts credentials (e.g. canceled meanwhile).
     */
    async submitCredentials(legalEntityId: string, id: string, secrets: LoginSecrets): Promise<boolean> {
      const row = await repo.findConnection(legalEntityId, id);
      if (!row || !ACCEPTS_CREDENTIALS.includes(row.status)) return false;
      const login = await deps.accounts.saveLoginCredentials(legalEntityId, {
        agencyAccountId: row.agency_account_id,
        loginId: row.login_id,
        secrets,
      });
      const moved = await transition(db, {
        connectionId: id,
        legalEntityId,
        from: ACCEPTS_CREDENTIALS,
        to: 'authenticating',
        reason: null,
        set: { login_id: login.id },
        effects: (trx) => connector.scheduleAdvance(id, trx),
        announce,
      });
      return moved !== null;
    },

    advance: connector.advance,
    sweep: connector.sweep,
    /** The connector's jobs (one step per job, and the sweep), run by the server's durable queue. */
    jobDefinitions: connector.jobDefinitions,
  };
}
