import type { Catalog } from '../../catalog/catalog.js';
import type { RequirementDefinition } from '../../catalog/catalog.schema.js';
import type { Region } from '../../catalog/regions.js';
import { localityOf, questionTitle } from '../../catalog/question-title.js';
import type { TaskRow } from '../../db/schema.js';
import type { Static } from 'typebox';
import type { AccountTaskSchema, PlatformTaskSchema } from './tasks.schemas.js';
import type { TaskAutomation, TaskView } from './task-view.js';
import { automateResolution, automationStatusOf, hostedResolution, offersAutomation, type RecordLinks } from './task-automation.views.js';

/** What the mappers need besides the task: the catalog (unlocked requirements) and the public URL of the records' links. */
export interface RecordContext extends RecordLinks {
  catalog: Catalog;
}

type AccountTask = Static<typeof AccountTaskSchema>;
type PlatformTask = Static<typeof PlatformTaskSchema>;

const locationRef = (region: Region) => ({ id: region.id, code: region.code, name: region.name });
const regionRef = (region: Region) => ({ id: region.id, name: region.name, parent_region: null });

function manualSteps(definition: RequirementDefinition, taskId: string) {
  return {
    type: 'manual' as const,
    steps: definition.resolutions.manual.map((step, index) => ({
      id: `${taskId}-step-${index + 1}`,
      title: step.title,
      description: step.description,
      paths: step.url ? [{ type: 'url', value: step.url, text: step.title }] : [],
      order: index + 1,
    })),
  };
}

const eta = (definition: RequirementDefinition) =>
  definition.eta ? { estimation: { ...definition.eta }, earliest_date: null, latest_date: null } : null;

function questionEndpoint(catalog: Catalog, view: Extract<TaskView, { kind: 'question' }>, type: 'action' | 'endpoint') {
  return {
    type,
    description: view.question.description,
    method: 'PATCH',
    url: `/v2/tasks/questions/${view.row.id}`,
    content_type: 'application/json',
    fields: [{ name: 'answer', description: titleOf(catalog, view), required: true, type: view.question.answer_type }],
  };
}

/** The stored basis of the due date (null without a due date); a stored rule without its flag reads as exact. */
export const dueDateBasisOf = (row: Pick<TaskRow, 'due_date_rule' | 'due_date_exact' | 'due_date_question'>) =>
  row.due_date_rule === null ? null : { rule: row.due_date_rule, exact: row.due_date_exact ?? true, question_id: row.due_date_question };

/** A question task's title: `{region}` and, for a locality's question, `{locality}` filled in. */
const titleOf = (catalog: Catalog, view: Extract<TaskView, { kind: 'question' }>) =>
  questionTitle(catalog, view.question, view.region.code, view.region.name, view.row.period_key);

const answerText = (answer: unknown) => (answer === null || answer === undefined ? null : String(answer));

/** Definitions a requirement unlocks, in its region. */
function unlocked(catalog: Catalog, definition: RequirementDefinition) {
  return (definition.unlocks ?? []).map((id) => catalog.requirement(id)).filter((found) => found !== undefined);
}

/** The unversioned AccountTask (GET /tasks, /tasks/{id}, /locations/{id}/tasks). */
export function toAccountTask(context: RecordContext, view: TaskView): AccountTask {
  const { row, region } = view;
  const common = {
    id: row.id,
    context: { scope: 'legal-entity' as const, legal_entity_id: row.legal_entity_id },
    managed_provider: null,
    status: row.status,
    period_start_date: row.period_start_date,
    period_end_date: row.period_end_date,
    due_date: row.due_date,
    due_date_basis: dueDateBasisOf(row),
    criteria_met: row.criteria_met,
    blocked_by: row.blocked_by,
  };
  if (view.kind === 'question') {
    return {
      ...common,
      definition: {
        id: view.question.id,
        title: titleOf(context.catalog, view),
        summary: null,
        description: view.question.description,
        type: 'criteria-collection',
        resources: [],
        location: locationRef(region),
      },
      resolutions: { action: questionEndpoint(context.catalog, view, 'action') },
      default_resolution_name: 'action',
      unblocks: [],
      fee: null,
      eta: null,
      priority: view.question.priority,
      tags: [],
      category: view.question.category,
      agency: null,
      answer: row.answer as boolean | number | string | null,
    };
  }
  const { definition, agency } = view;
  const automation = definition.resolutions.automation;
  return {
    ...common,
    definition: definitionRef(definition, region),
    resolutions: {
      manual: manualSteps(definition, row.id),
      ...(automation && {
        automate: automateResolution(context, row.id, automation.fields, view.automation?.status === 'waiting_on_customer_response'),
      }),
    },
    default_resolution_name: automation && offersAutomation(row.status) ? 'automate' : 'manual',
    unblocks: unlocked(context.catalog, definition).map((u) => definitionRef(u.definition, u.region)),
    fee: { ...definition.fee },
    eta: eta(definition),
    priority: definition.priority,
    tags: [...definition.tags],
    category: definition.category,
    agency: { id: agency.id, name: agency.name, website: agency.website },
  };
}

function definitionRef(definition: RequirementDefinition, region: Region) {
  return {
    id: definition.id,
    title: definition.title,
    summary: definition.summary,
    description: definition.description,
    type: 'requirement' as const,
    resources: definition.resources.map((r) => ({ ...r })),
    location: locationRef(region),
  };
}

