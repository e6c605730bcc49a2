import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { resolveRegion } from '../../catalog/regions.js';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { NotFoundError } from '../../lib/errors.js';
import { RegionPlatformIdParamsSchema } from '../locations/contract.js';
import { toAccountTask, type RecordContext } from './tasks.views.js';
import { AccountTaskSchema } from './tasks.schemas.js';
import {
  ListLocationTasksQuerySchema,
  ListTasksQuerySchema,
  TaskIdParamsSchema,
  UpdateTaskStatusSchema,
} from './tasks-requests.schemas.js';
import type { TaskFilter } from './tasks.fns.js';
import type { TasksService } from './tasks.service.js';
import { canonicalQuery, type TaskListCache } from './task-list-cache.js';

const ORDER_DOC =
  'Ordered by importance: open tasks first; among them overdue, then due within 30 days, then the rest; then tasks other ' +
  'requirements wait for; then priority (high, medium, low); then due date (undated last). See docs/tasks.md.';

export function taskRoutes(deps: { tasks: TasksService; records: RecordContext; auth: AuthHooks; cache: TaskListCache }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { tasks, records } = deps;
    const common = { onRequest: deps.auth.bearer };
    const tags = ['Tasks'];
    const security = [{ bearer: [] }];

    /** A task list, serialised by the route's schema once and reused while the entity's tasks are unchanged. */
    async function sendList(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      filter: TaskFilter,
      order: 'importance' | 'due-date',
    ) {
      const scope = scopeOf(request);
      const entry = await deps.cache.get(scope.legalEntityId, `${key}@${await tasks.todayOf(scope.legalEntityId)}`, async () => {
        const found = await tasks.search(scope, filter, order);
        return { body: reply.serializeInput(found.map((v) => toAccountTask(records, v)) as never, '200') as string };
      });
      return reply.type('application/json; charset=utf-8').send(entry.body as never);
    }

    r.get(
      '/tasks',
      {
        ...common,
        schema: {
          operationId: 'listTasks',
          tags,
          security,
          summary: 'Compliance tasks of the legal entity',
          description: ORDER_DOC,
          querystring: ListTasksQuerySchema,
          response: { 200: Type.Array(AccountTaskSchema), ...errorResponses(401, 422) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        return sendList(
          request,
          reply,
          `GET /tasks?${canonicalQuery(q)}`,
          {
            definitionId: q.definition_id,
            startDate: q.start_date,
            endDate: q.end_date,
            statuses: q.status,
            tags: q.tags,
          },
          'importance',
        );
      },
    );

    r.get(
      '/locations/:region_platform_public_id/tasks',
      {
        ...common,
        schema: {
          operationId: 'listLocationTasks',
          tags,
          security,
          summary: 'Compliance tasks of one location',
          description: 'Ordered by due date ascending, tasks without a due date first.',
          params: RegionPlatformIdParamsSchema,
          querystring: ListLocationTasksQuerySchema,
          response: { 200: Type.Array(AccountTaskSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request, reply) => {
        const region = resolveRegion(request.params.region_platform_public_id);
        if (!region) throw new NotFoundError(`Location '${request.params.region_platform_public_id}' not found`);
        const q = request.query;
        return sendList(
          request,
          reply,
          `GET /locations/${region.code}/tasks?${canonicalQuery(q)}`,
          {
            definitionId: q.definition_id,
            startDate: q.start_date,
            endDate: q.end_date,
            statuses: q.status,
            regionCode: region.code,
          },
          'due-date',
        );
      },
    );

    r.get(
      '/tasks/:task_id',
      {
        ...common,
        schema: {
          operationId: 'getTask',
          tags,
          security,
          summary: 'One task',
          params: TaskIdParamsSchema,
          response: { 200: AccountTaskSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => toAccountTask(records, await tasks.get(scopeOf(request), request.params.task_id)),
    );

    r.patch(
      '/tasks/:task_id',
      {
        ...common,
        schema: {
          operationId: 'updateTaskStatus',
          tags,
          security,
          summary: 'Change the status of a task',
          description:
            'todo → in-progress, done or dismissed; in-progress → todo, done or dismissed; done or dismissed → todo. Other changes are 409.',
          params: TaskIdParamsSchema,
          body: UpdateTaskStatusSchema,
          response: { 200: AccountTaskSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => {
        const { task } = await tasks.updateStatus(scopeOf(request), request.params.task_id, request.body.status);
        return toAccountTask(records, task);
      },
    );
  };
}
