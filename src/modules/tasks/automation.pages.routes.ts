import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { renderAutomationForm, renderAutomationStatus } from '../../pages/automation-pages.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { checkField, type AutomationView } from '../automations/index.js';
import { isLive, type AutomationService } from './automation.service.js';
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
    const statusPage = (hosted: ReturnType<typeof hostedOf>, title: string, automation: AutomationView, callbackUrl: string | null) =>
      renderAutomationStatus({ platformName: hosted.platformName, title, status: automation.status, history: automation.logs.map((l) => ({ status: l.status, updated_at: l.at })), callbackUrl });
    /** A start the task refuses, said in words (no callback: nothing started). */
    const refusedPage = (hosted: ReturnType<typeof hostedOf>, detail: string) =>
      renderMessagePage({ title: 'The automation cannot start', body: detail, platformName: hosted.platformName });
    const doneDetail = (status: string) => `This task is already ${status}: there is nothing to automate. Move it back to to-do first if it must be filed again.`;

    r.get('/hosted/automation/:task_id', options, async (request, reply) => {
      const found = await load(request);
      if (!found) return sendPage(reply, renderMessagePage({ title: 'Task not found', body: 'This task cannot be automated here.' }), { status: 404 });
      const { hosted, view, fields, automation } = found;
      if (automation && (isLive(automation) || automation.status === 'complete')) return sendPage(reply, statusPage(hosted, titleOf(view), automation, hosted.session.callback_url));
      if (view.row.status === 'done' || view.row.status === 'dismissed') return sendPage(reply, refusedPage(hosted, doneDetail(view.row.status)), { status: 409 });
      return sendPage(reply, renderAutomationForm({ platformName: hosted.platformName, title: titleOf(view), taskId: view.row.id, fields, values: {}, errors: {}, csrf: hosted.csrf }), { formTarget: hosted.session.callback_url });
    });

    r.post('/hosted/automation/:task_id', options, async (request, reply) => {
      const found = await load(request);
      if (!found) return sendPage(reply, renderMessagePage({ title: 'Task not found', body: 'This task cannot be automated here.' }), { status: 404 });
      const { hosted, view, fields, automation } = found;
      if (isLive(automation)) return reply.redirect(`/hosted/automation/${view.row.id}`, 303);
      if (view.row.status === 'done' || view.row.status === 'dismissed') return sendPage(reply, refusedPage(hosted, doneDetail(view.row.status)), { status: 409 });
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
      let started: AutomationView;
      try {
        started = await deps.automation.start(hosted.scope, view.row.id, input);
      } catch (error) {
        // Refused (done meanwhile, or started in another tab): said on the page, and the platform is not told it started.
        if (error instanceof HttpError && error.status === 409) return sendPage(reply, refusedPage(hosted, error.detail), { status: 409 });
        throw error;
      }
      await deps.sessions.endBrowserSession(hosted.session);
      const callback = hosted.session.callback_url;
      if (callback) {
        const target = new URL(callbackTarget(callback, hosted.scope.legalEntityId, 'started'));
        target.searchParams.set('task_id', view.row.id);
        return reply.header('referrer-policy', 'no-referrer').redirect(target.toString(), 303);
      }
      return sendPage(reply, statusPage(hosted, titleOf(view), started, null));
    });
  };
}
