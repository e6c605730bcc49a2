// task.created / task.updated / task.deleted with the v2 platform task as payload (docs/events.md). Planning and
// the task-changing modules are given this through app.ts (the `TaskEvents` contract of modules/events).
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AutomationStatus } from '../automations/automations.types.js';
import type { EventRecorder, NewEvent, TaskChange, TaskEvents } from '../events/index.js';
import { toPlatformTask } from './tasks.mappers.js';
import { createTasksRepository, type TaskEventRow } from './tasks.repository.js';
import { taskViewOf, type TaskAutomation } from './task-view.js';

export interface TaskEventsDeps {
  catalog: Catalog;
  /** The records' links start with it, as in the API's answers. */
  publicBaseUrl: string;
  events: EventRecorder;
}

/** The latest automation as the v2 task shows it (status and status log). */
function automationOf(row: TaskEventRow): TaskAutomation | undefined {
  if (!row.automation_status) return undefined;
  return {
    status: row.automation_status as AutomationStatus,
    statusReason: null,
    performer: '',
    outputs: null,
    logs: (row.automation_logs ?? []).map((l) => ({ ...l, status: l.status as AutomationStatus, at: new Date(l.at).toISOString() })),
  };
}

export function createTaskEvents(deps: TaskEventsDeps): TaskEvents {
  const context = { catalog: deps.catalog, publicBaseUrl: deps.publicBaseUrl };

  async function describe(trx: Db, changes: readonly TaskChange[]): Promise<NewEvent[]> {
    if (changes.length === 0) return [];
    // Tasks just inserted come with their row (TaskChange.inserted): only the others are read.
    const toRead = changes.filter((c) => !c.inserted).map((c) => c.taskId);
    const rows = new Map((await createTasksRepository(trx).findForEvents(toRead)).map((r) => [r.id, r]));
    const out: NewEvent[] = [];
    for (const change of changes) {
      const read = change.inserted ? undefined : rows.get(change.taskId);
      const row = change.inserted ?? read;
      const view = row && taskViewOf(deps.catalog, row);
      // A task the catalog no longer defines is shown nowhere, so it has no event either.
      if (!row || !view) continue;
      if (view.kind === 'requirement' && read) view.automation = automationOf(read);
      out.push({
        type: `task.${change.kind}`,
        platformId: row.platform_id,
        legalEntityId: row.legal_entity_id,
        data: {
          object: toPlatformTask(context, view),
          ...(change.kind === 'updated' && { changed: change.changed ?? [] }),
          ...(change.cause && { cause: change.cause }),
        },
      });
    }
    return out;
  }

  return {
    describe,
    async record(trx, changes, described = []) {
      await deps.events.record(trx, [...described, ...(await describe(trx, changes))]);
    },
  };
}
