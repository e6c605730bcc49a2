import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { nextPageHeaders, PAGE_HEADERS } from '../../http/paging.js';
import type { PlatformPrincipal } from '../../http/principals.js';
import { errorResponses } from '../../http/schemas.js';
import type { EventLog } from './event-log.js';
import { ListEventsQuerySchema, PlatformEventSchema } from './events.schemas.js';

export interface EventRoutesDeps {
  log: Pick<EventLog, 'list'>;
  auth: AuthHooks;
  /** The platform's legal entity; a 404 for an unknown one or another platform's (legal-entities' signup service). */
  entities: { get(platform: Pick<PlatformPrincipal, 'platformId'>, legalEntityId: string): Promise<unknown> };
}

const DEFAULT_LIMIT = 100;

export function eventRoutes(deps: EventRoutesDeps) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(
      '/v2/events',
      {
        onRequest: deps.auth.apiKey,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'listEventsV2',
          tags: ['Events'],
          security: [{ apiKey: [] }],
          summary: "The platform's events, oldest first",
          description:
            'Every change the platform cares about, in the order the changes committed (docs/events.md). Page with `starting_after` ' +
            '(the last event id you read): X-Next-Page (the next URL) and a Link rel="next" header are present when more events follow now; ' +
            'X-Page-Size is the limit. Events are kept EVENTS_RETENTION_DAYS (30).',
          querystring: ListEventsQuerySchema,
          response: { 200: Type.Array(PlatformEventSchema), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const platform = platformOf(request);
        if (q.legal_entity_id !== undefined) await deps.entities.get(platform, q.legal_entity_id);
        const limit = q.limit ?? DEFAULT_LIMIT;
        const page = await deps.log.list(platform.platformId, {
          types: q.type,
          legalEntityId: q.legal_entity_id,
          startingAfter: q.starting_after,
          limit,
        });
        const last = page.events.at(-1);
        reply.headers({
          [PAGE_HEADERS.size]: String(limit),
          ...(page.hasMore && last && nextPageHeaders(request.url, { starting_after: last.id, limit: String(limit) })),
        });
        return page.events;
      },
    );
  };
}
