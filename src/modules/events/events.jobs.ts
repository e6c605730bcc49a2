import type { JobDefinition } from '../../jobs/queue.js';
import type { EventLog } from './event-log.js';

export const PRUNE_EVENTS_JOB = 'events.prune';
/** Hourly: each run deletes about an hour's worth of expired events. */
export const PRUNE_EVENTS_CRON = '7 * * * *';

/** The retention job: events older than EVENTS_RETENTION_DAYS go (their webhook deliveries and attempts with them). */
export const eventJobs = (log: Pick<EventLog, 'prune'>): JobDefinition[] => [
  {
    name: PRUNE_EVENTS_JOB,
    cron: PRUNE_EVENTS_CRON,
    expireInSeconds: 600,
    handler: async () => ({ deleted: await log.prune() }),
    logRuns: true,
  },
];
