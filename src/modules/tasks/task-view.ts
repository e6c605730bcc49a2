// A task as the services and mappers see it, and its sorting keys: apart from tasks.service.ts and
// tasks.mappers.ts so that neither imports the other.
import type { Agency, QuestionDefinition, RequirementDefinition } from '../../catalog/catalog.schema.js';
import type { Catalog } from '../../catalog/catalog.js';
import { regionByCode, type Region } from '../../catalog/regions.js';
import type { TaskRow } from '../../db/schema.js';
import type { AutomationView } from '../automations/contract.js';

/** What task records and pages read of a task's latest automation (the automations service's view). */
export type TaskAutomation = Pick<AutomationView, 'status' | 'statusReason' | 'logs' | 'outputs' | 'performer'>;

/** A stored task with what the catalog says about it. */
export type TaskView =
  | {
      row: TaskRow;
      kind: 'requirement';
      region: Region;
      definition: RequirementDefinition;
      agency: Agency;
      automation?: TaskAutomation | undefined;
    }
  | { row: TaskRow; kind: 'question'; region: Region; question: QuestionDefinition; automation?: undefined };

/** Sorting and filtering keys of a task view. */
export function traitsOf(view: TaskView) {
  return view.kind === 'question'
    ? {
        definitionId: view.question.id,
        tags: [] as readonly string[],
        category: view.question.category,
        priority: view.question.priority,
        unlocks: 1,
        title: view.question.title,
      }
    : {
        definitionId: view.definition.id,
        tags: view.definition.tags as readonly string[],
        category: view.definition.category,
        priority: view.definition.priority,
        unlocks: view.definition.unlocks?.length ?? 0,
        title: view.definition.title,
      };
}

/** The requirement's automation as the catalog declares it (fields, fulfilment, outputs), if it has one. */
export const automationOf = (view: TaskView) => (view.kind === 'requirement' ? view.definition.resolutions.automation : undefined);

/** A stored task with its catalog definition; null when the catalog no longer knows it (never shown). */
export function taskViewOf(catalog: Catalog, row: TaskRow): TaskView | null {
  const region = regionByCode(row.region_code);
  if (!region) return null;
  if (row.kind === 'question') {
    const question = catalog.questions.find((q) => q.id === row.definition_id);
    return question ? { row, kind: 'question', region, question } : null;
  }
  const found = catalog.requirement(row.definition_id);
  return found ? { row, kind: 'requirement', region, definition: found.definition, agency: found.agency } : null;
}
