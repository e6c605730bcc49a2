import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import type { SignupService } from '../legal-entities/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import { createImportBatches } from './import-batches.service.js';
import { importJobs } from './imports.jobs.js';
import { importRoutes } from './imports.routes.js';
import { createImportsService } from './imports.service.js';

export interface ImportsModuleDeps {
  db: Db;
  planning: Replanner;
  signup: Pick<SignupService, 'findByExternalIdsIn' | 'createIn'>;
  locations: Pick<LocationsService, 'addManyIn' | 'list'>;
  /** The imports' jobs are sent here; without it an import is stored without its job (the CLI runs it itself). */
  jobs?: JobSender;
  batchSize?: number;
  log?: (message: string) => void;
}

/** Imports of a platform's book (docs/imports.md): POST/GET /v2/legal_entities/imports, the imports.run job. */
export function createImportsModule(deps: ImportsModuleDeps) {
  const imports = createImportsService({ db: deps.db, ...(deps.jobs && { jobs: deps.jobs }) });
  const batches = createImportBatches(deps);
  const jobs: JobDefinition[] = deps.jobs ? importJobs({ batches, jobs: deps.jobs }) : [];
  return {
    imports,
    batches,
    jobs,
    routes(http: { auth: AuthHooks }): FastifyPluginAsync {
      return async (app) => {
        await app.register(importRoutes({ imports, auth: http.auth }));
      };
    },
  };
}

export type ImportsModule = ReturnType<typeof createImportsModule>;
