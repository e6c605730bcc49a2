// What the hosted task pages (tasks-pages.routes.ts) and their form handlers (task-actions-pages.routes.ts) share:
// the session's scope, the task address parameters, the safe return address and the not-found page.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { HostedScope } from '../../db/schema.js';
import { BoundedString } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import type { TaskStatus } from './tasks.fns.js';
import type { TasksService, TaskView } from './tasks.service.js';
import { sendPage } from '../../http/pages.js';
import type { HostedContext } from '../hosted-sessions/contract.js';

const TASK_STATUSES: readonly TaskStatus[] = ['todo', 'in-progress', 'done', 'dismissed'];
export const isTaskStatus = (value: string | undefined): value is TaskStatus => TASK_STATUSES.includes(value as TaskStatus);
export const TaskParams = Type.Object({ task_id: BoundedString(64) });

/** Tasks a hosted session may see: its scope (type, region, one task) narrows every list and action. */
export function inScope(scope: HostedScope, purpose: string, view: TaskView): boolean {
  if (purpose === 'task') return view.row.id === scope.task_id;
  if (scope.task_type && view.kind !== scope.task_type) return false;
  if (scope.region_id && view.region.code !== scope.region_id) return false;
  return true;
}

export const safeReturn = (value: string | undefined, fallback: string) =>
  value && /^\/hosted\/tasks(\/[\w-]+)?(\?[\w=&%.,-]*)?$/.test(value) ? value : fallback;

/** The session's task by id, or null when it is not found or outside the session's scope. */
export const scopedTaskIn = (tasks: Pick<TasksService, 'get'>) =>
  async function scopedTask(hosted: HostedContext, taskId: string): Promise<TaskView | null> {
    try {
      const view = await tasks.get(hosted.scope, taskId);
      return inScope(hosted.session.scope, hosted.session.purpose, view) ? view : null;
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return null;
      throw error;
    }
  };

export const notFound = (reply: FastifyReply, hosted: HostedContext) =>
  sendPage(
    reply,
    renderMessagePage({
      title: 'Task not found',
      body: 'This task is not part of this page.',
      platformName: hosted.platformName,
      brand: hosted.brand,
    }),
    { status: 404 },
  );
