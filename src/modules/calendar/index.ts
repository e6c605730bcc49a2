import type { FastifyPluginAsync } from 'fastify';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import { calendarPageRoutes } from './calendar-pages.routes.js';
import { calendarRoutes } from './calendar.routes.js';
import { createCalendarService, type CalendarServiceDeps } from './calendar.service.js';

export { createCalendarTokenRotation } from './calendar-token-rotation.js';

/** The calendar feed of an entity's dated tasks: its secret URL (API and hosted forms) and the feed behind it (docs/calendar.md). */
export function createCalendarModule(deps: CalendarServiceDeps) {
  const calendar = createCalendarService(deps);
  return {
    calendar,
    jobs: [] as JobDefinition[],
    /** POST/DELETE /v2/tasks/calendar, GET /calendar/{token}.ics and the task list's forms (POST /hosted/calendar…). */
    routes(http: { auth: AuthHooks; sessions: Pick<HostedSessionsService, 'check'>; publicOrigin: string }): FastifyPluginAsync {
      return async (app) => {
        await app.register(calendarRoutes({ calendar, auth: http.auth }));
        await app.register(calendarPageRoutes({ calendar, sessions: http.sessions, publicOrigin: http.publicOrigin }));
      };
    },
  };
}
