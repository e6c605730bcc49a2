import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { TaskRow } from '../../db/schema.js';
import { toIso } from '../../engine/dates.js';
import type { PlannedTask } from '../../engine/engine.types.js';
import { planWithNextReplan } from '../../engine/next-replan.js';
import { loadReleases, releaseOfCatalog } from '../../catalog/releases.js';
import { releaseSummary } from '../../catalog/release-history.js';
import type { NewEvent, TaskChange, TaskEvents } from '../events/contract.js';
import {
  REAL_TIME,
  type ChangedEntities,
  type CreatedTask,
  type EntityClock,
  type PlannedChange,
  type PlannedEntityStore,
  type PlannedTaskStore,
  type PlanningChange,
  type ReplanCause,
} from './contract.js';
import { catalogHash, groupBy, isDueForRollForward, mergeUpdates, reconcile, toEngineInput } from './planning.fns.js';
import { createPlanningReports } from './planning-reports.js';
import { createPlanningRepository, type PlanningRepository } from './planning.repository.js';

export interface PlanningDeps {
  /** Used only to open the transactions of the operator commands (explain, roll-forward batches). */
  db: Db;
  catalog: Catalog;
  now: () => Date;
  /** task.created/updated/deleted of every change, recorded in the re-planning's transaction. */
  taskEvents: TaskEvents;
  /** The re-planning's writes to the tasks table (the tasks module's, through planning's port). */
  plannedTasks: PlannedTaskStore;
  /** Each entity's "now" (its test clock, docs/test-clocks.md); default: real time for all. */
  clock?: EntityClock;
  /** The re-planning's writes of its own legal_entities columns (the legal-entities module's, through planning's port). */
  plannedEntities: PlannedEntityStore;
  /** The queries over a database or transaction (a fake in unit tests). */
  repositoryFor?: (db: Db) => PlanningRepository;
  /** What identifies the catalog's content (default: its hash); tests stand two catalog versions side by side. */
  catalogVersion?: string;
  /**
   * The release the catalog is (catalog/releases/, docs/catalog-releases.md); default: the repository's latest
   * release when the catalog's content matches it, else null (unreleased changes). Tests give another.
   */
  catalogRelease?: CatalogReleaseSummary | null;
}

export type CatalogReleaseSummary = ReturnType<typeof releaseSummary>;

/** The release the catalog as loaded is, with its summary (what `catalog.released` carries); null when unreleased. */
function currentRelease(catalog: Catalog): CatalogReleaseSummary | null {
  const id = releaseOfCatalog(catalog);
  const release = id ? loadReleases().find((r) => r.id === id) : undefined;
  return release ? releaseSummary(release) : null;
}

/**
 * The single owner of "an entity's facts changed → plan its tasks". Callers change the facts inside `change`,
 * so the change and its tasks commit together or not at all.
 */
