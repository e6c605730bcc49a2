import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AutomationField } from '../../catalog/catalog.schema.js';
import { BoundedString } from '../../http/schemas.js';
import { HttpError, InvalidInputError, InvalidInputsError } from '../../lib/errors.js';
import { refusalText, renderAutomationForm, renderAutomationRefused } from '../../pages/automation-pages.js';
import { renderAutomationProgress, type AutomationProgressPage } from '../../pages/automation-progress-pages.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { ANSWER_FIELD, isSensitive, type AutomationsService, type AutomationView } from '../automations/contract.js';
import { callbackTarget, formOf, sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext, type HostedSessionsService } from '../hosted-sessions/contract.js';
import type { AccessScope } from '../../http/principals.js';
import { offersAutomation } from './task-automation.views.js';
import { automationOf, type TaskView } from './task-view.js';
import type { TasksService } from './tasks.service.js';

const TaskParams = Type.Object({ task_id: BoundedString(64) });
const PageQuery = Type.Object({ answered: Type.Optional(BoundedString(1)) });

export interface AutomationPagesDeps {
  sessions: Pick<HostedSessionsService, 'check' | 'endBrowserSession'>;
  tasks: Pick<TasksService, 'get'>;
  automations: Pick<AutomationsService, 'forTask' | 'start' | 'answer'>;
  /** The signed download link of one of the entity's documents (the confirmation PDF), if it exists. */
  documentUrl: (scope: AccessScope, documentId: string) => Promise<string | null>;
  publicOrigin: string;
}

/** Per-field messages of a refused input (the automations service checks the fields; a form shows them by name). */
function fieldErrors(error: unknown): Record<string, string> | null {
  const list = error instanceof InvalidInputsError ? error.errors : error instanceof InvalidInputError ? [error] : null;
  return list && Object.fromEntries(list.map((e) => [String(e.path[0] ?? ANSWER_FIELD), e.reason]));
}

/** The form's values of the automation's fields; empty ones left out (an answer changes only what it names). */
function valuesOf(fields: readonly AutomationField[], form: Record<string, string>, keepEmpty: boolean): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, (form[f.name] ?? '').trim()]).filter(([, v]) => keepEmpty || v !== ''));
}

/** Values to write back into a page: never a sensitive one (SSN digits, bank details). */
const withoutSensitive = (fields: readonly AutomationField[], values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).filter(([name]) => !fields.some((f) => f.name === name && isSensitive(f))));

/**
 * The hosted automation page (POST /tasks/{task_id}/automate/sessions links here): the input form; once started,
 * the automation's real progress and results; a refused start in words; the owner's answer to an operator.
 */
