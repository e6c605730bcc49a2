import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import {
  CreateLocationRequestSchema,
  LocationIdParamsSchema,
  LocationSchema,
  RegionPlatformIdParamsSchema,
  UpdateLocationRequestSchema,
} from './locations.schemas.js';
import type { LocationsService } from './locations.service.js';
import { toLocation } from './locations.events.js';

const CONFIG_DOC =
  '`has_employees`: include or filter out tasks that apply when employees live or work in the location (kept in sync, and locked, once payroll is connected). ' +
  '`has_physical_location`: include or filter out tasks that apply when the entity has a physical presence, such as an office. ' +
  '`employee_count`: current full-time employees; a count decides `has_employees`.';

export function locationRoutes(deps: { locations: LocationsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.auth.bearer };
    const tags = ['Locations'];
    const security = [{ bearer: [] }];

    r.get(
      '/locations',
      {
        ...common,
        schema: {
          operationId: 'listLocations',
          tags,
          security,
          summary: 'Locations of the authenticated legal entity',
          response: { 200: Type.Array(LocationSchema), ...errorResponses(401) },
        },
      },
      async (request) => (await deps.locations.list(scopeOf(request))).map(toLocation),
    );

    r.put(
      '/locations/:location_public_id',
      {
        ...common,
        schema: {
          operationId: 'addLocation',
          tags,
          security,
          summary: 'Add a location (idempotent)',
          description: `Adds the location to the legal entity; adding it again changes nothing but the configuration sent. ${CONFIG_DOC}`,
          params: LocationIdParamsSchema,
          body: CreateLocationRequestSchema,
          response: { 200: LocationSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) =>
        toLocation(await deps.locations.add(scopeOf(request), request.params.location_public_id, request.body?.config ?? null)),
    );

    r.patch(
      '/locations/:region_platform_public_id',
      {
        ...common,
        schema: {
          operationId: 'updateLocation',
          tags,
          security,
          summary: 'Update the configuration of an added location',
          description: `The location must have been added first (404 otherwise). ${CONFIG_DOC}`,
          params: RegionPlatformIdParamsSchema,
          body: UpdateLocationRequestSchema,
          response: { 200: LocationSchema, ...errorResponses(401, 404, 409, 422) },
        },
      },
      async (request) =>
        toLocation(await deps.locations.update(scopeOf(request), request.params.region_platform_public_id, request.body.config ?? null)),
    );
  };
}
