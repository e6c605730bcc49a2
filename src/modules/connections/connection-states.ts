import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ConnectionRow, ConnectionStatus, Database } from '../../db/schema.js';
import { createConnectionsRepository, type MovedConnection } from './connections.repository.js';

export { CONNECTION_STATUSES } from './connections.schemas.js';

/**
 * The one place a connection's allowed moves are defined. `disconnected → authenticating` is the person
 * entering credentials again on the connect page; `canceled` is terminal.
 */
export const TRANSITIONS: Readonly<Record<ConnectionStatus, readonly ConnectionStatus[]>> = {
  pending: ['authenticating', 'canceled'],
  authenticating: ['registering', 'disconnected', 'canceled'],
  registering: ['connected', 'disconnected', 'canceled'],
  connected: ['disconnected'],
  disconnected: ['authenticating'],
  canceled: [],
};

/** Statuses a platform may cancel from (and in which a connection is "live": a second connect reuses it). */
export const CANCELABLE: readonly ConnectionStatus[] = ['pending', 'authenticating', 'registering'];
/** Statuses the connector is working in (a job is due). */
export const IN_PROGRESS: readonly ConnectionStatus[] = ['authenticating', 'registering'];
/** Statuses in which the connect page accepts credentials. */
export const ACCEPTS_CREDENTIALS: readonly ConnectionStatus[] = ['pending', 'disconnected'];

export const canTransition = (from: ConnectionStatus, to: ConnectionStatus) => TRANSITIONS[from].includes(to);

export class InvalidTransitionError extends Error {
  constructor(from: ConnectionStatus, to: ConnectionStatus) {
    super(`A connection cannot move from '${from}' to '${to}'`);
    this.name = 'InvalidTransitionError';
  }
}

export interface TransitionRequest {
  connectionId: string;
  /** When given, only a connection of this legal entity is touched (API and hosted-page callers). */
  legalEntityId?: string;
  /** The statuses the connection may be in for the move to happen; each must allow `to`. */
  from: readonly ConnectionStatus[];
  to: ConnectionStatus;
  /** Why (shown as `status_reason`; null clears it). Never a secret. */
  reason: string | null;
  /** Other columns that change with the status (the hosted page attaches the login). */
  set?: { login_id?: string };
  /** Work that must commit with the move or not at all (e.g. writing the account's details on `connected`). */
  effects?: (trx: Transaction<Database>, row: ConnectionRow) => Promise<void>;
  /**
   * Records the move's `connection.status_changed` event, after the effects (connection-events.ts). Every caller
   * of the module passes it; tests that only set a connection up may leave it out.
   */
  announce?: (trx: Db, row: ConnectionRow) => Promise<void>;
}

export type TransitionResult = MovedConnection;

/**
 * Moves a connection to `to` if, and only if, it is in one of `from` right now: one conditional UPDATE
 * (the row lock makes concurrent movers queue; the loser re-reads the winner's status and no longer
 * matches), the event row, any `effects` and the announced event in the same transaction. Returns null when the connection
 * is not (or no longer) in an allowed status, or does not exist in that scope: nothing was changed.
 */
export async function transition(db: Db, request: TransitionRequest): Promise<TransitionResult | null> {
  if (request.from.length === 0) throw new Error('transition needs at least one allowed status');
  for (const from of request.from) if (!canTransition(from, request.to)) throw new InvalidTransitionError(from, request.to);
  return db.transaction().execute(async (trx) => {
    const repo = createConnectionsRepository(trx);
    const row = await repo.moveStatus({
      connectionId: request.connectionId,
      legalEntityId: request.legalEntityId,
      from: request.from,
      to: request.to,
      reason: request.reason,
      loginId: request.set?.login_id,
    });
    if (!row) return null;
    await repo.insertEvent({
      connection_id: row.id,
      legal_entity_id: row.legal_entity_id,
      from_status: row.previous_status,
      to_status: request.to,
      reason: request.reason,
      occurred_at: row.status_changed_at,
    });
    const { previous_status: _, ...connection } = row;
    if (request.effects) await request.effects(trx, connection);
    if (request.announce) await request.announce(trx, connection);
    return row;
  });
}

/** Records the creation of a connection (no previous status) in its event log. */
export async function recordCreated(trx: Transaction<Database> | Db, row: ConnectionRow): Promise<void> {
  await createConnectionsRepository(trx).insertEvent({
    connection_id: row.id,
    legal_entity_id: row.legal_entity_id,
    from_status: null,
    to_status: row.status,
    reason: row.status_reason,
    occurred_at: row.created_at,
  });
}
