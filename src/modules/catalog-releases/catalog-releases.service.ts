import { loadReleases, releaseOfCatalog, RELEASES_DIR } from '../../catalog/releases.js';
import { releaseSummary } from '../../catalog/release-history.js';
import type { CatalogRelease } from '../../catalog/releases.types.js';
import type { Catalog } from '../../catalog/catalog.js';
import { NotFoundError } from '../../lib/errors.js';

export interface CatalogReleasesDeps {
  catalog: Catalog;
  /** catalog/releases/ (tests: another). */
  releasesDir?: string;
}

/**
 * The catalog's releases as shipped with this build (catalog/releases/, docs/catalog-releases.md): files only, read
 * once on first use (they change only with a new build).
 */
export function createCatalogReleasesService(deps: CatalogReleasesDeps) {
  let loaded: { releases: CatalogRelease[]; current: string | null } | null = null;
  const load = () =>
    (loaded ??= {
      releases: loadReleases(deps.releasesDir ?? RELEASES_DIR),
      current: releaseOfCatalog(deps.catalog, deps.releasesDir ?? RELEASES_DIR),
    });
  return {
    /** Every release, newest first, and the one this server plans with. */
    list() {
      const { releases, current } = load();
      return { current, releases: [...releases].reverse().map(releaseSummary) };
    },
    /** One release with its change list. */
    get(id: string) {
      const release = load().releases.find((r) => r.id === id);
      if (!release) throw new NotFoundError(`Catalog release '${id}' not found`);
      return { ...releaseSummary(release), changes: release.changes };
    },
  };
}

export type CatalogReleasesService = ReturnType<typeof createCatalogReleasesService>;
