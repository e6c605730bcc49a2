import type { Db } from '../../db/database.js';
import type { EventData, EventFeed, EventType, PlatformEvent } from './contract.js';
import { createEventsRepository, type EventsRepository } from './events.repository.js';

/** The log as webhook deliveries read it (the `EventFeed` of the contract): the events module's queries only. */
export function createEventFeed(repositoryFor: (db: Db) => EventsRepository = createEventsRepository): EventFeed {
  return {
    snapshotXmin: (db) => repositoryFor(db).snapshotXmin(),
    after: (db, after, xmin, limit) => repositoryFor(db).after(after, xmin, limit),
    anyAfter: (db, after) => repositoryFor(db).anyAfter(after),
    async get(db, platformId, eventId) {
      const row = await repositoryFor(db).find(platformId, eventId);
      return row && toPlatformEvent(row);
    },
    async typesOf(db, platformId, eventIds) {
      const rows = await repositoryFor(db).typesOf(platformId, eventIds);
      return new Map(rows.map((r) => [r.id, r.type as EventType]));
    },
  };
}

/** The event as GET /v2/events answers it and every delivery of it carries. */
export const toPlatformEvent = (row: {
  id: string;
  type: string;
  created_at: Date;
  legal_entity_id: string | null;
  data: unknown;
}): PlatformEvent => ({
  id: row.id,
  type: row.type as EventType,
  created_at: row.created_at.toISOString(),
  legal_entity_id: row.legal_entity_id,
  data: row.data as EventData,
});
