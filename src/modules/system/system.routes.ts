import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.js';
import type { SystemRepository } from './system.repository.js';

const HealthSchema = Type.Object({ status: Type.String() }, { title: 'Health' });

/** GET /healthz, GET /readyz (the database answers a statement) and GET /openapi.json. */
export function systemRoutes(deps: { repo: Pick<SystemRepository, 'ping'> }) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', {
      schema: { operationId: 'health', tags: ['Operations'], summary: 'Liveness: the process is serving', response: { 200: HealthSchema } },
    }, async () => ({ status: 'ok' }));

    app.get('/readyz', {
      schema: {
        operationId: 'ready', tags: ['Operations'], summary: 'Readiness: the database is reachable',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    }, async (_request, reply) => {
      try {
        await deps.repo.ping();
        return { status: 'ok' };
      } catch {
        return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable' });
      }
    });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  };
}
