import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import type { AccessScope } from '../../http/principals.js';
import { BoundedString, Nullable } from '../../http/schemas.js';
import { GROUPINGS, renderTaskList, type TaskGrouping } from '../../pages/task-list-page.js';
import { renderTaskDetail } from '../../pages/task-detail-page.js';
import type { Notice } from '../../pages/task-parts.js';
import { toTaskItem, type QuestionTaskLookup } from './task-items.js';
import { isOpen, isOverdue, type TaskFilter, type TaskStatus } from './tasks.fns.js';
import type { TasksService, TaskView } from './tasks.service.js';
import { sendPage } from '../../http/pages.js';
import { hostedOf, requireHostedSession, type HostedContext, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { offersCalendar, type CalendarSubscriptions } from '../calendar/contract.js';
import { inScope, isTaskStatus, notFound, safeReturn, scopedTaskIn, TaskParams } from './hosted-task-pages.js';

const STATUS_OPTIONS: [string, string][] = [
  ['open', 'To do and in progress'],
  ['overdue', 'Overdue'],
  ['todo', 'To do'],
  ['in-progress', 'In progress'],
  ['done', 'Done'],
  ['dismissed', 'Dismissed'],
  ['all', 'All'],
];
// `overdue` is open work with a due date before today: the list filters it with isOverdue, not by status alone.
const STATUS_FILTERS: Record<string, TaskFilter['statuses']> = {
  open: ['todo', 'in-progress'],
  overdue: ['todo', 'in-progress'],
  todo: ['todo'],
  'in-progress': ['in-progress'],
  done: ['done'],
  dismissed: ['dismissed'],
  all: null,
};
/** What a confirmation says a status change did, named after the new status. */
const CHANGE_TEXT: Record<TaskStatus, string> = {
  done: 'marked as done',
  'in-progress': 'started: it is in progress',
  todo: 'moved back to to-do',
  dismissed: 'dismissed',
};
const STATUS_WORDS: Record<TaskStatus, string> = { done: 'done', 'in-progress': 'in progress', todo: 'to do', dismissed: 'dismissed' };
const ListQuery = Type.Object({
  region: Type.Optional(BoundedString(2)),
  status: Type.Optional(BoundedString(20)),
  updated: Type.Optional(BoundedString(64)),
  // Nullable: an answer that unlocked nothing comes back as `unlocked=` (empty), which the validator reads as null.
  unlocked: Type.Optional(Nullable(BoundedString(2000))),
  error: Type.Optional(BoundedString(300)),
  calendar: Type.Optional(BoundedString(3)),
  group: Type.Optional(BoundedString(20)),
  was: Type.Optional(BoundedString(20)),
  now: Type.Optional(BoundedString(20)),
  undone: Type.Optional(BoundedString(64)),
  /** `filing`: the change named in the notice stopped the automation that was filing the task. */
  stopped: Type.Optional(BoundedString(20)),
  /** A refused answer: the question it was for and what was typed, shown again in its form next to `error`. */
  answer_for: Type.Optional(BoundedString(64)),
  typed: Type.Optional(BoundedString(40)),
});

/** The list's address with these query parameters (region, status, group kept; an empty value dropped). */
function listUrl(params: Record<string, string | null>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
  return `/hosted/tasks${query.size ? `?${query.toString()}` : ''}`;
}

/**
 * The hosted task list (POST /tasks/sessions, /v2/tasks/manage/session) and the one-task page (/v2/tasks/{id}/session).
 * Their forms post to task-actions-pages.routes.ts.
 */
export function taskPageRoutes(deps: {
  sessions: Pick<HostedSessionsService, 'check'>;
  tasks: TasksService;
  catalog: Catalog;
  publicOrigin: string;
  /** Signed links of the entity's documents by id: complete automations link their confirmation. */
  documentUrls: (scope: AccessScope) => Promise<ReadonlyMap<string, string>>;
  /** The list offers the entity's calendar subscription (modules/calendar serves its forms). */
  calendar: Pick<CalendarSubscriptions, 'current'>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const guard = requireHostedSession(deps, ['tasks', 'task']);
    /** Document links only when a shown task has a confirmation to link (one listing per page). */
    const documentsFor = async (scope: AccessScope, views: TaskView[]) =>
      views.some((v) => v.automation?.outputs?.documentId) ? deps.documentUrls(scope) : new Map<string, string>();

    const scopedTask = scopedTaskIn(deps.tasks);

    /** The question tasks of the page's scope, to link an estimated date to the question that makes it exact. */
    const questionLinks = (views: TaskView[]): QuestionTaskLookup => {
      const ids = new Map(
        views
          .filter((v) => v.kind === 'question' && v.row.period_key === 'once')
          .map((v) => [`${v.row.definition_id}|${v.region.code}`, v.row.id]),
      );
      return (questionId, regionCode) => ids.get(`${questionId}|${regionCode}`) ?? null;
    };
    async function questionLinksFor(hosted: HostedContext, view: TaskView): Promise<QuestionTaskLookup> {
      if (view.row.due_date_exact !== false || !view.row.due_date_question) return () => null;
      const found = await deps.tasks.search(
        hosted.scope,
        { kind: 'question', definitionId: view.row.due_date_question, regionCode: view.region.code },
        'importance',
      );
      return questionLinks(found.filter((v) => inScope(hosted.session.scope, hosted.session.purpose, v)));
    }

    r.get('/hosted/tasks', { preHandler: guard, schema: { hide: true, querystring: ListQuery } }, async (request, reply) => {
      const hosted = hostedOf(request);
      const scope = hosted.session.scope;
      if (hosted.session.purpose === 'task') return reply.redirect(`/hosted/tasks/${scope.task_id}`, 303);
      const q = request.query;
      const statusScope = scope.status;
      const status = statusScope ? 'all' : STATUS_FILTERS[q.status ?? ''] !== undefined ? q.status! : 'open';
      const group: TaskGrouping = GROUPINGS.find(([value]) => value === q.group)?.[0] ?? 'none';
      const region = scope.region_id ?? (q.region && regionByCode(q.region) ? q.region.toUpperCase() : null);
      const all = await deps.tasks.search(hosted.scope, { kind: scope.task_type ?? null }, 'importance');
      const today = await deps.tasks.todayOf(hosted.scope.legalEntityId);
      const overdue = (v: TaskView) => isOverdue({ status: v.row.status, dueDate: v.row.due_date }, today);
      const visible = all.filter((v) => inScope(scope, hosted.session.purpose, v));
      const selected = visible.filter((v) => {
        if (region && v.region.code !== region) return false;
        if (statusScope === 'todo') return isOpen(v.row.status);
        if (statusScope === 'done') return v.row.status === 'done';
        if (statusScope === 'overdue') return overdue(v);
        if (statusScope === 'automated') return !!v.automation;
        if (statusScope === 'managed') return false;
        if (status === 'overdue') return overdue(v);
        const statuses = STATUS_FILTERS[status];
        return !statuses || statuses.includes(v.row.status);
      });
      const regions = [...new Map(visible.map((v) => [v.region.code, { code: v.region.code, name: v.region.name }])).values()].sort(
        (a, b) => a.name.localeCompare(b.name),
      );
      const kept = { region: scope.region_id ? null : region, group: group === 'none' ? null : group };
      const returnTo = listUrl({ ...kept, status: statusScope ? null : (q.status ?? null) });
      const documents = await documentsFor(hosted.scope, selected);
      const links = questionLinks(visible);
      const calendar = offersCalendar(scope) ? { url: (await deps.calendar.current(hosted.scope))?.url ?? null } : null;
      return sendPage(
        reply,
        renderTaskList({
          platformName: hosted.platformName,
          brand: hosted.brand,
          businessName: hosted.businessName,
          tasks: selected.map((v) => withTyped(toTaskItem(deps.catalog, v, today, documents, links), q)),
          answerError: q.answer_for && q.error ? { taskId: q.answer_for, text: q.error } : null,
          csrf: hosted.csrf,
          regions,
          region,
          regionFixed: !!scope.region_id,
          status,
          statusOptions: statusScope ? [['all', `Fixed by your platform: ${statusScope}`]] : STATUS_OPTIONS,
          summary: {
            open: visible.filter((v) => isOpen(v.row.status)).length,
            overdue: visible.filter(overdue).length,
            done: visible.filter((v) => v.row.status === 'done').length,
            links: statusScope
              ? null
              : {
                  open: listUrl({ ...kept, status: 'open' }),
                  overdue: listUrl({ ...kept, status: 'overdue' }),
                  done: listUrl({ ...kept, status: 'done' }),
                },
          },
          group,
          callbackUrl: hosted.session.callback_url,
          // A refused answer is said next to its field (the form) when its question is listed, not twice.
          notice: q.answer_for && selected.some((v) => v.row.id === q.answer_for) ? null : await noticeOf(hosted, q),
          returnTo: safeReturn(returnTo, '/hosted/tasks'),
          calendar,
        }),
      );
    });

    async function noticeOf(
      hosted: HostedContext,
      q: {
        updated?: string;
        was?: string;
        now?: string;
        undone?: string;
        unlocked?: string | null;
        error?: string;
        calendar?: string;
        stopped?: string;
      },
    ): Promise<Notice | null> {
      if (q.error) return { kind: 'error', text: q.error };
      if (q.calendar === 'on') return { kind: 'success', text: 'Your calendar link is ready: add it to your calendar app below.' };
      if (q.calendar === 'off') return { kind: 'success', text: 'You stopped sharing your calendar: the old link no longer works.' };
      if (q.unlocked !== undefined) {
        const ids = (q.unlocked ?? '').split(',').filter(Boolean).slice(0, 50);
        const titles = [];
        for (const id of ids) {
          const view = await scopedTask(hosted, id).catch(() => null);
          if (view) titles.push(toTaskItem(deps.catalog, view, await deps.tasks.todayOf(hosted.scope.legalEntityId)).title);
        }
        return {
          kind: 'success',
          text: ids.length
            ? 'Saved. Your answer added these tasks:'
            : 'Saved. Your answer added no new tasks; the due dates that depend on it are updated.',
          items: titles,
        };
      }
      if (q.undone) {
        const view = await scopedTask(hosted, q.undone);
        if (view) {
          const title = toTaskItem(deps.catalog, view, await deps.tasks.todayOf(hosted.scope.legalEntityId)).title;
          // Undo reopens the task only: the canceled automation is not resumed (tasks service, undoStatus).
          if (q.stopped === 'filing')
            return {
              kind: 'success',
              text: `Undone: “${title}” is open again (${STATUS_WORDS[view.row.status]}). The filing that was stopped stays stopped: start it again from the task.`,
            };
          return { kind: 'success', text: `Undone: “${title}” is ${STATUS_WORDS[view.row.status]} again.` };
        }
      }
      if (q.updated) {
        const view = await scopedTask(hosted, q.updated);
        if (!view || !isTaskStatus(q.now)) return { kind: 'success', text: 'Saved.' };
        const title = toTaskItem(deps.catalog, view, await deps.tasks.todayOf(hosted.scope.legalEntityId)).title;
        // Undo is offered while the task still has the status this change gave it (another tab may have moved it since).
        const undoable = isTaskStatus(q.was) && q.was !== q.now && view.row.status === q.now;
        const stoppedFiling = q.stopped === 'filing';
        return {
          kind: 'success',
          text: `“${title}” ${CHANGE_TEXT[q.now]}${stoppedFiling ? '; the filing Statehouse was doing was stopped' : ''}.`,
          confirmation: { taskId: view.row.id, undo: undoable ? { from: q.now, to: q.was as TaskStatus, title, stoppedFiling } : null },
        };
      }
      return null;
    }

    r.get(
      '/hosted/tasks/:task_id',
      { preHandler: guard, schema: { hide: true, params: TaskParams, querystring: ListQuery } },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const view = await scopedTask(hosted, request.params.task_id);
        if (!view) return notFound(reply, hosted);
        return sendPage(
          reply,
          renderTaskDetail({
            platformName: hosted.platformName,
            brand: hosted.brand,
            task: withTyped(
              toTaskItem(
                deps.catalog,
                view,
                await deps.tasks.todayOf(hosted.scope.legalEntityId),
                await documentsFor(hosted.scope, [view]),
                await questionLinksFor(hosted, view),
              ),
              request.query,
            ),
            csrf: hosted.csrf,
            backToList: hosted.session.purpose === 'tasks',
            callbackUrl: hosted.session.callback_url,
            // A refused answer is said next to its field (the form), not twice.
            notice: request.query.answer_for === view.row.id ? null : await noticeOf(hosted, request.query),
            answerError: request.query.answer_for === view.row.id ? (request.query.error ?? null) : null,
          }),
        );
      },
    );
  };
}

/** The question a refused answer was for shows what was typed again (`typed`), not its stored answer. */
function withTyped<T extends { id: string; kind: string; typed?: string | null }>(task: T, q: { answer_for?: string; typed?: string }): T {
  return q.answer_for === task.id && task.kind === 'question' ? { ...task, typed: q.typed ?? '' } : task;
}
