import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { EventPayloadSchemas } from './contract.js';
import { createEventFeed } from './event-feed.js';
import { createEventLog } from './event-log.js';
import { eventJobs } from './events.jobs.js';
import { eventWebhooksDocument } from './events.openapi.js';
import { eventRoutes, type EventRoutesDeps } from './events.routes.js';
import { createEventsService } from './events.service.js';

/** The recorder alone, over no module: the CLI, the demo and the bench record with it. */
export { createEventsService } from './events.service.js';

export interface EventsModuleDeps {
  db: Db;
  now: () => Date;
  /** Days an event is kept (config.events.retentionDays). */
  retentionDays: number;
  /** Each type's payload schema, from the module that owns the resource (src/event-payloads.ts). */
  payloads: EventPayloadSchemas;
}

/**
 * Events: the outbox every module records its changes into (`events`, given to the modules), the feed webhook
 * deliveries read it through (`feed`), GET /v2/events, the OpenAPI `webhooks` section and the retention job
 * (docs/events.md).
 */
export function createEventsModule(deps: EventsModuleDeps) {
  const events = createEventsService();
  const log = createEventLog(deps);
  return {
    events,
    log,
    feed: createEventFeed(),
    /** The OpenAPI document's `webhooks` section and the payload schemas it references. */
    openApi: eventWebhooksDocument(deps.payloads),
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
