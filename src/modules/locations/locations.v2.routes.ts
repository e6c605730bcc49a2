import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import {
  PlatformBatchRegionConfigSchema,
  PlatformRegionConfigSchema,
  PlatformRegionSchema,
  RegionParamsSchema,
} from './locations.schemas.js';
import type { LocationsService } from './locations.service.js';

export function regionV2Routes(deps: { locations: LocationsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.auth.bearer };
    // The reference v2 document gives these two operations' 422 as PlatformHttpException ({message, detail: string}).
    const referenceErrors = { validationShape: 'PlatformHttpException' } as const;
    const tags = ['Locations'];
    const security = [{ bearer: [] }];

    r.get(
      '/v2/regions',
      {
        ...common,
        schema: {
          operationId: 'listRegionsV2',
          tags,
          security,
          summary: 'Regions of the authenticated legal entity',
          querystring: V2ScopeQuerySchema,
          response: { 200: Type.Array(PlatformRegionSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return (await deps.locations.list(scope)).map(({ region, config }) => ({
          region: { id: region.id, code: region.code, name: region.name },
          config: { employee_count: config.employee_count },
        }));
      },
    );

    r.put(
      '/v2/regions/:region',
      {
        ...common,
        config: referenceErrors,
        schema: {
          operationId: 'addRegionV2',
          tags,
          security,
          summary: 'Add a region and set its employee count (idempotent)',
          description:
            'The employee count is all current full-time employees; a count above 0 means the region has employees. null leaves it unknown.',
          params: RegionParamsSchema,
          querystring: V2ScopeQuerySchema,
          body: PlatformRegionConfigSchema,
          response: { 200: PlatformRegionConfigSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const location = await deps.locations.setRegion(scope, request.params.region, request.body.employee_count);
        return { employee_count: location.config.employee_count };
      },
    );

    r.post(
      '/v2/regions',
      {
        ...common,
        config: referenceErrors,
        schema: {
          operationId: 'addRegionsV2',
          tags,
          security,
          summary: 'Add several regions at once (all or nothing)',
          description: 'Example body: `{"config": {"AL": {"employee_count": 1}, "AK": {"employee_count": 10}}}`.',
          querystring: V2ScopeQuerySchema,
          body: PlatformBatchRegionConfigSchema,
          response: { 200: PlatformBatchRegionConfigSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const locations = await deps.locations.setRegions(scope, request.body.config);
        return { config: Object.fromEntries(locations.map((l) => [l.region.code, { employee_count: l.config.employee_count }])) };
      },
    );
  };
}
