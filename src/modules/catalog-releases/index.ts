import type { FastifyPluginAsync } from 'fastify';
import type { AuthHooks } from '../../http/auth.js';
import { catalogReleaseRoutes } from './catalog-releases.routes.js';
import { createCatalogReleasesService, type CatalogReleasesDeps } from './catalog-releases.service.js';

/** Catalog releases (docs/catalog-releases.md): GET /v2/catalog/releases and /v2/catalog/releases/{id}. No tables of its own. */
export function createCatalogReleasesModule(deps: CatalogReleasesDeps) {
  const releases = createCatalogReleasesService(deps);
  return {
    releases,
    routes:
      (http: { auth: AuthHooks }): FastifyPluginAsync =>
      async (app) => {
        await app.register(catalogReleaseRoutes({ releases, auth: http.auth }));
      },
  };
}

export type CatalogReleasesModule = ReturnType<typeof createCatalogReleasesModule>;
