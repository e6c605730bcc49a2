import type { Db } from '../../db/database.js';
import type { PlatformBrandsTable } from '../../db/schema.js';

export type BrandChanges = Partial<
  Pick<PlatformBrandsTable, 'display_name' | 'accent_color' | 'logo' | 'logo_content_type' | 'logo_sha256'>
>;

/** Every query of a platform's branding; each names its platform first. `db` may be a transaction. */
export function createPlatformBrandsRepository(db: Db) {
  return {
    platformExists: async (platformId: string): Promise<boolean> =>
      (await db.selectFrom('platforms').select('id').where('id', '=', platformId).executeTakeFirst()) !== undefined,

    /** The brand without the logo's bytes (sizes only): what the API and the CLI show. */
    findBrand: (platformId: string) =>
      db
        .selectFrom('platform_brands')
        .select(['platform_id', 'display_name', 'accent_color', 'logo_content_type', 'logo_sha256', 'updated_at'])
        .select((eb) => eb.fn<number | null>('octet_length', ['logo']).as('logo_bytes'))
        .where('platform_id', '=', platformId)
        .executeTakeFirst(),

    /** Creates the platform's row or changes the given fields of it; untouched fields keep their values. */
    async upsertBrand(platformId: string, changes: BrandChanges, at: Date): Promise<void> {
      await db
        .insertInto('platform_brands')
        .values({ platform_id: platformId, ...changes, updated_at: at })
        .onConflict((oc) => oc.column('platform_id').doUpdateSet({ ...changes, updated_at: at }))
        .execute();
    },
  };
}

export type PlatformBrandsRepository = ReturnType<typeof createPlatformBrandsRepository>;
