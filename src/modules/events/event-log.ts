import type { Db } from '../../db/database.js';
import { InvalidInputError } from '../../lib/errors.js';
import { createEventsRepository, type EventsRepository } from './events.repository.js';
import type { EventType, PlatformEvent } from './contract.js';
import { toPlatformEvent } from './event-feed.js';

/** Events deleted per statement by the retention job: short statements, no long lock on the log. */
export const PRUNE_BATCH = 5000;

export interface EventLogDeps {
  db: Db;
  now: () => Date;
  /** Days an event is kept (EVENTS_RETENTION_DAYS). */
  retentionDays: number;
  repositoryFor?: (db: Db) => EventsRepository;
}

export interface EventQuery {
  types?: readonly EventType[];
  legalEntityId?: string;
  /** An event id of this platform: the page starts after it. */
  startingAfter?: string;
  limit: number;
}

/** Reading the log (GET /v2/events) and keeping it to its retention. */
export function createEventLog(deps: EventLogDeps) {
  const repositoryFor = deps.repositoryFor ?? createEventsRepository;
  return {
    /** One page in log order, and whether more events follow it now. */
    async list(platformId: string, query: EventQuery): Promise<{ events: PlatformEvent[]; hasMore: boolean }> {
      const repo = repositoryFor(deps.db);
      const after = query.startingAfter === undefined ? undefined : await repo.positionOf(platformId, query.startingAfter);
      if (query.startingAfter !== undefined && !after) {
        throw new InvalidInputError(
          ['starting_after'],
          'Not an event of this platform (or older than the retention period): pass the id of an event you listed',
          query.startingAfter,
        );
      }
      const rows = await repo.list(platformId, { types: query.types, legalEntityId: query.legalEntityId, after, limit: query.limit + 1 });
      const events = rows.slice(0, query.limit).map(toPlatformEvent);
      return { events, hasMore: rows.length > query.limit };
    },

    /** Deletes every event older than the retention period, a batch per statement; the count deleted. */
    async prune(): Promise<number> {
      const cutoff = new Date(deps.now().getTime() - deps.retentionDays * 86_400_000);
      const repo = repositoryFor(deps.db);
      let total = 0;
      for (;;) {
        const deleted = await repo.deleteCreatedBefore(cutoff, PRUNE_BATCH);
        total += deleted;
        if (deleted < PRUNE_BATCH) return total;
      }
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
