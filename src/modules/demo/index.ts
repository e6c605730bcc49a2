import { loadCatalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import { createEventsService } from '../events/index.js';
import { createHostedSessionsModule } from '../hosted-sessions/index.js';
import { createLegalEntitiesModule, plannedEntityStore } from '../legal-entities/index.js';
import { createLocationsModule } from '../locations/index.js';
import { createPlanningModule } from '../planning/index.js';
import { createPlatformsModule } from '../platforms/index.js';
import { createTaskEvents, plannedTaskStore } from '../tasks/index.js';
import type { DemoExtras } from './contract.js';
import type { DemoKeyOptions } from './demo-key.js';
import { createDemoRepository } from './demo.repository.js';
import { seedDemo } from './demo.service.js';

export interface DemoModuleDeps {
  db: Db;
  publicBaseUrl: string;
}

/**
 * The demo data (`statehouse demo`, `serve --demo`, the benchmark). It composes the modules that own the demo's rows
 * on their own (platforms, hosted sessions, planning, signup, locations: the seed runs without the HTTP app), so
 * like app.ts it wires other modules' factories.
 */
export function createDemoModule(deps: DemoModuleDeps) {
  const { db, publicBaseUrl } = deps;
  const { platforms, callbackOrigins } = createPlatformsModule({ db });
  const { sessions } = createHostedSessionsModule({ db, publicBaseUrl, callbackOrigins, linkTtlSeconds: 86_400 });
  // Tasks follow from the entities' profiles and locations: signup and locations re-plan them.
  const catalog = loadCatalog();
  const { planning } = createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents: createTaskEvents({ catalog, publicBaseUrl, events: createEventsService() }),
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
  });
  const { signup } = createLegalEntitiesModule({ db, sessions, signupTtlSeconds: 86_400, planning });
  const { locations } = createLocationsModule({ db, planning });
  const services = { platforms, signup, locations, planning, repo: createDemoRepository(db) };
  return {
    /** Seeds (or tops up) the demo data; safe to run repeatedly (demo.service.ts). */
    seed: (extras?: DemoExtras, keyOptions?: DemoKeyOptions) => seedDemo(services, extras, keyOptions),
  };
}

export type DemoModule = ReturnType<typeof createDemoModule>;
