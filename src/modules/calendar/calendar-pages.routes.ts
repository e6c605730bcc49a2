import type { FastifyInstance } from 'fastify';
import { hostedOf, requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { offersCalendar, type CalendarService } from './contract.js';

/** The task list's "Subscribe in your calendar" forms: POST /hosted/calendar (get the link) and /hosted/calendar/stop (revoke it). */
export function calendarPageRoutes(deps: {
  calendar: CalendarService;
  sessions: Pick<HostedSessionsService, 'check'>;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const options = { preHandler: requireHostedSession(deps, ['tasks']), schema: { hide: true } };
    const refused =
      '/hosted/tasks?error=' + encodeURIComponent('This page cannot share a calendar: ask your platform for your full task list.');

    app.post('/hosted/calendar', options, async (request, reply) => {
      const hosted = hostedOf(request);
      if (!offersCalendar(hosted.session.scope)) return reply.redirect(refused, 303);
      await deps.calendar.subscribe(hosted.scope);
      return reply.redirect('/hosted/tasks?calendar=on#calendar', 303);
    });

    app.post('/hosted/calendar/stop', options, async (request, reply) => {
      const hosted = hostedOf(request);
      if (!offersCalendar(hosted.session.scope)) return reply.redirect(refused, 303);
      await deps.calendar.revoke(hosted.scope);
      return reply.redirect('/hosted/tasks?calendar=off#calendar', 303);
    });
  };
}
