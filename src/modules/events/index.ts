import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import { createEventLog } from './event-log.js';
import { eventJobs } from './events.jobs.js';
import { eventRoutes, type EventRoutesDeps } from './events.routes.js';
import { createEventsService } from './events.service.js';

export { EVENT_TYPES, isEventType } from './events.types.js';
export { eventWebhooksDocument } from './events.openapi.js';
export { createEventsService } from './events.service.js';
export type {
  EventType,
  EventData,
  NewEvent,
  PlatformEvent,
  EventRecorder,
  TaskChange,
  TaskChangeCause,
  TaskEvents,
} from './events.types.js';

export interface EventsModuleDeps {
  db: Db;
  now: () => Date;
  /** Days an event is kept (config.events.retentionDays). */
  retentionDays: number;
}

/**
 * Events: the outbox every module records its changes into (`events`, given to the modules), GET /v2/events and
 * the retention job (docs/events.md). The CLI and the demo record with `createEventsService()` alone.
 */
export function createEventsModule(deps: EventsModuleDeps) {
  const events = createEventsService();
  const log = createEventLog(deps);
  return {
    events,
    log,
    jobs: eventJobs(log),
    /** GET /v2/events. */
    routes:
      (http: { auth: AuthHooks; entities: EventRoutesDeps['entities'] }): FastifyPluginAsync =>
      async (app) => {
        await app.register(eventRoutes({ log, auth: http.auth, entities: http.entities }));
      },
  };
}

export type EventsModule = ReturnType<typeof createEventsModule>;
