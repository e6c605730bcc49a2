import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { CatalogReleaseListSchema, CatalogReleaseSchema, ReleaseParamsSchema } from './catalog-releases.schemas.js';
import type { CatalogReleasesService } from './catalog-releases.service.js';

export function catalogReleaseRoutes(deps: { releases: CatalogReleasesService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(
      '/v2/catalog/releases',
      {
        onRequest: deps.auth.apiKey,
        schema: {
          operationId: 'listCatalogReleasesV2',
          tags: ['Catalog'],
          security: [{ apiKey: [] }],
          summary: 'The catalog releases, newest first',
          description:
            'Every release of the compliance catalog shipped with this server (docs/catalog-releases.md), without their change lists, ' +
            'and `current`: the release this server plans with. `catalog.released` is recorded when the installation first runs a release.',
          response: { 200: CatalogReleaseListSchema, ...errorResponses(401, 403) },
        },
      },
      async () => deps.releases.list(),
    );

    r.get(
      '/v2/catalog/releases/:id',
      {
        onRequest: deps.auth.apiKey,
        schema: {
          operationId: 'getCatalogReleaseV2',
          tags: ['Catalog'],
          security: [{ apiKey: [] }],
          summary: 'One catalog release and what it changed',
          description:
            'The requirements the release added, changed (with the fields) and retired, each with its region, title and sources.',
          params: ReleaseParamsSchema,
          response: { 200: CatalogReleaseSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => deps.releases.get(request.params.id),
    );
  };
}
