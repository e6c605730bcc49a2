import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.js';
import { renderHomePage, HOME_LINKS } from '../../pages/home-page.js';
import { sendPage } from '../../http/pages.js';
import type { SystemRepository } from './system.repository.js';

const HealthSchema = Type.Object({ status: Type.String() }, { title: 'Health' });

/** GET /healthz, GET /readyz (the database answers a statement), GET /openapi.json and the home page GET /. */
export function systemRoutes(deps: { repo: Pick<SystemRepository, 'ping'> }) {
  return async (app: FastifyInstance) => {
    app.get(
      '/healthz',
      {
        schema: {
          operationId: 'health',
          tags: ['Operations'],
          summary: 'Liveness: the process is serving',
          response: { 200: HealthSchema },
        },
      },
      async () => ({ status: 'ok' }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          operationId: 'ready',
          tags: ['Operations'],
          summary: 'Readiness: the database is reachable',
          response: { 200: HealthSchema, 503: HealthSchema },
        },
      },
      async (_request, reply) => {
        try {
          await deps.repo.ping();
          return { status: 'ok' };
        } catch {
          return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable' });
        }
      },
    );

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    // A person opening the server's address gets a page that leads somewhere; an API client asking for JSON, the links.
    app.get('/', { schema: { hide: true } }, async (request, reply) => {
      if (prefersJson(request.headers.accept)) return { name: 'Statehouse', links: HOME_LINKS };
      return sendPage(reply, renderHomePage());
    });
  };
}

/** JSON when the Accept header ranks application/json above text/html (an API client); HTML otherwise (a browser, curl's any). */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const rank = (type: string) => {
    let best = -1;
    for (const part of accept.split(',')) {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      if (name.trim() !== type) continue;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      best = Math.max(best, q ? Number(q.slice(2)) || 0 : 1);
    }
    return best;
  };
  const json = rank('application/json');
  return json > 0 && json > rank('text/html');
}
