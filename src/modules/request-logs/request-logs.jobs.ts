import type { JobDefinition } from '../../jobs/queue.js';

export const PRUNE_REQUEST_LOGS_JOB = 'request-logs.prune';
/** Hourly: each run deletes about an hour's worth of expired logs. */
export const PRUNE_REQUEST_LOGS_CRON = '17 * * * *';

/** The retention job: logs older than REQUEST_LOGS_RETENTION_DAYS go. */
export const requestLogJobs = (logs: { prune(): Promise<number> }): JobDefinition[] => [
  {
    name: PRUNE_REQUEST_LOGS_JOB,
    cron: PRUNE_REQUEST_LOGS_CRON,
    expireInSeconds: 600,
    handler: async () => ({ deleted: await logs.prune() }),
    logRuns: true,
  },
];
