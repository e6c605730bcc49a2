import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { ErrorSchema, PlatformErrorSchema } from '../../http/schemas.js';
import { CALENDAR_FEED_PATH, type CalendarService } from './contract.js';

const CalendarSubscriptionSchema = Type.Object(
  {
    url: Type.String({
      description: 'The secret subscription URL (`…/calendar/<token>.ics`): whoever has it can read the feed until it is revoked.',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'CalendarSubscription' },
);
const FeedParams = Type.Object({ file: Type.String() });

/** An If-None-Match header names this entity tag (a list, weak tags, or `*`). */
const matchesTag = (header: string | undefined, etag: string) =>
  !!header &&
  header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });

/** POST and DELETE /v2/tasks/calendar (the entity's token), and the feed itself (GET /calendar/{token}.ics, the URL is the credential). */
export function calendarRoutes(deps: { calendar: CalendarService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Tasks'];
    const common = { onRequest: deps.auth.bearer, config: { errorStyle: 'platform' as const } };
    const security = [{ bearer: [] }];

    r.post(
      '/v2/tasks/calendar',
      {
        ...common,
        schema: {
          operationId: 'createTaskCalendarV2',
          tags,
          security,
          summary: "The secret URL of a calendar of the entity's dated tasks",
          description:
            "An iCalendar feed (RFC 5545) of the entity's open tasks with a due date, for Google Calendar, Outlook or Apple Calendar. " +
            '201 with a new URL; 200 with the same URL while one is live. DELETE /v2/tasks/calendar revokes it (docs/calendar.md).',
          response: { 200: CalendarSubscriptionSchema, 201: CalendarSubscriptionSchema, 401: PlatformErrorSchema },
        },
      },
      async (request, reply) => {
        const { created, ...subscription } = await deps.calendar.subscribe(scopeOf(request));
        return reply.code(created ? 201 : 200).send(subscription);
      },
    );

    r.delete(
      '/v2/tasks/calendar',
      {
        ...common,
        schema: {
          operationId: 'revokeTaskCalendarV2',
          tags,
          security,
          summary: 'Stop sharing the calendar: its URL answers 404 at once (idempotent)',
          description: 'A later POST /v2/tasks/calendar makes a new URL.',
          response: { 204: Type.Null({ description: 'Revoked, or there was nothing to revoke.' }), 401: PlatformErrorSchema },
        },
      },
      async (request, reply) => {
        await deps.calendar.revoke(scopeOf(request));
        return reply.code(204).send(null);
      },
    );

    r.get(
      `${CALENDAR_FEED_PATH}:file`,
      {
        schema: {
          operationId: 'getTaskCalendarFeed',
          tags,
          security: [],
          summary: 'The calendar feed (secret URL)',
          description:
            'The `url` of POST /v2/tasks/calendar. No Authorization header: the token in the path is the credential. All-day events on ' +
            'the due dates of open tasks; cacheable privately for 5 minutes, with an ETag. An unknown or revoked URL is a 404.',
          params: FeedParams,
          response: {
            200: { description: 'The iCalendar text.', content: { 'text/calendar': { schema: { type: 'string' } } } },
            304: Type.Null({ description: 'Not modified (If-None-Match named the current ETag).' }),
            404: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const file = request.params.file;
        const ics = file.endsWith('.ics') ? await deps.calendar.feed(file.slice(0, -'.ics'.length)) : null;
        // The same answer as a path that never existed: nothing tells a revoked URL from a made-up one.
        if (ics === null) return reply.code(404).send({ detail: 'Not Found' });
        const etag = `"${createHash('sha256').update(ics).digest('base64url').slice(0, 32)}"`;
        reply
          .header('etag', etag)
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer');
        if (matchesTag(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
        return reply.type('text/calendar; charset=utf-8').header('content-disposition', 'inline; filename="compliance.ics"').send(ics);
      },
    );
  };
}