export function automationPageRoutes(deps: AutomationPagesDeps) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const options = { preHandler: requireHostedSession(deps, ['automation']), schema: { hide: true, params: TaskParams } };

    /** The session's task, if it is this one and can be automated. */
    async function load(hosted: HostedContext, taskId: string) {
      if (hosted.session.scope.task_id !== taskId) return null;
      try {
        const view = await deps.tasks.get(hosted.scope, taskId);
        const definition = automationOf(view);
        return definition && view.kind === 'requirement' ? { view, definition } : null;
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return null;
        throw error;
      }
    }
    const notFound = (reply: FastifyReply, hosted: HostedContext) =>
      sendPage(
        reply,
        renderMessagePage({
          title: 'Task not found',
          body: 'This task cannot be automated here.',
          platformName: hosted.platformName,
          brand: hosted.brand,
        }),
        { status: 404 },
      );
    type Loaded = NonNullable<Awaited<ReturnType<typeof load>>>;

    async function progress(
      hosted: HostedContext,
      { view, definition }: Loaded,
      automation: AutomationView,
      extra: Partial<AutomationProgressPage> = {},
    ) {
      const documentId = automation.status === 'complete' ? automation.outputs?.documentId : null;
      const prefill = Object.fromEntries(
        definition.fields
          .filter((f) => !isSensitive(f) && automation.input[f.name] != null)
          .map((f) => [f.name, String(automation.input[f.name])]),
      );
      return renderAutomationProgress({
        platformName: hosted.platformName,
        brand: hosted.brand,
        title: view.kind === 'requirement' ? view.definition.title : '',
        agencyName: view.kind === 'requirement' ? view.agency.name : '',
        taskId: view.row.id,
        automation,
        dateLabels: Object.fromEntries(definition.outputs.dates.map((d) => [d.name, d.label])),
        documentUrl: documentId ? await deps.documentUrl(hosted.scope, documentId) : null,
        answer:
          automation.status === 'waiting_on_customer_response'
            ? { fields: definition.fields, values: prefill, errors: {}, csrf: hosted.csrf }
            : null,
        notice: null,
        callbackUrl: hosted.session.callback_url,
        ...extra,
      });
    }

    /** The input form; a sensitive value typed before is never written back into the page. */
    const form = (
      hosted: HostedContext,
      { view, definition }: Loaded,
      values: Record<string, string>,
      errors: Record<string, string>,
      refusal: string | null,
    ) =>
      renderAutomationForm({
        platformName: hosted.platformName,
        brand: hosted.brand,
        title: titleOf(view),
        taskId: view.row.id,
        fields: definition.fields,
        errors,
        csrf: hosted.csrf,
        refusal,
        values: withoutSensitive(definition.fields, values),
      });

    /** What the page shows when no new automation can start now: the live one's progress, or why not in words. */
    async function refusedStart(reply: FastifyReply, hosted: HostedContext, loaded: Loaded, values: Record<string, string>) {
      const live = await deps.automations.forTask(hosted.scope, loaded.view.row.id);
      if (live && live.status !== 'canceled' && live.status !== 'complete') {
        return sendPage(reply, await progress(hosted, loaded, live, { notice: { kind: 'error', text: refusalText('running') } }), {
          status: 409,
        });
      }
      const status = (await deps.tasks.get(hosted.scope, loaded.view.row.id)).row.status;
      const reason = refusalText(status === 'dismissed' ? 'dismissed' : 'done');
      return sendPage(reply, form(hosted, loaded, values, {}, reason), { status: 409, formTarget: hosted.session.callback_url });
    }

    r.get('/hosted/automation/:task_id', { ...options, schema: { ...options.schema, querystring: PageQuery } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const loaded = await load(hosted, request.params.task_id);
      if (!loaded) return notFound(reply, hosted);
      const automation = await deps.automations.forTask(hosted.scope, loaded.view.row.id);
      const status = loaded.view.row.status;
      // A completed filing whose task was reopened by hand (to-do again) can be filed anew.
      const reopened = automation?.status === 'complete' && offersAutomation(status);
      if (automation && automation.status !== 'canceled' && !reopened) {
        const notice = request.query.answered
          ? { kind: 'success' as const, text: 'Your answer was sent. The filing goes on; this page shows its progress.' }
          : null;
        return sendPage(reply, await progress(hosted, loaded, automation, { notice }));
      }
      if (status === 'done' || status === 'dismissed') {
        return sendPage(
          reply,
          renderAutomationRefused({
            platformName: hosted.platformName,
            brand: hosted.brand,
            title: titleOf(loaded.view),
            reason: refusalText(status),
            callbackUrl: hosted.session.callback_url,
          }),
        );
      }
      const again = !automation
        ? null
        : reopened
          ? 'The last automation completed, and the task was reopened since. You can start it again below.'
          : `The last automation was canceled${automation.statusReason ? ` (${automation.statusReason})` : ''}. You can start it again below.`;
      return sendPage(reply, form(hosted, loaded, {}, {}, again), { formTarget: hosted.session.callback_url });
    });

    r.post('/hosted/automation/:task_id', options, async (request, reply) => {
      const hosted = hostedOf(request);
      const loaded = await load(hosted, request.params.task_id);
      if (!loaded) return notFound(reply, hosted);
      const values = valuesOf(loaded.definition.fields, formOf(request), true);
      let started: AutomationView;
      try {
        started = await deps.automations.start(hosted.scope, loaded.view.row.id, values);
      } catch (error) {
        const errors = fieldErrors(error);
        if (errors)
          return sendPage(reply, form(hosted, loaded, values, errors, null), { status: 422, formTarget: hosted.session.callback_url });
        if (error instanceof HttpError && error.status === 409) return refusedStart(reply, hosted, loaded, values);
        throw error;
      }
      await deps.sessions.endBrowserSession(hosted.session);
      const callback = hosted.session.callback_url;
      if (callback) {
        const target = new URL(callbackTarget(callback, hosted.scope.legalEntityId, 'started'));
        target.searchParams.set('task_id', loaded.view.row.id);
        return reply.header('referrer-policy', 'no-referrer').redirect(target.toString(), 303);
      }
      return sendPage(reply, await progress(hosted, loaded, started));
    });

    r.post('/hosted/automation/:task_id/answer', options, async (request, reply) => {
      const hosted = hostedOf(request);
      const loaded = await load(hosted, request.params.task_id);
      if (!loaded) return notFound(reply, hosted);
      const submitted = formOf(request);
      const response = (submitted[ANSWER_FIELD] ?? '').trim();
      // Only what the owner changed is sent: a prefilled value sent back as it was is not an answer.
      const before = (await deps.automations.forTask(hosted.scope, loaded.view.row.id))?.input ?? {};
      const fields = Object.fromEntries(
        Object.entries(valuesOf(loaded.definition.fields, submitted, false)).filter(([name, v]) => String(before[name] ?? '') !== v),
      );
      try {
        await deps.automations.answer(hosted.scope, loaded.view.row.id, { ...(response && { [ANSWER_FIELD]: response }), ...fields });
      } catch (error) {
        const errors = fieldErrors(error);
        const current = await deps.automations.forTask(hosted.scope, loaded.view.row.id);
        if (!current) return notFound(reply, hosted);
        if (errors && current.status === 'waiting_on_customer_response') {
          const answer = {
            fields: loaded.definition.fields,
            values: { ...withoutSensitive(loaded.definition.fields, fields), [ANSWER_FIELD]: response },
            errors,
            csrf: hosted.csrf,
          };
          return sendPage(reply, await progress(hosted, loaded, current, { answer }), { status: 422 });
        }
        if (error instanceof HttpError && error.status === 409) {
          const text = 'This question no longer waits on an answer, so nothing was sent. The current state is below.';
          return sendPage(reply, await progress(hosted, loaded, current, { notice: { kind: 'error', text } }), { status: 409 });
        }
        throw error;
      }
      return reply.redirect(`/hosted/automation/${loaded.view.row.id}?answered=1`, 303);
    });
  };
}

const titleOf = (view: TaskView) => (view.kind === 'requirement' ? view.definition.title : view.question.title);
