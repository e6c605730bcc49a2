import type { Db } from '../../db/database.js';
import { createEventsRepository, type EventsRepository } from './events.repository.js';
import type { EventRecorder, NewEvent } from './contract.js';

export interface EventsDeps {
  /** The queries over a database or transaction (a fake in unit tests). */
  repositoryFor?: (db: Db) => EventsRepository;
}

/** Records events in the caller's transaction: they exist exactly when the change they describe commits. */
export function createEventsService(deps: EventsDeps = {}): EventRecorder {
  const repositoryFor = deps.repositoryFor ?? createEventsRepository;
  return {
    async record(trx: Db, events: NewEvent | readonly NewEvent[]) {
      await repositoryFor(trx).insert(Array.isArray(events) ? events : [events as NewEvent]);
    },
  };
}
