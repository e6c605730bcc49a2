import type { FastifyPluginAsync } from 'fastify';
import type { AuthHooks } from '../../http/auth.js';
import { REAL_TIME, type EntityClock } from '../planning/contract.js';
import { createTestClocksRepository } from './test-clocks.repository.js';
import { testClockRoutes } from './test-clocks.routes.js';
import { createTestClocksService, type TestClocksDeps } from './test-clocks.service.js';

/**
 * Planning's EntityClock port over the test clocks: built before planning (which the module itself needs). Where
 * clocks are refused (production) it is REAL_TIME, so a date decision costs no query at all.
 */
export function createEntityClock(deps: { enabled: boolean }): EntityClock {
  if (!deps.enabled) return REAL_TIME;
  return { frozen: (db, legalEntityIds) => createTestClocksRepository(db).frozenOf(legalEntityIds) };
}

/** Test clocks (docs/test-clocks.md): an entity's own "now", development and sandbox only. */
export function createTestClocksModule(deps: TestClocksDeps) {
  const clocks = createTestClocksService(deps);
  return {
    clocks,
    routes(http: { auth: AuthHooks }): FastifyPluginAsync {
      return async (app) => {
        await app.register(testClockRoutes({ clocks, auth: http.auth }));
      };
    },
  };
}
