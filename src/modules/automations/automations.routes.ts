import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { BoundedString, errorResponses, PlatformErrorSchema } from '../../http/schemas.js';
import { NotFoundError } from '../../lib/errors.js';
import { AutomationAnswerSchema, AutomationInputSchema, AutomationStateSchema, toAutomationState } from './automations.schemas.js';
import type { AutomationsService } from './contract.js';

const TaskParams = Type.Object({ task_id: BoundedString(64) });

/**
 * POST /tasks/{task_id}/automate (the automate resolution's `submit_url`), GET /tasks/{task_id}/automation and
 * POST /tasks/{task_id}/automation/answer (the `submit_url` while the automation waits on the owner's answer).
 */
export function automationRoutes(deps: { automations: Pick<AutomationsService, 'start' | 'forTask' | 'answer'>; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Automations'];
    const security = [{ bearer: [] }];

    r.post(
      '/tasks/:task_id/automate',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'startTaskAutomation',
          tags,
          security,
          summary: "Start a task's automation with input collected by the platform",
          description:
            "The fields of the task's `resolutions.automate.form_spec` as JSON. Answers the automation's state; follow it with " +
            'GET /tasks/{task_id}/automation. 409 (`{message, detail}`) when the task is done or dismissed, cannot be automated, ' +
            'or its automation is already running; 422 per field that does not fit.',
          params: TaskParams,
          body: AutomationInputSchema,
          response: { 201: AutomationStateSchema, ...errorResponses(401, 404, 422), 409: PlatformErrorSchema },
        },
      },
      async (request, reply) => {
        const view = await deps.automations.start(scopeOf(request), request.params.task_id, request.body);
        return reply.code(201).send(toAutomationState(view));
      },
    );

    r.post(
      '/tasks/:task_id/automation/answer',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'answerTaskAutomation',
          tags,
          security,
          summary: "The owner's answer to the question of an automation waiting on them, collected in the platform's own UI",
          description:
            'While the automation is `waiting_on_customer_response` (its `customer_message` says what is needed): `response`, the answer ' +
            "as text (at most 2000 characters), and/or corrected fields of the task's form_spec, which replace the stored ones. " +
            'The automation goes back to its performer (`started`); answers its state. 409 (`{message, detail}`) when it is not ' +
            'waiting on an answer; 422 per field that does not fit, or when the body answers nothing.',
          params: TaskParams,
          body: AutomationAnswerSchema,
          response: { 200: AutomationStateSchema, ...errorResponses(401, 404, 422), 409: PlatformErrorSchema },
        },
      },
      async (request) => toAutomationState(await deps.automations.answer(scopeOf(request), request.params.task_id, request.body)),
    );

    r.get(
      '/tasks/:task_id/automation',
      {
        onRequest: deps.auth.bearer,
        schema: {
          operationId: 'getTaskAutomation',
          tags,
          security,
          summary: "The task's latest automation: status, steps, status log, masked input and outputs",
          params: TaskParams,
          response: { 200: AutomationStateSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const view = await deps.automations.forTask(scopeOf(request), request.params.task_id);
        if (!view) throw new NotFoundError(`Task '${request.params.task_id}' has no automation`);
        return toAutomationState(view);
      },
    );
  };
}
