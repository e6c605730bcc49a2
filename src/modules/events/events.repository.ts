import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { NewEvent } from './events.types.js';

export const EVENT_ID_PREFIX = 'evt';

/** Every query of the event outbox. */
export function createEventsRepository(db: Db) {
  return {
    /** One multi-row insert; `xid`, `seq` and `created_at` come from the column defaults (the writing transaction). */
    async insert(events: readonly NewEvent[]): Promise<void> {
      if (events.length === 0) return;
      await db.insertInto('events').values(events.map((e) => ({
        id: newId(EVENT_ID_PREFIX),
        platform_id: e.platformId,
        legal_entity_id: e.legalEntityId,
        type: e.type,
        data: JSON.stringify(e.data),
      }))).execute();
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
