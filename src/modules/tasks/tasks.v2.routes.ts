import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { TASK_PAGE_HEADER_DOCS, taskPageHeaders } from '../../http/paging.js';
import { PlatformErrorSchema } from '../../http/schemas.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import { toPlatformTask, type RecordContext } from './tasks.views.js';
import { PlatformTaskSchema } from './tasks.schemas.js';
import {
  AnswerQuestionSchema,
  ListTasksV2QuerySchema,
  QuestionIdParamsSchema,
  TaskIdParamsSchema,
  UpdateTaskStatusV2Schema,
} from './tasks-requests.schemas.js';
import type { TasksService } from './tasks.service.js';
import { canonicalQuery, type TaskListCache } from './task-list-cache.js';

const errors = { 401: PlatformErrorSchema, 404: PlatformErrorSchema, 409: PlatformErrorSchema };

export function taskV2Routes(deps: { tasks: TasksService; records: RecordContext; auth: AuthHooks; cache: TaskListCache }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { tasks, records } = deps;
    // The v2 task operations answer errors as {message, detail}, like the reference document says.
    const common = { onRequest: deps.auth.bearer, config: { errorStyle: 'platform' as const } };
    // The reference v2 document gives the two PATCH operations' 422 as PlatformHttpException ({message, detail: string}).
    const referenceErrors = { errorStyle: 'platform', validationShape: 'PlatformHttpException' } as const;
    const tags = ['Tasks'];
    const security = [{ bearer: [] }];

    r.get(
      '/v2/tasks',
      {
        ...common,
        schema: {
          operationId: 'listTasksV2',
          tags,
          security,
          summary: 'Tasks, filtered and paginated',
          description:
            'Same order as GET /tasks. Pagination headers: X-Page-Size, X-Page, X-Total (all matching tasks) and, when there is a ' +
            'next page, X-Next-Page (its URL) and a Link header with rel="next"; the same values are also sent under the ' +
            'names the reference interface gives them (listed with the response headers below).',
          querystring: ListTasksV2QuerySchema,
          response: { 200: Type.Array(PlatformTaskSchema, { headers: TASK_PAGE_HEADER_DOCS }), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const scope = scopeOf(request);
        assertV2Scope(scope, q);
        const entry = await deps.cache.get(
          scope.legalEntityId,
          `GET /v2/tasks?${canonicalQuery(q)}@${await tasks.todayOf(scope.legalEntityId)}`,
          async () => {
            const found = await tasks.search(
              scope,
              {
                definitionId: q.definition_id,
                startDate: q.start_date,
                endDate: q.end_date,
                regionCode: q.region,
                kind: q.type,
                statuses: q.statuses?.map((s) => (s === 'deferred' ? 'dismissed' : s)),
                tags: q.tags,
                categories: q.categories,
              },
              'importance',
            );
            const size = q.page_size ?? 50;
            const page = q.page_num ?? 1;
            const headers = taskPageHeaders(request.url, { size, number: page, total: found.length });
            const items = found.slice((page - 1) * size, page * size).map((v) => toPlatformTask(records, v));
            return { body: reply.serializeInput(items as never, '200') as string, headers };
          },
        );
        return reply
          .headers(entry.headers)
          .type('application/json; charset=utf-8')
          .send(entry.body as never); // already serialised by this route's schema
      },
    );

    r.get(
      '/v2/tasks/:task_id',
      {
        ...common,
        schema: {
          operationId: 'getTaskV2',
          tags,
          security,
          summary: 'One task',
          params: TaskIdParamsSchema,
          querystring: V2ScopeQuerySchema,
          response: { 200: PlatformTaskSchema, ...errors },
        },
      },
      async (request) => {
        assertV2Scope(scopeOf(request), request.query);
        return toPlatformTask(records, await tasks.get(scopeOf(request), request.params.task_id));
      },
    );

    r.patch(
      '/v2/tasks/:task_id',
      {
        ...common,
        config: referenceErrors,
        schema: {
          operationId: 'updateTaskStatusV2',
          tags,
          security,
          summary: 'Mark a requirement task todo or done',
          description:
            'Question tasks are answered with PATCH /v2/tasks/questions/{id}. Returns the task and the tasks the change unlocked.',
          params: TaskIdParamsSchema,
          querystring: V2ScopeQuerySchema,
          body: UpdateTaskStatusV2Schema,
          response: {
            200: Type.Object(
              { task: PlatformTaskSchema, unlocked_tasks: Type.Array(PlatformTaskSchema) },
              { title: 'PlatformUpdateTaskStatusResponse' },
            ),
            ...errors,
          },
        },
      },
      async (request) => {
        assertV2Scope(scopeOf(request), request.query);
        const { task, unlocked } = await tasks.updateStatus(scopeOf(request), request.params.task_id, request.body.status);
        return { task: toPlatformTask(records, task), unlocked_tasks: unlocked.map((v) => toPlatformTask(records, v)) };
      },
    );

    r.patch(
      '/v2/tasks/questions/:question_task_id',
      {
        ...common,
        config: referenceErrors,
        schema: {
          operationId: 'answerQuestionV2',
          tags,
          security,
          summary: 'Answer a question task',
          description: 'The answer must fit the question (`answer_type`: boolean, number or date). Returns the tasks the answer unlocked.',
          params: QuestionIdParamsSchema,
          querystring: V2ScopeQuerySchema,
          body: AnswerQuestionSchema,
          response: {
            200: Type.Object({ unlocked_tasks: Type.Array(PlatformTaskSchema) }, { title: 'PlatformUpdateQuestionTaskStatusResponse' }),
            ...errors,
          },
        },
      },
      async (request) => {
        assertV2Scope(scopeOf(request), request.query);
        const { unlocked } = await tasks.answer(scopeOf(request), request.params.question_task_id, request.body.answer);
        return { unlocked_tasks: unlocked.map((v) => toPlatformTask(records, v)) };
      },
    );
  };
}
