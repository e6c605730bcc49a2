import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import type { Explanation, PlannedTask } from '../../engine/engine.types.js';
import type { NewEvent, TaskChange } from '../events/contract.js';

/** What a re-planning reports of each task it created: the row as inserted (its event is built from it). */
export type CreatedTask = TaskRow;

/**
 * The change that calls for a re-planning, recorded with the re-planning's own task events in ONE insert: events
 * built by the caller (e.g. location.updated) first, then its task changes (e.g. a status), described after the
 * re-planning so their payloads show the final state.
 */
export interface ReplanCause {
  events?: readonly NewEvent[];
  tasks?: readonly TaskChange[];
}

/** What the `work` of a `planning.change` answers. */
export interface PlanningChange<T> {
  value: T;
  /** The change's own events and task changes, recorded with the re-planning's. */
  cause?: ReplanCause;
  /** false: nothing changed, no re-planning. */
  replan?: boolean;
}

/** The entities a change plans: given, or read in the change's transaction before their locks are taken. */
export type ChangedEntities = readonly string[] | ((trx: Db) => Promise<readonly string[]>);

/** What a capability that changes an entity's facts needs of planning: its one protocol (planning.service.ts, `change`). */
export interface Replanner {
  /**
   * One transaction (or the caller's `within`), the entities' planning locks taken once and before any row lock,
   * `work`, then one re-planning of those entities recording the change's events with its own; all commit together.
   */
  change<T>(
    entities: ChangedEntities,
    work: (trx: Db, legalEntityIds: readonly string[]) => Promise<PlanningChange<T>>,
    options?: { within?: Db },
  ): Promise<PlannedChange<T>>;
}

/** What `planning.change` resolves with. */
export interface PlannedChange<T> {
  value: T;
  /** The tasks the re-planning created, by entity. */
  created: Map<string, CreatedTask[]>;
  /** The final row of every task the re-planning updated, by id. */
  updated: Map<string, TaskRow>;
}

/** Why requirements apply to an entity, and what is planned (`statehouse catalog explain`, the back office). */
export interface EntityExplanation {
  regions: Explanation[];
  planned: PlannedTask[];
  /** The catalog its stored tasks were last planned with (docs/catalog-releases.md). */
  plannedWith: { revision: number | null; release: string | null };
}

export interface PlanningExplainer {
  explain(legalEntityId: string): Promise<EntityExplanation>;
}

/**
 * The writes of a re-planning to the tasks table, which the tasks module owns: planning DEFINES this port and the
 * tasks module implements it (tasks.repository.ts, `plannedTaskStore`), so tasks depends on planning and not back.
 * `db` is the re-planning's transaction.
 */
export interface PlannedTaskStore {
  /** Inserts new tasks (a duplicate identity is skipped) and answers the rows inserted. */
  insertPlanned(db: Db, rows: { legalEntityId: string; task: PlannedTask }[]): Promise<CreatedTask[]>;
  /** A stored task's new plan: dates, reasons, identity (a federal task following its anchor); applicable again. */
  updatePlanned(db: Db, legalEntityId: string, id: string, task: PlannedTask): Promise<TaskRow>;
  /** Removes untouched tasks that no longer apply. */
  deleteTasks(db: Db, legalEntityIds: string[], ids: string[]): Promise<void>;
  /** Keeps tasks someone acted on that no longer apply, marked not applicable. */
  markNotApplicable(db: Db, legalEntityIds: string[], ids: string[]): Promise<void>;
}

/**
 * Planning's own columns of legal_entities, which the legal-entities module owns and writes: planning DEFINES this
 * port and legal-entities implements it (legal-entities.repository.ts, `plannedEntityStore`), so legal-entities
 * depends on planning and not back. `db` is the re-planning's transaction.
 */
export interface PlannedEntityStore {
  /**
   * What each re-planned entity's next roll-forward needs: when its window next gains an occurrence
   * (`next_replan_on`), and the catalog revision it was planned with (`catalog_revision`).
   */
  recordPlanned(db: Db, rows: readonly { id: string; nextReplanOn: string }[], revision: number): Promise<void>;
}

/** `statehouse tasks roll-forward`'s batch, which the demo's seed runs too: every entity given, whatever its state. */
export interface PlanningBatches {
  replanBatch(legalEntityIds: string[]): Promise<Map<string, CreatedTask[]>>;
}

/**
 * An entity's clock (docs/test-clocks.md): where a test clock exists, its frozen time is the entity's "now" for every
 * date decision about it (planning's today, overdue, ordering, answers' date limits); elsewhere, the real time.
 * Planning defines this port; the test-clocks module implements it and app.ts wires it into planning and tasks.
 */
export interface EntityClock {
  /**
   * The frozen time of those of the entities that have a clock (absent: real time). One indexed query for a whole
   * list, none at all where clocks are refused (production). `db`: the caller's transaction, so a clock moved in it is read.
   */
  frozen(db: Db, legalEntityIds: readonly string[]): Promise<ReadonlyMap<string, Date>>;
}

/** No test clocks: every entity on real time (production, the CLI, unit tests). */
export const REAL_TIME: EntityClock = { frozen: async () => new Map() };

/** What the test clocks need of planning to step an entity through the days its plan changes on. */
export interface PlanningSchedule {
  /** The first day (YYYY-MM-DD) on which the entity's plan changes by the date alone; null: never planned. */
  nextReplanOn(legalEntityId: string): Promise<string | null>;
}
