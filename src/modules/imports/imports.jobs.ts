// imports.run: an import's rows worked through in committed batches; a run stops after RUN_SECONDS and sends the next,
// so a job never outlives its expiry, and a killed process's job is handed back by pg-boss (docs/imports.md).
import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import type { ImportBatches } from './import-batches.service.js';
import { IMPORT_JOB } from './imports.service.js';

/** How long one run works before it hands the rest to the next job. */
export const RUN_SECONDS = 10;
/** A run's job is handed to another worker this long after it started (a killed process's): then the import resumes. */
export const EXPIRE_SECONDS = 30;

export function importJobs(deps: { batches: ImportBatches; jobs: JobSender }): JobDefinition[] {
  return [
    {
      name: IMPORT_JOB,
      expireInSeconds: EXPIRE_SECONDS,
      retryLimit: 20,
      pollingIntervalSeconds: 1,
      concurrency: 2,
      handler: async (data) => {
        const importId = String(data.import_id);
        const platformId = String(data.platform_id);
        const outcome = await deps.batches.run(importId, platformId, { deadline: Date.now() + RUN_SECONDS * 1000 });
        if (outcome === 'more') await deps.jobs.send(IMPORT_JOB, data, { singletonKey: importId });
        return outcome;
      },
    },
  ];
}
