import type { AccessScope } from '../../http/principals.js';
import { AutomationConflictError, FINAL_AUTOMATION_STATUSES, type AutomationsService, type AutomationView } from '../automations/index.js';
import { automationFields, type TaskView } from './task-view.js';
import type { TasksService } from './tasks.service.js';

/** What the task pages and session operations use of the automations capability. */
export type TaskAutomations = Pick<AutomationsService, 'start' | 'forTask' | 'forTasks' | 'answer'>;

/** A live automation is one still going (neither complete nor canceled). */
export const isLive = (automation: AutomationView | undefined) => Boolean(automation && !FINAL_AUTOMATION_STATUSES.includes(automation.status));

/** The hosted automation page's view of a task's automation (the workflow itself is modules/automations). */
export function createAutomationService(deps: { automations: TaskAutomations; tasks: Pick<TasksService, 'get'> }) {
  return {
    find: (scope: AccessScope, taskId: string) => deps.automations.forTask(scope, taskId),

    /** The task, its fields and its latest automation, if it can be automated; 409 otherwise. */
    async automatable(scope: AccessScope, taskId: string): Promise<{ view: TaskView; fields: NonNullable<ReturnType<typeof automationFields>>; automation: AutomationView | undefined }> {
      const view = await deps.tasks.get(scope, taskId);
      const fields = automationFields(view);
      if (!fields) throw new AutomationConflictError(`Task '${taskId}' cannot be automated: complete it with its manual steps`);
      return { view, fields, automation: view.automation };
    },

    start: (scope: AccessScope, taskId: string, input: Record<string, unknown>) => deps.automations.start(scope, taskId, input),
  };
}

export type AutomationService = ReturnType<typeof createAutomationService>;
