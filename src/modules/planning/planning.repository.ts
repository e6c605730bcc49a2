import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export type PlanningEntityRow = Awaited<ReturnType<ReturnType<typeof createPlanningRepository>['findPlanningEntities']>>[number];

/**
 * Every query of planning; `db` is the database or the caller's transaction. Reads only, but for the catalog tables
 * (catalog_versions, catalog_releases): the tasks it plans are written by the tasks module and its own columns of
 * legal_entities (next_replan_on, catalog_revision) by the legal-entities module, through planning's ports
 * PlannedTaskStore and PlannedEntityStore (contract.ts).
 */
export function createPlanningRepository(db: Db) {
  return {
    /** Serialises re-plannings per entity (held until the transaction ends); ids in order, so no deadlock. */
    lockEntities: async (legalEntityIds: string[]): Promise<void> => {
      await sql`select pg_advisory_xact_lock(hashtextextended(id, 7)) from unnest(${legalEntityIds}::text[]) as id order by id`.execute(db);
    },

    findPlanningEntities: (ids: string[]) =>
      db
        .selectFrom('legal_entities')
        .select([
          'id',
          'platform_id',
          'entity_type',
          'tax_classification',
          'incorporation_region',
          'incorporation_date',
          'accounting_year_end',
          'created_at',
          'next_replan_on',
          'catalog_revision',
        ])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute(),

    findLocationsOf: (ids: string[]) => db.selectFrom('legal_entity_locations').selectAll().where('legal_entity_id', 'in', ids).execute(),

    findTasksOf: (ids: string[]) => db.selectFrom('tasks').selectAll().where('legal_entity_id', 'in', ids).execute(),

    /** One page of entity ids in id order (the roll-forward walks every entity). */
    entityIdsAfter: async (after: string, limit: number): Promise<string[]> =>
      (await db.selectFrom('legal_entities').select('id').where('id', '>', after).orderBy('id').limit(limit).execute()).map((e) => e.id),

    /**
     * The revision of this catalog content: numbered when first seen by the installation (catalog_versions), with the
     * release it is (null: unreleased changes). A release id is filled in on a row numbered before it was known.
     */
    registerCatalog: async (hash: string, releaseId: string | null = null): Promise<number> => {
      const row = await db
        .insertInto('catalog_versions')
        .values({ hash, release_id: releaseId })
        .onConflict((c) =>
          c.column('hash').doUpdateSet((eb) => ({ release_id: eb.fn.coalesce('catalog_versions.release_id', 'excluded.release_id') })),
        )
        .returning('revision')
        .executeTakeFirstOrThrow();
      return row.revision;
    },

    /**
     * Claims the first run of a release by the installation: true once ever per release (a concurrent claim waits on
     * the key, then finds it taken), so its `catalog.released` is recorded once.
     */
    claimRelease: async (releaseId: string, revision: number): Promise<boolean> =>
      (
        await db
          .insertInto('catalog_releases')
          .values({ id: releaseId, revision })
          .onConflict((c) => c.column('id').doNothing())
          .returning('id')
          .execute()
      ).length > 0,

    /** The release a catalog revision is (null: unreleased content, or no such revision). */
    releaseOfRevision: async (revision: number): Promise<string | null> =>
      (await db.selectFrom('catalog_versions').select('release_id').where('revision', '=', revision).executeTakeFirst())?.release_id ??
      null,

    /** Every platform (each is told of a new catalog release). */
    platformIds: async (): Promise<string[]> => (await db.selectFrom('platforms').select('id').orderBy('id').execute()).map((p) => p.id),

    /** How many entities were last planned with each release (null: unreleased content, or not planned since releases). */
    entitiesByRelease: async (): Promise<{ release_id: string | null; revision: number | null; entities: number }[]> =>
      (
        await db
          .selectFrom('legal_entities')
          .leftJoin('catalog_versions', 'catalog_versions.revision', 'legal_entities.catalog_revision')
          .select((eb) => [
            'catalog_versions.release_id',
            'legal_entities.catalog_revision as revision',
            eb.fn.countAll<string>().as('entities'),
          ])
          .groupBy(['catalog_versions.release_id', 'legal_entities.catalog_revision'])
          .orderBy('legal_entities.catalog_revision')
          .execute()
      ).map((r) => ({ release_id: r.release_id ?? null, revision: r.revision, entities: Number(r.entities) })),

    /**
     * One page of the ids, in id order, of the entities the roll-forward must re-plan on `today` with catalog
     * `revision`: their window gains an occurrence, or they were planned with an older catalog, or never since the
     * roll-forward became incremental (planning.fns.ts, isDueForRollForward: the same rule).
     * `through`: only ids up to this one (a batch's range).
     */
    dueEntityIds: async (after: string, limit: number, today: string, revision: number, through?: string): Promise<string[]> => {
      let query = db
        .selectFrom('legal_entities')
        .select('id')
        .where('id', '>', after)
        .where((eb) =>
          eb.or([
            eb('next_replan_on', 'is', null),
            eb('next_replan_on', '<=', today),
            eb('catalog_revision', 'is', null),
            eb('catalog_revision', '<', revision),
          ]),
        );
      if (through !== undefined) query = query.where('id', '<=', through);
      return (await query.orderBy('id').limit(limit).execute()).map((e) => e.id);
    },
  };
}

export type PlanningRepository = ReturnType<typeof createPlanningRepository>;
