import { createHash } from 'node:crypto';
import type { Catalog } from '../../catalog/catalog.js';
import { regionById } from '../../catalog/regions.js';
import type { LocationRow, TaskRow } from '../../db/schema.js';
import { toIso } from '../../engine/dates.js';
import { PLANNING_ENGINE_VERSION } from '../../engine/engine.js';
import type { EngineInput, PlannedTask } from '../../engine/engine.types.js';
import { ESTIMATED_PREFIX, estimatedPeriodKey } from '../../engine/schedule.js';
import type { TaskChange } from '../events/contract.js';
import type { PlanningEntityRow } from './planning.repository.js';

export const identityOf = (t: { definition_id: string; region_code: string; period_key: string }) =>
  `${t.definition_id}|${t.region_code}|${t.period_key}`;
export const plannedIdentity = (t: PlannedTask) => `${t.definitionId}|${t.regionCode}|${t.periodKey}`;

/**
 * Identifies what plans are made from: the engine's version and the catalog's content (every region, federal
 * requirement and question, as loaded). Two processes with the same hash plan alike; a release that changes
 * either makes every entity due once. Maps are written as their entries, in their (sorted) load order.
 */
export function catalogHash(catalog: Catalog): string {
  const { regions, federal, questions, employerRequirements } = catalog;
  const text = JSON.stringify({ regions, federal, questions, employerRequirements }, (_key, value: unknown) =>
    value instanceof Map ? [...value] : value,
  );
  return createHash('sha256').update(`engine ${PLANNING_ENGINE_VERSION}\n`).update(text).digest('base64url');
}

/**
 * Whether the daily roll-forward re-plans this entity on `today` with catalog `revision`: its window gains an
 * occurrence (whatever catalog planned it: a date is never skipped, even after a rollback to an older release),
 * or it was planned with an older catalog, or not since the roll-forward became incremental. A newer catalog's
 * plan alone is never a reason (a process of the previous release during a rolling deploy: see docs/scaling.md).
 */
export function isDueForRollForward(
  entity: { next_replan_on: string | null; catalog_revision: number | null },
  today: string,
  revision: number,
): boolean {
  const dateDue = entity.next_replan_on === null || entity.next_replan_on <= today;
  const olderCatalog = entity.catalog_revision === null || entity.catalog_revision < revision;
  return dateDue || olderCatalog;
}

/** What the engine needs about one entity, from its stored rows. */
export function toEngineInput(entity: PlanningEntityRow, locations: LocationRow[], tasks: TaskRow[], today: string): EngineInput {
  return {
    entity: {
      entityType: entity.entity_type,
      taxClassification: entity.tax_classification,
      incorporationRegion: entity.incorporation_region,
      incorporationDate: entity.incorporation_date,
      accountingYearEnd: entity.accounting_year_end,
      onboardedOn: toIso(entity.created_at),
    },
    locations: locations.map((l) => ({
      regionCode: regionById(l.region_id)?.code ?? l.region_id,
      hasEmployees: l.has_employees,
      hasPhysicalLocation: l.has_physical_location,
      employeeCount: l.employee_count,
    })),
    tasks: tasks.map((t) => ({
      kind: t.kind,
      definitionId: t.definition_id,
      regionCode: t.region_code,
      // An `in-locality` answer belongs to the locality its period key names.
      periodKey: t.period_key,
      status: t.status,
      completedOn: t.completed_at ? toIso(t.completed_at) : null,
      answer: t.answer,
    })),
    today,
  };
}

/** How one entity's stored tasks must change to match its plan. */
export interface Reconciliation {
  inserts: PlannedTask[];
  /**
   * `changed`: the fields of the v2 task that change ('region' when a federal task follows its anchor, 'applicable'
   * when a retired task applies again); empty when none it shows.
   */
  updates: { id: string; task: PlannedTask; changed: string[] }[];
  /** Untouched tasks that no longer apply. */
  deletes: string[];
  /** Tasks someone acted on that no longer apply: kept, marked not applicable. */
  notApplicable: string[];
}

