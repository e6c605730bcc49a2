import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import type { CreatedTask } from './contract.js';

export const ROLL_FORWARD_JOB = 'tasks.roll-forward';
/** One range of due entities of the day's roll-forward; every process works this queue. */
export const ROLL_FORWARD_BATCH_JOB = 'tasks.roll-forward.batch';
/** Every day at 03:15 UTC: quiet hours for US businesses. */
export const ROLL_FORWARD_CRON = '15 3 * * *';
/** Entities re-planned per query page; small enough to keep each page's memory flat. */
const PAGE_SIZE = 1000;
/** Due entity ids read per page when the daily job looks for them (ids only: 10 000 are a few hundred kB). */
const DUE_PAGE_SIZE = 10_000;
/** Entities re-planned per transaction: fewer round trips, short enough locks. */
export const BATCH_SIZE = 200;
/** Batches in flight in one process: the engine plans one while PostgreSQL writes the other (2 cores here). */
const CONCURRENT_BATCHES = 2;
/** A batch takes well under a second; one that has not finished in 5 minutes was lost with its process. */
const BATCH_EXPIRE_SECONDS = 300;
/** Finding the due ids and enqueueing their batches: seconds even over a million entities. */
const FINDER_EXPIRE_SECONDS = 600;

/** What `statehouse tasks roll-forward` needs: every entity id, and a batch re-planning in its own transaction. */
export interface RollForwardSource {
  entityIdsAfter(after: string, limit: number): Promise<string[]>;
  replanBatch(legalEntityIds: string[]): Promise<Map<string, CreatedTask[]>>;
}

/** What the daily (incremental) roll-forward needs: the due entity ids, and a batch of a range of them. */
export interface DueRollForwardSource {
  dueEntityIdsAfter(after: string, limit: number): Promise<string[]>;
  replanDueBatch(after: string, through: string): Promise<{ entities: number; created: number }>;
}

/** A batch job's range: the due entities with ids after `after` up to `through`. */
export interface DueRange {
  after: string;
  through: string;
}

/**
 * Re-plans every entity, whatever its state, so tasks exist for the next 12 months: `statehouse tasks roll-forward`,
 * the operator's way to plan everyone now (e.g. after rolling back to an older catalog: see docs/scaling.md).
 * Idempotent (re-planning is), so a retried or overlapping run changes nothing twice.
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

/**
 * The ranges of BATCH_SIZE due entities each, in id order (keyset pages of ids only). The ranges tile the ids up to
 * the last due one, so an entity that becomes due meanwhile inside them is planned by its batch too.
 */
export async function findDueRanges(source: Pick<DueRollForwardSource, 'dueEntityIdsAfter'>): Promise<{ ranges: DueRange[]; due: number }> {
  const ranges: DueRange[] = [];
  let after = '';
  let due = 0;
  for (;;) {
    const page = await source.dueEntityIdsAfter(after, DUE_PAGE_SIZE);
    for (let i = 0; i < page.length; i += BATCH_SIZE) {
      const through = page[Math.min(i + BATCH_SIZE, page.length) - 1]!;
      ranges.push({ after, through });
      after = through;
    }
    due += page.length;
    if (page.length < DUE_PAGE_SIZE) return { ranges, due };
  }
}

/** The daily roll-forward in this process alone (the bench, and tests): the due ranges, two batches in flight. */
export async function rollForwardDue(source: DueRollForwardSource): Promise<{ entities: number; created: number; batches: number }> {
  const { ranges } = await findDueRanges(source);
  let entities = 0;
  let created = 0;
  let next = 0;
  const worker = async () => {
    while (next < ranges.length) {
      const range = ranges[next++]!;
      const result = await source.replanDueBatch(range.after, range.through);
      entities += result.entities;
      created += result.created;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_BATCHES }, worker));
  return { entities, created, batches: ranges.length };
}

/**
 * The daily roll-forward through the queue: the cron job (one process per tick) only finds the due entities and
 * enqueues one batch job per range in a single insert; every process works the batches. A range is enqueued at
 * most once a day (its singleton key names the day), and a batch is idempotent (re-planned entities are no longer
 * due), so a retried finder or a batch run twice after an expiry changes nothing twice.
 */
export function planningJobs(planning: DueRollForwardSource, jobs: JobSender, today: () => string): JobDefinition[] {
  return [
    {
      name: ROLL_FORWARD_JOB,
      cron: ROLL_FORWARD_CRON,
      expireInSeconds: FINDER_EXPIRE_SECONDS,
      logRuns: true,
      handler: async () => {
        const day = today();
        const { ranges, due } = await findDueRanges(planning);
        await jobs.sendMany(
          ROLL_FORWARD_BATCH_JOB,
          ranges.map((r) => ({ ...r })),
          { singleton: { key: (r) => `${day}:${String(r.through)}`, seconds: 86_400 } },
        );
        return { due, batches: ranges.length };
      },
    },
    {
      name: ROLL_FORWARD_BATCH_JOB,
      expireInSeconds: BATCH_EXPIRE_SECONDS,
      retryLimit: 5,
      concurrency: CONCURRENT_BATCHES,
      handler: (data) => planning.replanDueBatch(String(data.after ?? ''), String(data.through ?? '')),
    },
  ];
}
