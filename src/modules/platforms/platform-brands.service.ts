import type { Db } from '../../db/database.js';
import { InvalidInputsError, NotFoundError, type InvalidInputError } from '../../lib/errors.js';
import { checkAccent, checkDisplayName, checkLogo } from './platform-brands.fns.js';
import type { BrandFieldPaths, BrandUpdate, BrandView, PlatformBrandsService } from './contract.js';
import { createPlatformBrandsRepository, type BrandChanges } from './platform-brands.repository.js';

/**
 * A platform's look on the hosted pages: display name, accent colour and logo. Every field is checked before
 * anything is written (brand-rules.ts), and all refusals of one update are reported together.
 */
export function createPlatformBrandsService(deps: { db: Db; now?: () => Date }): PlatformBrandsService {
  const now = deps.now ?? (() => new Date());

  async function requirePlatform(db: Db, platformId: string) {
    if (!(await createPlatformBrandsRepository(db).platformExists(platformId)))
      throw new NotFoundError(`Platform '${platformId}' not found`);
  }

  async function view(db: Db, platformId: string): Promise<BrandView> {
    const row = await createPlatformBrandsRepository(db).findBrand(platformId);
    return {
      platform_id: platformId,
      display_name: row?.display_name ?? null,
      accent_color: row?.accent_color ?? null,
      logo:
        row?.logo_sha256 && row.logo_content_type
          ? { content_type: row.logo_content_type, size_bytes: Number(row.logo_bytes), sha256: row.logo_sha256 }
          : null,
      updated_at: row?.updated_at.toISOString() ?? null,
    };
  }

  function changesOf(update: BrandUpdate, paths: BrandFieldPaths): BrandChanges {
    const changes: BrandChanges = {};
    const refusals: InvalidInputError[] = [];
    const attempt = (work: () => void) => {
      try {
        work();
      } catch (error) {
        if ((error as Error).name !== 'InvalidInputError') throw error;
        refusals.push(error as InvalidInputError);
      }
    };
    const { display_name: name, accent_color: accent, logo } = update;
    if (name !== undefined)
      attempt(() => {
        changes.display_name = name === null ? null : checkDisplayName(name, paths.display_name);
      });
    if (accent !== undefined)
      attempt(() => {
        changes.accent_color = accent === null ? null : checkAccent(accent, paths.accent_color);
      });
    if (logo !== undefined) {
      attempt(() => {
        const checked = logo ? checkLogo(logo, paths.logo) : null;
        Object.assign(changes, {
          logo: checked?.bytes ?? null,
          logo_content_type: checked?.contentType ?? null,
          logo_sha256: checked?.sha256 ?? null,
        });
      });
    }
    if (refusals.length > 0) throw new InvalidInputsError(refusals);
    return changes;
  }

  return {
    async get(platformId: string): Promise<BrandView> {
      await requirePlatform(deps.db, platformId);
      return view(deps.db, platformId);
    },

    /**
     * Checks every field, then writes them in one transaction with `onWritten` (the operator API's audit
     * line), so a change without its audit line cannot commit. Answers the brand as it now is.
     */
    async update(
      platformId: string,
      update: BrandUpdate,
      paths: BrandFieldPaths,
      onWritten?: (trx: Db, brand: BrandView) => Promise<void>,
    ): Promise<BrandView> {
      await requirePlatform(deps.db, platformId);
      const changes = changesOf(update, paths);
      return deps.db.transaction().execute(async (trx) => {
        await createPlatformBrandsRepository(trx).upsertBrand(platformId, changes, now());
        const brand = await view(trx, platformId);
        await onWritten?.(trx, brand);
        return brand;
      });
    },
  };
}