/**
 * Adds what is planned and missing, updates what changed, removes or retires what is no longer planned.
 * A yearly filing whose date turns from estimated to exact (or back, when the fact it used is withdrawn) is the
 * same filing: it keeps its task, matched by the year it is due (`estimated:<year>`, src/engine/schedule.ts). A
 * federal task whose anchor region moved (src/engine/facts.ts `federalAnchor`) is the same filing too: it keeps its
 * task (id, status, history), moved to the new region, matched by definition and period key.
 */
export function reconcile(existing: TaskRow[], planned: PlannedTask[]): Reconciliation {
  const out: Reconciliation = { inserts: [], updates: [], deletes: [], notApplicable: [] };
  const byIdentity = new Map(existing.map((t) => [identityOf(t), t]));
  const matches: [TaskRow | undefined, PlannedTask][] = planned.map((task) => [byIdentity.get(plannedIdentity(task)), task]);
  for (const [current] of matches) if (current) byIdentity.delete(identityOf(current));
  // Then the same filing under its other key: identity matches first, so no task is taken from its own plan.
  const byFilingYear = new Map(
    [...byIdentity.values()].flatMap((t) => {
      const year = filingYearKey(t.definition_id, t.region_code, t.period_key, t.due_date);
      return year ? [[year, t] as const] : [];
    }),
  );
  for (const match of matches) {
    if (match[0]) continue;
    const year = filingYearKey(match[1].definitionId, match[1].regionCode, match[1].periodKey, match[1].dueDate);
    const other = year ? byFilingYear.get(year) : undefined;
    if (other && other.period_key.startsWith(ESTIMATED_PREFIX) !== match[1].periodKey.startsWith(ESTIMATED_PREFIX)) {
      byFilingYear.delete(year!);
      byIdentity.delete(identityOf(other));
      match[0] = other;
    }
  }
  // Then a federal task whose anchor region moved: the same filing, stored in the old anchor (any status, kept whole)
  // under the same period key — or, as above, the estimate of the year an exact date falls in (or back): the new
  // anchor's registration date may be known where the old one's was not. Its new identity is free: a stored task
  // holding it would have matched above.
  for (const match of matches) {
    const task = match[1];
    if (match[0] || !isFederal(task.definitionId)) continue;
    const year = filingYearKey(task.definitionId, task.regionCode, task.periodKey, task.dueDate);
    const sameFiling = (t: TaskRow) =>
      t.period_key === task.periodKey ||
      (year !== null &&
        filingYearKey(t.definition_id, task.regionCode, t.period_key, t.due_date) === year &&
        t.period_key.startsWith(ESTIMATED_PREFIX) !== task.periodKey.startsWith(ESTIMATED_PREFIX));
    const candidates = [...byIdentity.values()].filter(
      (t) => t.definition_id === task.definitionId && t.region_code !== task.regionCode && sameFiling(t),
    );
    // Prefer the same key, then one that still applies (an older move may have left a retired copy behind), then one
    // someone acted on.
    const rank = (t: TaskRow) => (t.period_key === task.periodKey ? 4 : 0) + (t.applicable ? 2 : 0) + (t.acted_at ? 1 : 0);
    const other = candidates.sort((a, b) => rank(b) - rank(a))[0];
    if (other) {
      byIdentity.delete(identityOf(other));
      match[0] = other;
    }
  }
  for (const [current, task] of matches) {
    if (!current) out.inserts.push(task);
    else if (differs(current, task)) out.updates.push({ id: current.id, task, changed: shownChanges(current, task) });
  }
  for (const stale of byIdentity.values()) {
    if (!stale.acted_at) out.deletes.push(stale.id);
    else if (stale.applicable) out.notApplicable.push(stale.id);
  }
  return out;
}

/**
 * The filing a dated occurrence stands for, exact or estimated: definition, region and the year it is due. Null for
 * one-time tasks (their key 'once' already matches). Quarterly ones get one too but never match: neither side of
 * them is ever keyed `estimated:` (the calendar sets their dates, so their keys do not change).
 */
