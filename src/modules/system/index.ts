import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import type { Vault } from '../../crypto/vault.js';
import { createInstanceKeys } from './instance-keys.js';
import { createSystemRepository } from './system.repository.js';
import { systemRoutes } from './system.routes.js';

export interface SystemModuleDeps {
  db: Db;
  /** Seals the instance keys (the login vault's keys). */
  vault: Vault;
}

/** The installation itself: its instance keys and the probes (health, readiness) with /openapi.json. */
export function createSystemModule(deps: SystemModuleDeps) {
  const repo = createSystemRepository(deps.db);
  return {
    instanceKeys: createInstanceKeys(deps.db, deps.vault),
    jobs: [] as JobDefinition[],
    routes: () => systemRoutes({ repo }),
  };
}
