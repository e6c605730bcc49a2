import type { Catalog } from '../../catalog/catalog.js';
import { planTasks } from '../../engine/engine.js';
import { explain } from '../../engine/explain.js';
import { NotFoundError } from '../../lib/errors.js';
import type { EntityExplanation } from './contract.js';
import { groupBy, requirementImpact, toEngineInput } from './planning.fns.js';
import type { PlanningRepository } from './planning.repository.js';

/** Entities read per page by `impact` (three queries a page; the engine plans them in memory). */
const IMPACT_PAGE_SIZE = 500;

/** What planning tells operators without changing anything: one entity explained, a catalog's impact on all. */
export function createPlanningReports(deps: {
  catalog: Catalog;
  repository: () => PlanningRepository;
  today: () => string;
  /** One entity's today (its test clock, docs/test-clocks.md). */
  todayOf: (legalEntityId: string) => Promise<string>;
}) {
  const { catalog, today } = deps;
  return {
    /** Operator view (CLI): which requirements apply to an entity and why, with the tasks planned. */
    async explain(legalEntityId: string): Promise<EntityExplanation> {
      const repo = deps.repository();
      const [entity] = await repo.findPlanningEntities([legalEntityId]);
      if (!entity) throw new NotFoundError(`Legal entity '${legalEntityId}' not found`);
      const input = toEngineInput(
        entity,
        await repo.findLocationsOf([legalEntityId]),
        await repo.findTasksOf([legalEntityId]),
        await deps.todayOf(legalEntityId),
      );
      // The catalog its stored tasks were last planned with (docs/catalog-releases.md).
      const revision = entity.catalog_revision;
      const plannedWith = { revision, release: revision === null ? null : await repo.releaseOfRevision(revision) };
      return { regions: explain(catalog, input), planned: planTasks(catalog, input), plannedWith };
    },

    /**
     * `statehouse catalog impact`: plans every entity with this catalog (engine only, nothing written, no lock: it
     * runs beside a server) and counts, per requirement and region, the entities that would gain or lose it.
     * `only`: these requirement ids alone (the changes since a release).
     */
    async impact(only?: ReadonlySet<string>) {
      const repo = deps.repository();
      const on = today();
      const counts = new Map<string, { gained: number; lost: number }>();
      let entities = 0;
      let affected = 0;
      for (let after = ''; ;) {
        const ids = await repo.entityIdsAfter(after, IMPACT_PAGE_SIZE);
        if (ids.length === 0) break;
        const [found, locations, tasks] = await Promise.all([
          repo.findPlanningEntities(ids),
          repo.findLocationsOf(ids),
          repo.findTasksOf(ids),
        ]);
        const locationsOf = groupBy(locations, (l) => l.legal_entity_id);
        const tasksOf = groupBy(tasks, (t) => t.legal_entity_id);
        for (const entity of found) {
          const stored = tasksOf.get(entity.id) ?? [];
          const planned = planTasks(catalog, toEngineInput(entity, locationsOf.get(entity.id) ?? [], stored, on));
          const { gained, lost } = requirementImpact(stored, planned, only);
          entities++;
          if (gained.length || lost.length) affected++;
          for (const [keys, field] of [
            [gained, 'gained'],
            [lost, 'lost'],
          ] as const) {
            for (const key of keys) {
              const count = counts.get(key) ?? { gained: 0, lost: 0 };
              count[field]++;
              counts.set(key, count);
            }
          }
        }
        after = ids.at(-1)!;
      }
      const requirements = [...counts]
        .map(([key, count]) => {
          const [id, region] = key.split('|') as [string, string];
          return { id, region, ...count };
        })
        .sort((a, b) => b.gained + b.lost - (a.gained + a.lost) || a.id.localeCompare(b.id) || a.region.localeCompare(b.region));
      return { entities, affected, requirements, plannedWith: await repo.entitiesByRelease() };
    },
  };
}