function filingYearKey(definitionId: string, regionCode: string, periodKey: string, dueDate: string | null): string | null {
  if (!dueDate || (periodKey !== dueDate && !periodKey.startsWith(ESTIMATED_PREFIX))) return null;
  return `${definitionId}|${regionCode}|${estimatedPeriodKey(dueDate)}`;
}

/**
 * A requirement of catalog/federal.yaml: the loader requires their ids to start with `us-` and every region file's
 * with its own `<code>-` (src/catalog/catalog.ts), and no region has the code US, so the id alone tells.
 */
export const isFederal = (definitionId: string) => definitionId.startsWith('us-');

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * What a platform sees change: the v2 task's region (a federal task following its anchor), dates and reasons, and a
 * retired task applying again. A basis only filled in (stored before due_date_rule existed: rule null) on an
 * unchanged date is not shown: the row is updated silently.
 */
function shownChanges(current: TaskRow, planned: PlannedTask): string[] {
  const basisFilledIn = current.due_date_rule === null && current.due_date === planned.dueDate;
  return [
    current.region_code !== planned.regionCode && 'region',
    current.period_start_date !== planned.periodStartDate && 'period_start_date',
    current.period_end_date !== planned.periodEndDate && 'period_end_date',
    current.due_date !== planned.dueDate && 'due_date',
    !sameBasis(current, planned) && !basisFilledIn && 'due_date_basis',
    canonical(current.criteria_met) !== canonical(planned.criteriaMet) && 'criteria_met',
    !current.applicable && 'applicable',
  ].filter((field): field is string => field !== false);
}

function differs(current: TaskRow, planned: PlannedTask) {
  return (
    current.region_code !== planned.regionCode ||
    current.period_key !== planned.periodKey ||
    current.due_date !== planned.dueDate ||
    !sameBasis(current, planned) ||
    current.period_start_date !== planned.periodStartDate ||
    current.period_end_date !== planned.periodEndDate ||
    !current.applicable ||
    canonical(current.criteria_met) !== canonical(planned.criteriaMet) ||
    canonical(current.blocked_by) !== canonical(planned.blockedBy)
  );
}

function sameBasis(current: TaskRow, planned: PlannedTask) {
  const basis = planned.dueDateBasis;
  return (
    current.due_date_rule === (basis?.rule ?? null) &&
    current.due_date_exact === (basis?.exact ?? null) &&
    current.due_date_question === (basis?.questionId ?? null)
  );
}

/** JSON with object keys sorted: jsonb reorders keys, so a stored value reads back in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * What planning with the catalog now would change of one entity's requirements (`statehouse catalog impact`): the
 * requirements (by definition and region) it would gain and lose against its stored, applicable tasks. Occurrences
 * are not compared (a window rolling forward is not a change of the catalog). `only`: these requirement ids alone.
 */
export function requirementImpact(
  stored: TaskRow[],
  planned: PlannedTask[],
  only?: ReadonlySet<string>,
): { gained: string[]; lost: string[] } {
  const wanted = (id: string) => !only || only.has(id);
  const have = new Set(
    stored
      .filter((t) => t.kind === 'requirement' && t.applicable && wanted(t.definition_id))
      .map((t) => `${t.definition_id}|${t.region_code}`),
  );
  const will = new Set(
    planned.filter((t) => t.kind === 'requirement' && wanted(t.definitionId)).map((t) => `${t.definitionId}|${t.regionCode}`),
  );
  return { gained: [...will].filter((k) => !have.has(k)), lost: [...have].filter((k) => !will.has(k)) };
}

/** One task.updated per task: a task the caller changed that the re-planning changes too lists both's fields. */
export function mergeUpdates(changes: TaskChange[]): TaskChange[] {
  const updated = new Map<string, TaskChange>();
  const out: TaskChange[] = [];
  for (const change of changes) {
    const first = change.kind === 'updated' ? updated.get(change.taskId) : undefined;
    if (first) first.changed = [...new Set([...(first.changed ?? []), ...(change.changed ?? [])])];
    else {
      const copy = { ...change };
      if (change.kind === 'updated') updated.set(change.taskId, copy);
      out.push(copy);
    }
  }
  return out;
}
