import { createOutageLog, describeDatabaseError, isDatabaseError, isDatabaseUnavailable } from './unavailable.js';

let installed = false;

/**
 * The job queue library fires some of its queries without awaiting them (marking a job done or
 * failed); when the database is away at that moment the rejection is unhandled, which would end the
 * process. A database error there is logged (the job is retried once it expires); any other
 * unhandled rejection keeps Node's default and ends the process, since it is a bug.
 */
export function keepRunningOnDatabaseErrors(log: (message: string) => void): void {
  if (installed) return;
  installed = true;
  const outage = createOutageLog(log);
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) return outage('background work', reason);
    if (isDatabaseError(reason)) return log(`database error in background work: ${describeDatabaseError(reason)}`);
    throw reason;
  });
}
