// task.created / task.updated / task.deleted with the v2 platform task as payload (docs/events.md). Planning and
// the task-changing modules are given this through app.ts (the `TaskEvents` contract of modules/events).
import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode } from '../../catalog/regions.js';
import { loadReleases, RELEASES_DIR } from '../../catalog/releases.js';
import { retiredRequirements } from '../../catalog/release-history.js';
import type { Db } from '../../db/database.js';
import type { AutomationStatus } from '../automations/contract.js';
import type { EventRecorder, NewEvent, TaskChange, TaskEvents } from '../events/contract.js';
import { toPlatformTask, toRetiredPlatformTask, type RetiredRequirement } from './tasks.views.js';
import { createTasksRepository, type TaskEventRow } from './tasks.repository.js';
import { taskViewOf, type TaskAutomation } from './task-view.js';

export interface TaskEventsDeps {
  catalog: Catalog;
  /** The records' links start with it, as in the API's answers. */
  publicBaseUrl: string;
  events: EventRecorder;
  /** The catalog's release files (default: the repository's, catalog/releases/): what describes a retired requirement. */
  releasesDir?: string;
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
  // Read the first time a task of a requirement the catalog lacks ends (a release retired it), then kept.
  let retired: Map<string, RetiredRequirement> | undefined;
  const retiredRequirement = (id: string): RetiredRequirement | undefined => {
    if (!retired) {
      retired = new Map();
      for (const r of retiredRequirements(loadReleases(deps.releasesDir ?? RELEASES_DIR), deps.catalog).values()) {
        // Entries cut before releases recorded category and priority cannot describe a task.
        if (r.category && r.priority) retired.set(r.id, { id: r.id, title: r.title, category: r.category, priority: r.priority });
      }
    }
    return retired.get(id);
  };

  /**
   * The payload of a task the catalog no longer defines, deleted or kept as not applicable: a requirement a release
   * retired, as last released (docs/catalog-releases.md). Undefined when the releases do not know it either.
   */
  function retiredTask(row: TaskEventRow) {
    if (row.kind !== 'requirement' || deps.catalog.requirement(row.definition_id)) return undefined;
    const region = regionByCode(row.region_code);
    const requirement = region && retiredRequirement(row.definition_id);
    return requirement && toRetiredPlatformTask(row, region, requirement, automationOf(row));
  }

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
      if (view?.kind === 'requirement' && read) view.automation = automationOf(read);
      // A task the catalog no longer defines is shown nowhere, so it has no event either; but its end (a release retired
      // its requirement: deleted, or kept as not applicable) is told, with the requirement as last released.
      const ended = change.kind === 'deleted' || (change.kind === 'updated' && change.changed?.includes('applicable'));
      const object = view ? toPlatformTask(context, view) : read && ended ? retiredTask(read) : undefined;
      if (!row || !object) continue;
      out.push({
        type: `task.${change.kind}`,
        platformId: row.platform_id,
        legalEntityId: row.legal_entity_id,
        data: {
          object,
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
