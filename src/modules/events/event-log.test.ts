import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { createEventLog, PRUNE_BATCH } from './event-log.js';
import type { EventsRepository } from './events.repository.js';

describe('event log retention', () => {
  it('deletes in batches until a batch comes back short, everything older than the retention period', async () => {
    const calls: { cutoff: Date; limit: number }[] = [];
    const counts = [PRUNE_BATCH, PRUNE_BATCH, 3];
    const repo = {
      deleteCreatedBefore: async (cutoff: Date, limit: number) => (calls.push({ cutoff, limit }), counts.shift() ?? 0),
    } as unknown as EventsRepository;
    const now = new Date('2026-11-24T04:00:00Z');
    const log = createEventLog({ db: {} as Db, now: () => now, retentionDays: 30, repositoryFor: () => repo });
    expect(await log.prune()).toBe(2 * PRUNE_BATCH + 3);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.limit === PRUNE_BATCH && c.cutoff.toISOString() === '2026-10-25T04:00:00.000Z')).toBe(true);
  });
});
