import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { Replanner } from '../planning/contract.js';
import { locationRoutes } from './locations.routes.js';
import { createLocationsService } from './locations.service.js';
import { regionV2Routes } from './locations.v2.routes.js';

export interface LocationsModuleDeps {
  db: Db;
  planning: Replanner;
}

/** Locations (unversioned) and regions (v2): an entity's places and their configuration. */
export function createLocationsModule(deps: LocationsModuleDeps) {
  const locations = createLocationsService(deps);
  return {
    locations,
    jobs: [] as JobDefinition[],
    /** /locations… and /v2/regions…. */
    routes(http: { auth: AuthHooks }): FastifyPluginAsync {
      return async (app) => {
        await app.register(locationRoutes({ locations, auth: http.auth }));
        await app.register(regionV2Routes({ locations, auth: http.auth }));
      };
    },
  };
}

export type LocationsModule = ReturnType<typeof createLocationsModule>;
