import type { JobDefinition } from '../../jobs/queue.js';
import type { MailService } from './contract.js';

export const mailJobs = (mail: Pick<MailService, 'collectGarbage'>): JobDefinition[] => [
  // Daily: files a crash left without their mail row (see docs/mail.md); `statehouse mail gc` runs it now.
  // An hour before another process may take it over: a walk of a large files directory outlasts pg-boss's 15-minute default.
  { name: 'mail.gc', cron: '45 4 * * *', handler: () => mail.collectGarbage(), logRuns: true, expireInSeconds: 3600 },
];
