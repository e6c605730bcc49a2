import type { Db } from '../../db/database.js';
import type { AutomationRow } from '../../db/schema.js';
import type { EventRecorder, NewEvent, TaskEvents } from '../events/contract.js';
import type { AutomationViews } from './automations.views.js';
import { createAutomationsRepository } from './automations.repository.js';
import { toAutomationState } from './automations.schemas.js';

export interface AutomationEventsDeps {
  views: AutomationViews;
  events: EventRecorder;
  taskEvents: Pick<TaskEvents, 'record'>;
}

/**
 * `automation.status_changed`, with the automation as GET /tasks/{task_id}/automation answers it (status log
 * included), read in the caller's transaction after its change; `task.updated` with it when the task moved too.
 */
export function createAutomationEvents(deps: AutomationEventsDeps) {
  return {
    async statusChanged(trx: Db, row: AutomationRow, options: { taskStatusChanged: boolean }): Promise<void> {
      const repo = createAutomationsRepository(trx);
      const logs = await repo.logsOf([row.id]);
      const steps = await repo.stepsOf([row.id]);
      const event: NewEvent = {
        type: 'automation.status_changed',
        platformId: row.platform_id,
        legalEntityId: row.legal_entity_id,
        data: {
          object: toAutomationState(
            deps.views.toView(
              row,
              logs,
              steps.map((s) => s.step_key),
            ),
          ),
          changed: ['status'],
        },
      };
      if (!options.taskStatusChanged) return deps.events.record(trx, event);
      // One insert: the automation's event first, then the task's (which shows the automation's new status).
      await deps.taskEvents.record(trx, [{ taskId: row.task_id, kind: 'updated', changed: ['status'] }], [event]);
    },
  };
}

export type AutomationEvents = ReturnType<typeof createAutomationEvents>;
