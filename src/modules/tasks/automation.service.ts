import type { AutomationField } from '../../catalog/catalog.schema.js';
import type { TaskAutomationRow } from '../../db/schema.js';
import { ConflictError } from '../../lib/errors.js';
import type { AccessScope } from '../../http/principals.js';
import type { TasksRepository } from './tasks.repository.js';
import type { TasksService, TaskView } from './tasks.service.js';

/** Checks one submitted value against its field definition; returns an error message or the clean value. */
export function checkField(field: AutomationField, raw: string | undefined): { value: unknown } | { error: string } {
  const value = (raw ?? '').trim();
  if (value === '') return field.required ? { error: `${field.label} is required` } : { value: null };
  switch (field.type) {
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? { value } : { error: 'Enter a date' };
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value) ? { value: Number(value) } : { error: 'Enter a number' };
    case 'boolean':
      return value === 'yes' || value === 'no' ? { value: value === 'yes' } : { error: 'Choose yes or no' };
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value) ? { value } : { error: 'Enter an email address like name@example.com' };
    case 'phone':
      return /^\+?[0-9][0-9 ().-]{5,30}$/.test(value) ? { value } : { error: 'Enter a phone number' };
    case 'ssn-last4':
      return /^\d{4}$/.test(value) ? { value } : { error: 'Enter exactly 4 digits' };
    case 'ein':
      return /^\d{2}-?\d{7}$/.test(value) ? { value: value.replace(/^(\d{2})-?(\d{7})$/, '$1-$2') } : { error: 'Enter the 9-digit EIN, e.g. 12-3456789' };
    default:
      return value.length <= 500 ? { value } : { error: 'Keep this under 500 characters' };
  }
}

export const automationFields = (view: TaskView): AutomationField[] | null =>
  view.kind === 'requirement' && view.definition.resolutions.automation ? [...view.definition.resolutions.automation.fields] : null;

/**
 * Automation of a requirement: the input it needs (validated against the requirement's field
 * definitions), stored with a status history for the automation workers, and the task moved to
 * in-progress. The workers themselves are a later capability; what is stored here is what they consume.
 */
export function createAutomationService(deps: {
  repository: Pick<TasksRepository, 'findAutomation' | 'insertAutomation'>;
  tasks: Pick<TasksService, 'get' | 'updateStatus'>;
  now: () => Date;
}) {
  const find = (legalEntityId: string, taskId: string) => deps.repository.findAutomation(legalEntityId, taskId);

  return {
    find,

    /** The task if it can be automated; 409 otherwise. */
    async automatable(scope: AccessScope, taskId: string): Promise<{ view: TaskView; fields: AutomationField[]; automation: TaskAutomationRow | undefined }> {
      const view = await deps.tasks.get(scope, taskId);
      const fields = automationFields(view);
      if (!fields) throw new ConflictError(`Task '${taskId}' cannot be automated: complete it with its manual steps`);
      return { view, fields, automation: await find(scope.legalEntityId, taskId) };
    },

    /** Records the input and the `started` status, and moves the task to in-progress. Once per task. */
    async start(scope: AccessScope, taskId: string, input: Record<string, unknown>): Promise<TaskAutomationRow> {
      const current = await deps.tasks.get(scope, taskId);
      if (current.row.status === 'done' || current.row.status === 'dismissed') {
        throw new ConflictError(`Task '${taskId}' is ${current.row.status}: reopen it before automating it`);
      }
      const at = deps.now().toISOString();
      const row = await deps.repository.insertAutomation(scope.legalEntityId, taskId, input, at);
      if (!row) throw new ConflictError(`The automation of task '${taskId}' has already started`);
      if (current.row.status === 'todo') await deps.tasks.updateStatus(scope, taskId, 'in-progress');
      return row;
    },
  };
}

export type AutomationService = ReturnType<typeof createAutomationService>;
