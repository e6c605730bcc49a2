import type { JobDefinition } from '../../jobs/queue.js';
import type { CreatedTask } from './planning.service.js';

export const ROLL_FORWARD_JOB = 'tasks.roll-forward';
/** Every day at 03:15 UTC: quiet hours for US businesses. */
export const ROLL_FORWARD_CRON = '15 3 * * *';
/** Entities re-planned per query page; small enough to keep each page's memory flat. */
const PAGE_SIZE = 1000;
/** Entities re-planned per transaction: fewer round trips, short enough locks. */
export const BATCH_SIZE = 200;
const CONCURRENT_BATCHES = 2;

/** What the roll-forward needs: the entity ids, and a batch re-planning in its own transaction. */
export interface RollForwardSource {
  entityIdsAfter(after: string, limit: number): Promise<string[]>;
  replanBatch(legalEntityIds: string[]): Promise<Map<string, CreatedTask[]>>;
}

/**
 * Rolls every entity's recurring requirements forward so tasks exist for the next 12 months.
 * Idempotent (re-planning is), so a retried or overlapping run changes nothing twice.
 * `statehouse tasks roll-forward` runs it now; the bench passes a source that times each batch.
 */
export async function rollForwardAll(planning: RollForwardSource): Promise<{ entities: number; created: number }> {
  let after = '';
  let entities = 0;
  let created = 0;
  for (;;) {
    const page = await planning.entityIdsAfter(after, PAGE_SIZE);
    if (page.length === 0) break;
    const batches: string[][] = [];
    for (let i = 0; i < page.length; i += BATCH_SIZE) batches.push(page.slice(i, i + BATCH_SIZE));
    // Two batches in flight: the engine plans one while PostgreSQL writes the other (their entities differ, so no lock waits).
    for (let i = 0; i < batches.length; i += CONCURRENT_BATCHES) {
      const results = await Promise.all(batches.slice(i, i + CONCURRENT_BATCHES).map((batch) => planning.replanBatch(batch)));
      for (const result of results) for (const rows of result.values()) created += rows.length;
    }
    entities += page.length;
    after = page.at(-1)!;
  }
  return { entities, created };
}

/** The daily roll-forward, run by the server's job queue. */
export const planningJobs = (planning: RollForwardSource): JobDefinition[] => [
  { name: ROLL_FORWARD_JOB, cron: ROLL_FORWARD_CRON, handler: () => rollForwardAll(planning), logRuns: true },
];

