import type { Db } from '../../db/database.js';
import type { TasksService } from './tasks.service.js';

export const ROLL_FORWARD_JOB = 'tasks.roll-forward';
/** Every day at 03:15 UTC: quiet hours for US businesses. */
export const ROLL_FORWARD_CRON = '15 3 * * *';
/** Entities regenerated per query page; small enough to keep each page's memory flat. */
const PAGE_SIZE = 1000;
/** Entities regenerated per transaction: fewer round trips, short enough locks. */
export const BATCH_SIZE = 200;
const CONCURRENT_BATCHES = 2;

/**
 * Rolls every entity's recurring requirements forward so tasks exist for the next 12 months.
 * Idempotent (regeneration is), so a retried or overlapping run changes nothing twice.
 */
export async function rollForwardAll(db: Db, tasks: Pick<TasksService, 'regenerateMany'>): Promise<{ entities: number; created: number }> {
  let after = '';
  let entities = 0;
  let created = 0;
  for (;;) {
    const page = await db.selectFrom('legal_entities').select('id').where('id', '>', after).orderBy('id').limit(PAGE_SIZE).execute();
    if (page.length === 0) break;
    const batches: string[][] = [];
    for (let i = 0; i < page.length; i += BATCH_SIZE) batches.push(page.slice(i, i + BATCH_SIZE).map((e) => e.id));
    // Two batches in flight: the engine plans one while PostgreSQL writes the other (their entities differ, so no lock waits).
    for (let i = 0; i < batches.length; i += CONCURRENT_BATCHES) {
      const results = await Promise.all(batches.slice(i, i + CONCURRENT_BATCHES).map((batch) => tasks.regenerateMany(batch)));
      for (const result of results) for (const rows of result.values()) created += rows.length;
    }
    entities += page.length;
    after = page.at(-1)!.id;
  }
  return { entities, created };
}
