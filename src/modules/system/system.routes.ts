import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/database.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.js';

const HealthSchema = Type.Object({ status: Type.String() }, { title: 'Health' });

export function systemRoutes(deps: { db: Db }) {
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
        await sql`select 1`.execute(deps.db);
        return { status: 'ok' };
      } catch {
        return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable' });
      }
    });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  };
}
