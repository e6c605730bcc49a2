import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../catalog/catalog.js';
import { HttpError, InvalidInputError, RequestValidationError } from '../../lib/errors.js';
import { filingUnderWay } from '../../pages/task-item.js';
import { toTaskItem } from './task-items.js';
import { FUTURE_DATE_MESSAGE } from './task-answers.js';
import type { TasksService } from './tasks.service.js';
import { formOf } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { isTaskStatus, notFound, safeReturn, scopedTaskIn, TaskParams } from './hosted-task-pages.js';

// Query parameters of one page view only (notices): dropped from the address the next action returns to.
const NOTICE_PARAMS = ['updated', 'was', 'now', 'undone', 'unlocked', 'error', 'calendar', 'stopped', 'answer_for', 'typed'] as const;

/** The hosted task pages' forms (status, undo, answer): each acts through the tasks service and redirects back (303) with a notice. */
export function taskActionPageRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'check'>;
  tasks: TasksService;
  catalog: Catalog;
  publicOrigin: string;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const guard = requireHostedSession(deps, ['tasks', 'task']);
    const scopedTask = scopedTaskIn(deps.tasks);

    r.post('/hosted/tasks/:task_id/status', { preHandler: guard, schema: { hide: true, params: TaskParams } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const back = safeReturn(form.return_to, `/hosted/tasks/${request.params.task_id}`);
      const view = await scopedTask(hosted, request.params.task_id);
      if (!view) return notFound(reply, hosted);
      const status = form.status;
      if (status !== 'todo' && status !== 'in-progress' && status !== 'done' && status !== 'dismissed')
        return reply.redirect(withParam(back, 'error', 'Choose a valid status'), 303);
      try {
        await deps.tasks.updateStatus(hosted.scope, view.row.id, status, 'owner');
      } catch (error) {
        if (error instanceof HttpError && error.status === 409) {
          const current = (await scopedTask(hosted, view.row.id))?.row.status ?? view.row.status;
          const message = `This task is already ${current === 'in-progress' ? 'in progress' : current}: move it back to to-do first.`;
          return reply.redirect(withParam(back, 'error', message), 303);
        }
        if (error instanceof HttpError && error.status < 500) return reply.redirect(withParam(back, 'error', error.detail), 303);
        throw error;
      }
      // Done or dismissed cancels a filing under way (tasks service): the notice and its undo say so.
      const stopped =
        (status === 'done' || status === 'dismissed') &&
        filingUnderWay(toTaskItem(deps.catalog, view, await deps.tasks.todayOf(hosted.scope.legalEntityId)));
      const changed = withParam(back, 'updated', view.row.id, { was: view.row.status, now: status, ...(stopped && { stopped: 'filing' }) });
      return reply.redirect(changed, 303);
    });

    /** Undo of the confirmation's change: back to the status it replaced, through the service (re-plans, records the event). */
    r.post('/hosted/tasks/:task_id/undo', { preHandler: guard, schema: { hide: true, params: TaskParams } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const back = safeReturn(form.return_to, `/hosted/tasks/${request.params.task_id}`);
      const view = await scopedTask(hosted, request.params.task_id);
      if (!view) return notFound(reply, hosted);
      if (!isTaskStatus(form.from) || !isTaskStatus(form.to))
        return reply.redirect(withParam(back, 'error', 'There is nothing to undo'), 303);
      try {
        await deps.tasks.undoStatus(hosted.scope, view.row.id, { from: form.from, to: form.to });
      } catch (error) {
        if (error instanceof HttpError && error.status === 409) {
          return reply.redirect(withParam(back, 'error', 'This task changed since, so there is nothing to undo.'), 303);
        }
        throw error;
      }
      return reply.redirect(withParam(back, 'undone', view.row.id, form.stopped === 'filing' ? { stopped: 'filing' } : {}), 303);
    });

    r.post('/hosted/tasks/:task_id/answer', { preHandler: guard, schema: { hide: true, params: TaskParams } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const form = formOf(request);
      const back = safeReturn(form.return_to, `/hosted/tasks/${request.params.task_id}`);
      const view = await scopedTask(hosted, request.params.task_id);
      if (!view || view.kind !== 'question') return notFound(reply, hosted);
      const raw = (form.answer ?? '').trim();
      const answer =
        view.question.answer_type === 'boolean'
          ? raw === 'true'
            ? true
            : raw === 'false'
              ? false
              : raw
          : view.question.answer_type === 'number' && /^\d+$/.test(raw)
            ? Number(raw)
            : raw;
      try {
        const { unlocked } = await deps.tasks.answer(hosted.scope, view.row.id, answer);
        return reply.redirect(withParam(back, 'unlocked', unlocked.map((u) => u.row.id).join(',')), 303);
      } catch (error) {
        if (error instanceof RequestValidationError || error instanceof InvalidInputError) {
          const message =
            error instanceof InvalidInputError && error.reason === FUTURE_DATE_MESSAGE
              ? 'Enter a date no more than one year from today: this one is further ahead (check the year)'
              : view.question.answer_type === 'boolean'
                ? 'Choose yes or no'
                : view.question.answer_type === 'date'
                  ? 'Enter a date'
                  : 'Enter a whole number';
          // Back to the page the form was on (list with its filters, or the task) at a GET address, so a reload
          // does not resend; the error and what was typed go along, and the fragment lands on the field.
          const refused = withParam(back, 'error', message, { answer_for: view.row.id, typed: raw.slice(0, 40) });
          return reply.redirect(`${refused}#answer-${view.row.id}`, 303);
        }
        if (error instanceof HttpError && error.status < 500) return reply.redirect(withParam(back, 'error', error.detail), 303);
        throw error;
      }
    });
  };
}

function withParam(path: string, name: string, value: string, more: Record<string, string> = {}): string {
  const url = new URL(path, 'http://local');
  for (const key of NOTICE_PARAMS) url.searchParams.delete(key);
  url.searchParams.set(name, value);
  for (const [key, extra] of Object.entries(more)) url.searchParams.set(key, extra);
  return `${url.pathname}${url.search}`;
}
