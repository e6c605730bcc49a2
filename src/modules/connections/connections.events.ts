import type { Db } from '../../db/database.js';
import type { ConnectionRow } from '../../db/schema.js';
import type { EventRecorder } from '../events/contract.js';
import type { ConnectionViews } from './connections.views.js';
import { createConnectionsRepository } from './connections.repository.js';

/** Records one move of a connection in the move's transaction. */
export type ConnectionAnnouncer = (trx: Db, row: ConnectionRow) => Promise<void>;

/**
 * `connection.status_changed` with the connection as GET /accounts/connections/{id} answers it, read in the
 * move's transaction (after its effects: a `connected` event shows what the connector learned).
 */
export function createConnectionEvents(deps: { events: EventRecorder; views: ConnectionViews }): ConnectionAnnouncer {
  return async (trx, row) => {
    const object = await deps.views.view(createConnectionsRepository(trx), row);
    await deps.events.record(trx, {
      type: 'connection.status_changed',
      platformId: row.platform_id,
      legalEntityId: row.legal_entity_id,
      data: { object: { ...object }, changed: ['status'] },
    });
  };
}
