import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { createEventsService } from './events.service.js';

export { EVENT_TYPES, isEventType } from './events.types.js';
export type { EventType, EventData, NewEvent, PlatformEvent, EventRecorder, TaskChange, TaskEvents } from './events.types.js';

export interface EventsModuleDeps {
  db: Db;
}

/** Events: the outbox every module records its changes into (docs/events.md). */
export function createEventsModule(_deps: EventsModuleDeps) {
  const events = createEventsService();
  const jobs: JobDefinition[] = [];
  return { events, jobs };
}

export type EventsModule = ReturnType<typeof createEventsModule>;