/** Our criterion keys in the v2 document's CriteriaType vocabulary. */
const V2_CRITERIA: Record<string, string> = {
  'has-employees': 'has-employees',
  'has-physical-location': 'has-physical-location',
  'employee-count': 'employee-count',
  'home-state': 'doing-business',
  'foreign-state': 'doing-business',
  'entity-type': 'single-requirement',
  'tax-classification': 'single-requirement',
  'in-locality': 'doing-business',
  // What the business sells and its sales into the state: the nexus of a sales tax (the only rules that read them).
  sells: 'sales-tax-nexus',
  'annual-sales': 'sales-tax-nexus',
  'annual-transactions': 'sales-tax-nexus',
  'retirement-plan': 'single-requirement',
  'pays-contractors': 'single-requirement',
};

const v2Status = (status: string) => (status === 'dismissed' ? 'deferred' : status) as PlatformTask['status'];

/** The v2 PlatformTask (GET /v2/tasks and friends). */
export function toPlatformTask(context: RecordContext, view: TaskView): PlatformTask {
  const { row, region } = view;
  if (view.kind === 'question') {
    return {
      id: row.id,
      title: titleOf(context.catalog, view),
      status: v2Status(row.status),
      source: {
        type: 'question',
        question_id: view.question.id,
        regions: [regionRef(region)],
        // A locality's question (period key: the locality id) is asked of a city, county or district.
        region_scope: localityOf(context.catalog, region.code, row.period_key) ? 'city' : 'region',
        description: view.question.description,
        answer: answerText(row.answer),
        answer_type: view.question.answer_type,
        is_editable: true,
        resolutions: { hosted: null, endpoint: questionEndpoint(context.catalog, view, 'endpoint') },
        categories: [view.question.category],
      },
      priority: view.question.priority,
      is_managed: false,
    };
  }
  const { definition } = view;
  const automatable = definition.resolutions.automation !== undefined;
  return {
    id: row.id,
    title: definition.title,
    status: v2Status(row.status),
    source: {
      type: 'requirement',
      context: { scope: 'legal-entity', legal_entity_id: row.legal_entity_id },
      requirement_id: definition.id,
      definition: definition.description,
      summary: definition.summary,
      resources: definition.resources.map((r) => ({ ...r })),
      period_start_date: row.period_start_date,
      period_end_date: row.period_end_date,
      due_date: row.due_date,
      due_date_basis: dueDateBasisOf(row),
      region: regionRef(region),
      fee: { ...definition.fee },
      eta: eta(definition),
      tags: [...definition.tags],
      default_resolution_name: automatable && offersAutomation(row.status) ? 'hosted' : 'manual',
      resolutions: { hosted: automatable ? hostedResolution(context, row.id) : null, manual: manualSteps(definition, row.id) },
      criteria_met: row.criteria_met.map((c) => ({ type: V2_CRITERIA[c.key] ?? 'single-requirement', reason: c.reason, task_id: row.id })),
      unlocks: unlocked(context.catalog, definition).map((u) => ({
        requirement_id: u.definition.id,
        title: u.definition.title,
        definition: u.definition.description,
        summary: u.definition.summary,
        resources: u.definition.resources.map((r) => ({ ...r })),
        region: regionRef(u.region),
        tags: [...u.definition.tags],
        source: 'requirement' as const,
      })),
      category: definition.category,
      ...automationStatusOf(view.automation),
      agency_accounts: [],
    },
    priority: definition.priority,
    is_managed: false,
  };
}

/** What the catalog releases last said of a retired requirement (catalog/releases/, docs/catalog-releases.md). */
export interface RetiredRequirement {
  id: string;
  title: string;
  category: RequirementDefinition['category'];
  priority: RequirementDefinition['priority'];
}

/**
 * The v2 PlatformTask of a task whose requirement the catalog no longer has (its `task.deleted` event when a release
 * retired it): the task's own fields from its row, the requirement's id, title, category and priority as last
 * released; what only the definition held (description, summary, resources, fee, eta, tags, resolutions, unlocks) is
 * empty or null.
 */
export function toRetiredPlatformTask(
  row: TaskRow,
  region: Region,
  retired: RetiredRequirement,
  automation?: TaskAutomation,
): PlatformTask {
  return {
    id: row.id,
    title: retired.title,
    status: v2Status(row.status),
    source: {
      type: 'requirement',
      context: { scope: 'legal-entity', legal_entity_id: row.legal_entity_id },
      requirement_id: retired.id,
      definition: '',
      summary: null,
      resources: [],
      period_start_date: row.period_start_date,
      period_end_date: row.period_end_date,
      due_date: row.due_date,
      due_date_basis: dueDateBasisOf(row),
      region: regionRef(region),
      fee: null,
      eta: null,
      tags: null,
      default_resolution_name: null,
      resolutions: { hosted: null, manual: null },
      criteria_met: row.criteria_met.map((c) => ({ type: V2_CRITERIA[c.key] ?? 'single-requirement', reason: c.reason, task_id: row.id })),
      unlocks: null,
      category: retired.category,
      ...automationStatusOf(automation),
      agency_accounts: [],
    },
    priority: retired.priority,
    is_managed: false,
  };
}