export function createPlanningService(deps: PlanningDeps) {
  const { catalog } = deps;
  const repositoryFor = deps.repositoryFor ?? createPlanningRepository;
  const today = () => toIso(deps.now());
  const clock = deps.clock ?? REAL_TIME;
  /** Each entity's today: its test clock's date, else the real date (one query for the list). */
  const todayOf = async (db: Db, ids: readonly string[]): Promise<(id: string) => string> => {
    const frozen = await clock.frozen(db, ids);
    const real = today();
    return (id) => {
      const at = frozen.get(id);
      return at ? toIso(at) : real;
    };
  };
  // Numbered by the database the first time any process plans with it (outside the caller's transaction: a
  // rolled-back re-planning must not leave this process with a revision that was never stored).
  let revision: Promise<number> | null = null;
  const catalogRevision = (): Promise<number> => {
    if (!revision) {
      // Hashed at the first re-planning, not at start (a start's time is watched: docs/benchmarks.md, footprint).
      revision = registerCatalog();
      // A failure (the database was away) is not remembered: the next re-planning asks again.
      revision.catch(() => (revision = null));
    }
    return revision;
  };

  /**
   * Numbers the catalog (catalog_versions, with its release) and, the first time the installation runs a release,
   * records `catalog.released` for every platform in the same transaction (catalog_releases: once per release).
   */
  async function registerCatalog(): Promise<number> {
    const hash = deps.catalogVersion ?? catalogHash(catalog);
    const release = deps.catalogRelease !== undefined ? deps.catalogRelease : currentRelease(catalog);
    if (!release) return repositoryFor(deps.db).registerCatalog(hash, null);
    return deps.db.transaction().execute(async (trx) => {
      const repo = repositoryFor(trx);
      const number = await repo.registerCatalog(hash, release.id);
      if (await repo.claimRelease(release.id, number)) {
        const events = (await repo.platformIds()).map((platformId): NewEvent => ({
          type: 'catalog.released',
          platformId,
          legalEntityId: null,
          data: { object: { ...release, summary: { ...release.summary } } },
        }));
        await deps.taskEvents.record(trx, [], events);
      }
      return number;
    });
  }

  /**
   * The one protocol of a change to entities' facts: one transaction (or the caller's `within`), the entities'
   * planning locks taken once and before any row lock, the caller's `work`, then one re-planning of those entities
   * that records the change's own events with its task events, all committed together. `entities` may be read in
   * the transaction (e.g. from a task row) before the locks. `work` answers `replan: false` when it changed nothing
   * (its writes, if any, still commit). Resolves with work's value, the tasks the re-planning created and the final
   * rows of the tasks it updated (a caller shows its changed task without reading it again).
   */
  async function change<T>(
    entities: ChangedEntities,
    work: (trx: Db, legalEntityIds: readonly string[]) => Promise<PlanningChange<T>>,
    options: { within?: Db } = {},
  ): Promise<PlannedChange<T>> {
    const run = async (trx: Db) => {
      const ids = [...new Set(typeof entities === 'function' ? await entities(trx) : entities)].sort();
      if (ids.length) await repositoryFor(trx).lockEntities(ids);
      const outcome = await work(trx, ids);
      const updated = new Map<string, TaskRow>();
      const created =
        outcome.replan === false
          ? new Map<string, CreatedTask[]>()
          : await replanEntities(trx, ids, outcome.cause ?? {}, { locked: true, updated });
      return { value: outcome.value, created, updated };
    };
    return options.within ? run(options.within) : deps.db.transaction().execute(run);
  }

  /**
   * `rollForward`: only the entities still due once locked (another worker may have just planned them); a newer
   * catalog's plan is re-planned here only when its date comes (isDueForRollForward).
   */
  async function replanEntities(
    trx: Db,
    legalEntityIds: string[],
    cause: ReplanCause,
    options: {
      rollForward?: boolean;
      planned?: (entities: number) => void;
      operator?: boolean;
      /** The caller (`change`) holds the entities' locks already. */
      locked?: boolean;
      /** Filled with the final row of every task the re-planning updated. */
      updated?: Map<string, TaskRow>;
    } = {},
  ): Promise<Map<string, CreatedTask[]>> {
    const { rollForward = false, planned, operator = false, locked = false } = options;
    const ids = [...new Set(legalEntityIds)].sort();
    if (ids.length === 0) {
      await deps.taskEvents.record(trx, cause.tasks ?? [], cause.events);
      return new Map();
    }
    const repo = repositoryFor(trx);
    const ownRevision = await catalogRevision();
    if (!locked) await repo.lockEntities(ids);
    const on = await todayOf(trx, ids);
    const found = await repo.findPlanningEntities(ids);
    const entities = rollForward ? found.filter((e) => isDueForRollForward(e, on(e.id), ownRevision)) : found;
    planned?.(entities.length);
    const locations = groupBy(await repo.findLocationsOf(ids), (l) => l.legal_entity_id);
    const existingTasks = groupBy(await repo.findTasksOf(ids), (t) => t.legal_entity_id);
    const inserts: { legalEntityId: string; task: PlannedTask }[] = [];
    const deletes: string[] = [];
    const notApplicable: string[] = [];
    const changes: TaskChange[] = [...(cause.tasks ?? [])];
    const replanned: { id: string; nextReplanOn: string }[] = [];
    // Entities planned with another catalog revision, re-planned by the roll-forward (the daily job, or the operator's
    // `tasks roll-forward`), not for a change of their facts: what their re-planning changes, the catalog changed
    // (docs/events.md, `cause`). A re-planning after a change of facts carries no cause, even when the catalog changed too.
    const byCatalog = new Set(
      !(rollForward || operator)
        ? []
        : entities.filter((e) => e.catalog_revision !== null && e.catalog_revision !== ownRevision).map((e) => e.id),
    );
    const causeOf = (legalEntityId: string): Pick<TaskChange, 'cause'> => (byCatalog.has(legalEntityId) ? { cause: 'catalog' } : {});
    const entityOfTask = new Map<string, string>();
    for (const entity of entities) {
      const existing = existingTasks.get(entity.id) ?? [];
      const { tasks, nextReplanOn } = planWithNextReplan(
        catalog,
        toEngineInput(entity, locations.get(entity.id) ?? [], existing, on(entity.id)),
      );
      replanned.push({ id: entity.id, nextReplanOn });
      const plan = reconcile(existing, tasks);
      for (const update of plan.updates) {
        const row = await deps.plannedTasks.updatePlanned(trx, entity.id, update.id, update.task);
        options.updated?.set(row.id, row);
      }
      changes.push(
        ...plan.updates
          .filter((u) => u.changed.length)
          .map((u): TaskChange => ({ taskId: u.id, kind: 'updated', changed: u.changed, ...causeOf(entity.id) })),
      );
      for (const id of [...plan.deletes, ...plan.notApplicable]) entityOfTask.set(id, entity.id);
      inserts.push(...plan.inserts.map((task) => ({ legalEntityId: entity.id, task })));
      deletes.push(...plan.deletes);
      notApplicable.push(...plan.notApplicable);
    }
    // A deleted task's payload is read before it goes; every event of the re-planning is then one insert.
    const deleted = await deps.taskEvents.describe(
      trx,
      deletes.map((taskId): TaskChange => ({ taskId, kind: 'deleted', ...causeOf(entityOfTask.get(taskId)!) })),
    );
    await deps.plannedTasks.deleteTasks(trx, ids, deletes);
    await deps.plannedTasks.markNotApplicable(trx, ids, notApplicable);
    const created = await deps.plannedTasks.insertPlanned(trx, inserts);
    await deps.plannedEntities.recordPlanned(trx, replanned, ownRevision);
    const platformOf = new Map(entities.map((e) => [e.id, e.platform_id]));
    changes.push(
      ...notApplicable.map((taskId): TaskChange => ({
        taskId,
        kind: 'updated',
        changed: ['applicable'],
        ...causeOf(entityOfTask.get(taskId)!),
      })),
      // With the inserted row: no read-back for the event (most of a first planning's work).
      ...created.map((t): TaskChange => ({
        taskId: t.id,
        kind: 'created',
        inserted: { ...t, platform_id: platformOf.get(t.legal_entity_id)! },
        ...causeOf(t.legal_entity_id),
      })),
    );
    await deps.taskEvents.record(trx, mergeUpdates(changes), [...(cause.events ?? []), ...deleted]);
    return groupBy(created, (t) => t.legal_entity_id);
  }

  /** One batch of `statehouse tasks roll-forward` (every entity, whatever its state): its own transaction. */
  const replanBatch = (legalEntityIds: string[]) =>
    deps.db.transaction().execute((trx) => replanEntities(trx, legalEntityIds, {}, { operator: true }));

  /**
   * One batch of the daily roll-forward: the entities due among ids after `after` up to `through`, in one
   * transaction. Idempotent: an entity re-planned is no longer due, so a retried or duplicated batch finds nothing.
   */
  async function replanDueBatch(after: string, through: string): Promise<{ entities: number; created: number }> {
    const ids = await repositoryFor(deps.db).dueEntityIds(after, DUE_BATCH_LIMIT, today(), await catalogRevision(), through);
    if (ids.length === 0) return { entities: 0, created: 0 };
    let entities = 0;
    const created = await deps.db
      .transaction()
      .execute((trx) => replanEntities(trx, ids, {}, { rollForward: true, planned: (n) => (entities = n) }));
    return { entities, created: [...created.values()].reduce((sum, rows) => sum + rows.length, 0) };
  }

  return {
    change,
    replanBatch,
    replanDueBatch,
    /** One page of the ids of the entities due for the roll-forward today, in id order. */
    dueEntityIdsAfter: async (after: string, limit: number) =>
      repositoryFor(deps.db).dueEntityIds(after, limit, today(), await catalogRevision()),
    /** The catalog revision this process plans with (catalog_versions). */
    catalogRevision,

    ...createPlanningReports({
      catalog,
      repository: () => repositoryFor(deps.db),
      today,
      todayOf: (id) => todayOf(deps.db, [id]).then((on) => on(id)),
    }),

    /** The first day the entity's plan changes by the date alone (the test clocks step through these days). */
    nextReplanOn: async (legalEntityId: string): Promise<string | null> =>
      (await repositoryFor(deps.db).findPlanningEntities([legalEntityId]))[0]?.next_replan_on ?? null,

    /** Entity ids in id order, one page at a time (the roll-forward walks them all). */
    entityIdsAfter: (after: string, limit: number) => repositoryFor(deps.db).entityIdsAfter(after, limit),
  };
}

/** At most this many entities per batch job: a range found with 200 due may have gained new entities since. */
const DUE_BATCH_LIMIT = 1000;

export type PlanningService = ReturnType<typeof createPlanningService>;
