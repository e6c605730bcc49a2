import type { JobDefinition } from '../../jobs/queue.js';
import type { IdempotencyService } from './idempotency.service.js';

export const PRUNE_JOB = 'idempotency.prune';

export const idempotencyJobs = (idempotency: Pick<IdempotencyService, 'prune'>): JobDefinition[] => [
  // Hourly: a key is forgotten at most an hour after its retention (a later request finds it expired anyway).
  { name: PRUNE_JOB, cron: '17 * * * *', handler: () => idempotency.prune(), logRuns: true },
];
