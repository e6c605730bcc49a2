import type { Db } from '../../db/database.js';
import { preparedQuery } from '../../db/database.js';

/**
 * Serialised task lists, reused while an entity's tasks are unchanged. Building and serialising a list
 * of a few hundred tasks costs milliseconds; checking that nothing changed is one indexed query. The
 * version comes from the database (row count and latest change of tasks and automations), so every
 * process sharing the database sees the same versions: a change made by another process is never
 * served stale.
 */
const VERSION_SQL = `
  select count(*)::int || '|' || coalesce(max(updated_at)::text, '') || '|' || coalesce(max(created_at)::text, '') || '|' ||
    coalesce((select max(updated_at)::text from task_automations a where a.legal_entity_id = $1), '') as v
  from tasks where legal_entity_id = $1`;

/** Enough for thousands of lists; the oldest are dropped first. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  version: string;
  body: Buffer;
  headers: Record<string, string>;
}

export function createTaskListCache(db: Db) {
  const entries = new Map<string, Entry>();
  let bytes = 0;

  async function version(legalEntityId: string): Promise<string> {
    // Timestamps as text keep their microseconds: two changes in one millisecond still differ.
    const [row] = await preparedQuery<{ v: string }>(db, 'tasks-version', VERSION_SQL, [legalEntityId]);
    return row?.v ?? '';
  }

  return {
    /** The cached body for `key` if the entity's tasks did not change since; else builds and stores it. */
    async get(legalEntityId: string, key: string, build: () => Promise<{ body: string; headers?: Record<string, string> }>): Promise<Entry> {
      const cacheKey = `${legalEntityId}\n${key}`;
      const current = await version(legalEntityId);
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
  return Object.keys(query).sort().map((k) => `${k}=${JSON.stringify(query[k])}`).join('&');
}
