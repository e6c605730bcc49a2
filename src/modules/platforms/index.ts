import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { createCallbackOrigins } from './callback-origins.js';
import { createPlatformsRepository } from './platforms.repository.js';
import { createPlatformsService } from './platforms.service.js';
import { createPlatformBrandsService } from './platform-brands.service.js';

/**
 * Platforms, their API keys and allowed callback origins. No routes of its own: the API-key hook
 * (http/auth.ts) authenticates with `platforms`, the CLI manages them.
 */
export function createPlatformsModule(deps: {
  db: Db;
  /** Production: a platform without registered callback origins may use none. */ requireRegisteredCallbacks?: boolean;
}) {
  return {
    platforms: createPlatformsService(createPlatformsRepository(deps.db)),
    /** Display name, accent colour and logo of the hosted pages (operator API, CLI). */
    brands: createPlatformBrandsService({ db: deps.db }),
    callbackOrigins: createCallbackOrigins(deps.db, { requireRegistered: deps.requireRegisteredCallbacks ?? false }),
    jobs: [] as JobDefinition[],
  };
}
