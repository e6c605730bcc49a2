import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { renderAutomationForm, renderAutomationStatus } from '../../pages/automation-pages.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { checkField, type AutomationService } from './automation.service.js';
import { callbackTarget, formOf, hostedOf, requireHostedSession, sendPage } from '../hosted-sessions/hosted-http.js';
import type { HostedSessionsService } from '../hosted-sessions/hosted-sessions.service.js';

const TaskParams = Type.Object({ task_id: BoundedString(64) });

/** The input form an automation needs (POST /tasks/{task_id}/automate/sessions), and its status once started. */
export function automationPageRoutes(deps: { sessions: Pick<HostedSessionsService, 'check' | 'endBrowserSession'>; automation: AutomationService; publicOrigin: string }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const options = { preHandler: requireHostedSession(deps, ['automation']), schema: { hide: true, params: TaskParams } };

    const load = async (request: { params: { task_id: string } } & Parameters<typeof hostedOf>[0]) => {
      const hosted = hostedOf(request);
      if (hosted.session.scope.task_id !== request.params.task_id) return null;
      try {
        return { hosted, ...(await deps.automation.automatable(hosted.scope, request.params.task_id)) };
      } catch (error) {
        if (error instanceof HttpError && error.status < 500) return null;
        throw error;
      }
    };
    const titleOf = (view: Awaited<ReturnType<AutomationService['automatable']>>['view']) => (view.kind === 'requirement' ? view.definition.title : view.question.title);

    r.get('/hosted/automation/:task_id', options, async (request, reply) => {
      const found = await load(request);
      if (!found) return sendPage(reply, renderMessagePage({ title: 'Task not found', body: 'This task cannot be automated here.' }), { status: 404 });
      const { hosted, view, fields, automation } = found;
      if (automation) {
        return sendPage(reply, renderAutomationStatus({ platformName: hosted.platformName, title: titleOf(view), status: automation.status, history: automation.history, callbackUrl: hosted.session.callback_url }));
      }
      return sendPage(reply, renderAutomationForm({ platformName: hosted.platformName, title: titleOf(view), taskId: view.row.id, fields, values: {}, errors: {}, csrf: hosted.csrf }), { formTarget: hosted.session.callback_url });
    });

    r.post('/hosted/automation/:task_id', options, async (request, reply) => {
      const found = await load(request);
      if (!found) return sendPage(reply, renderMessagePage({ title: 'Task not found', body: 'This task cannot be automated here.' }), { status: 404 });
      const { hosted, view, fields, automation } = found;
      if (automation) return reply.redirect(`/hosted/automation/${view.row.id}`, 303);
      const form = formOf(request);
      const errors: Record<string, string> = {};
      const input: Record<string, unknown> = {};
      for (const f of fields) {
        const result = checkField(f, form[f.name]);
        if ('error' in result) errors[f.name] = result.error;
        else input[f.name] = result.value;
      }
      if (Object.keys(errors).length > 0) {
        return sendPage(reply, renderAutomationForm({ platformName: hosted.platformName, title: titleOf(view), taskId: view.row.id, fields, values: form, errors, csrf: hosted.csrf }), { status: 422, formTarget: hosted.session.callback_url });
      }
      try {
        await deps.automation.start(hosted.scope, view.row.id, input);
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 409)) throw error;
      }
      await deps.sessions.endBrowserSession(hosted.session);
      const callback = hosted.session.callback_url;
      if (callback) {
        const target = new URL(callbackTarget(callback, hosted.scope.legalEntityId, 'started'));
        target.searchParams.set('task_id', view.row.id);
        return reply.header('referrer-policy', 'no-referrer').redirect(target.toString(), 303);
      }
      const started = await deps.automation.find(hosted.scope.legalEntityId, view.row.id);
      return sendPage(reply, renderAutomationStatus({ platformName: hosted.platformName, title: titleOf(view), status: started?.status ?? 'started', history: started?.history ?? [], callbackUrl: null }));
    });
  };
}
