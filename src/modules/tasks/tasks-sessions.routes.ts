import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { resolveRegion } from '../../catalog/regions.js';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import {
  errorResponses,
  CallbackUrlString,
  Nullable,
  PlatformErrorSchema,
  SessionResultSchema,
  StringEnum,
  BoundedString,
} from '../../http/schemas.js';
import { ConflictError, fieldError } from '../../lib/errors.js';
import type { AutomationsService } from '../automations/contract.js';
import type { HostedSessionsService } from '../hosted-sessions/contract.js';
import { automationOf } from './task-view.js';
import { TaskIdParamsSchema } from './tasks-requests.schemas.js';
import type { TasksService } from './tasks.service.js';

const CallbackBody = Type.Object(
  { callback_url: CallbackUrlString({ description: 'Where the user returns when done.' }) },
  { title: 'TasksSessionRequest' },
);
const ManageBody = Type.Object(
  {
    callback_url: CallbackUrlString(),
    region_id: Type.Optional(Nullable(BoundedString(64, { description: 'Only this region (location id or two-letter code).' }))),
    task_type: StringEnum(['requirement', 'question'] as const),
    status: Type.Optional(StringEnum(['todo', 'overdue', 'done', 'automated', 'managed'] as const, { default: 'todo' })),
  },
  { title: 'HostedManageTasksSessionRequest' },
);
const AutomationResponse = Type.Object(
  { automation_url: Type.String(), created_at: Type.String({ format: 'date-time' }), expires_at: Type.String({ format: 'date-time' }) },
  { title: 'AutomationSessionResponse' },
);

/** The session operations behind the hosted task pages (POST /tasks/{task_id}/automate/sessions, POST /tasks/sessions, and the v2 ones). */
export function taskSessionRoutes(deps: {
  tasks: TasksService;
  automations: Pick<AutomationsService, 'forTask' | 'start'>;
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  auth: AuthHooks;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Hosted sessions'];
    const security = [{ bearer: [] }];

    r.post(
      '/tasks/sessions',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'createTasksSession',
          tags,
          security,
          summary: 'A hosted page where the user sees and acts on the tasks',
          body: CallbackBody,
          response: { 200: SessionResultSchema, ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'tasks',
          callbackUrl: request.body.callback_url,
        });
      },
    );

    r.post(
      '/v2/tasks/manage/session',
      {
        onRequest: deps.auth.bearer,
        // The reference v2 document gives this operation's 422 as PlatformHttpException ({message, detail: string}).
        config: { errorStyle: 'platform', validationShape: 'PlatformHttpException' },
        schema: {
          operationId: 'createTasksManagementSessionV2',
          tags,
          security,
          summary: 'A hosted task page limited to a task type, a status and optionally a region',
          description: 'Question tasks can be shown as todo or done only.',
          body: ManageBody,
          response: { 200: SessionResultSchema, 401: PlatformErrorSchema, 404: PlatformErrorSchema },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        const body = request.body;
        const status = body.status ?? 'todo';
        if (body.task_type === 'question' && status !== 'todo' && status !== 'done') {
          throw fieldError(['body', 'status'], 'question tasks can be shown as todo or done only', status, body);
        }
        const region = body.region_id ? resolveRegion(body.region_id) : null;
        if (body.region_id && !region) {
          throw fieldError(['body', 'region_id'], `unknown region '${body.region_id}'`, body.region_id, body);
        }
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'tasks',
          callbackUrl: body.callback_url,
          scope: { task_type: body.task_type, status, ...(region && { region_id: region.code }) },
        });
      },
    );

    r.post(
      '/v2/tasks/:task_id/session',
      {
        onRequest: deps.auth.bearer,
        config: { errorStyle: 'platform' },
        schema: {
          operationId: 'createTaskResolutionSessionV2',
          tags,
          security,
          summary: 'A hosted page for one task',
          params: TaskIdParamsSchema,
          body: CallbackBody,
          response: { 200: SessionResultSchema, 401: PlatformErrorSchema, 404: PlatformErrorSchema },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        const task = await deps.tasks.get(scope, request.params.task_id);
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'task',
          callbackUrl: request.body.callback_url,
          scope: { task_id: task.row.id },
        });
      },
    );

    r.post(
      '/tasks/:task_id/automate/sessions',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'createTaskAutomationSession',
          tags,
          security,
          summary: 'Start the automation of a task',
          description:
            'When the automation needs input, `automation_url` is a hosted form collecting it. When it needs none, the automation starts ' +
            'at once (the task moves to in-progress). Once started, `automation_url` shows its progress and results; for a done task it ' +
            "says so. A task that cannot be automated is 409. This is the automate resolution's `hosted_url`.",
          params: TaskIdParamsSchema,
          body: CallbackBody,
          response: { 200: AutomationResponse, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        const taskId = request.params.task_id;
        const definition = automationOf(await deps.tasks.get(scope, taskId));
        if (!definition) throw new ConflictError(`Task '${taskId}' cannot be automated: complete it with its manual steps`);
        // Needing no input, the automation starts at once (unless it runs or is complete: the page then shows it; a
        // done task is 409); only for an allowed callback, and before the link exists.
        const latest = await deps.automations.forTask(scope, taskId);
        const startNow = definition.fields.length === 0 && !isLive(latest) && latest?.status !== 'complete';
        const { url, created_at, expires_at } = await deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'automation',
          callbackUrl: request.body.callback_url,
          scope: { task_id: taskId },
          ...(startNow && { beforeIssue: () => deps.automations.start(scope, taskId, {}) }),
        });
        return { automation_url: url, created_at, expires_at };
      },
    );
  };
}

/** An automation still under way (not complete or canceled). */
const isLive = (automation: { status: string } | undefined) =>
  !!automation && automation.status !== 'complete' && automation.status !== 'canceled';
