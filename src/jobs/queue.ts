import PgBoss from 'pg-boss';

export interface JobDefinition {
  name: string;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  handler: () => Promise<unknown>;
}

export interface JobQueue {
  stop(): Promise<void>;
}

/**
 * The durable job queue (pg-boss) in Statehouse's own database, schema `pgboss`. Schedules survive
 * restarts and several Statehouse processes share them: pg-boss hands each run to one worker.
 */
export async function startJobQueue(connectionString: string, jobs: JobDefinition[], log: (message: string) => void): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 2 });
  boss.on('error', (error: Error) => log(`job queue error: ${error.message}`));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name);
    if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
    await boss.work(job.name, async () => {
      const result = await job.handler();
      log(`job ${job.name} finished: ${JSON.stringify(result)}`);
      return result;
    });
  }
  return { stop: () => boss.stop({ graceful: true, wait: true, timeout: 20_000 }) };
}
