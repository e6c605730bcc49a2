import type { TasksRepository } from './tasks.repository.js';

/** Enough for thousands of lists; the oldest are dropped first. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  version: string;
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * Serialised task lists, reused while an entity's tasks are unchanged. Building and serialising a list
 * of a few hundred tasks costs milliseconds; checking that nothing changed is one indexed query. The
 * version comes from the database (TasksRepository.listVersion), so every process sharing the database
 * sees the same versions: a change made by another process is never served stale.
 */
export function createTaskListCache(repository: Pick<TasksRepository, 'listVersion'>) {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  return {
    /** The cached body for `key` if the entity's tasks did not change since; else builds and stores it. */
    async get(
      legalEntityId: string,
      key: string,
      build: () => Promise<{ body: string; headers?: Record<string, string> }>,
    ): Promise<Entry> {
      const cacheKey = `${legalEntityId}\n${key}`;
      const current = await repository.listVersion(legalEntityId);
      const hit = entries.get(cacheKey);
      if (hit && hit.version === current) {
        // Re-insert: the Map's order is the eviction order (least recently used first).
        entries.delete(cacheKey);
        entries.set(cacheKey, hit);
        return hit;
      }
      const built = await build();
      const entry = { version: current, body: Buffer.from(built.body), headers: built.headers ?? {} };
      if (hit) bytes -= hit.body.length;
      entries.delete(cacheKey);
      entries.set(cacheKey, entry);
      bytes += entry.body.length;
      for (const [k, old] of entries) {
        if (bytes <= MAX_BYTES) break;
        entries.delete(k);
        bytes -= old.body.length;
      }
      return entry;
    },
  };
}

export type TaskListCache = ReturnType<typeof createTaskListCache>;

/** A query string in a canonical order, so equal filters share an entry. */
export function canonicalQuery(query: Record<string, unknown>): string {
  return Object.keys(query)
    .sort()
    .map((k) => `${k}=${JSON.stringify(query[k])}`)
    .join('&');
}
