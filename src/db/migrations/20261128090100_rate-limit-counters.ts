import { sql, type Kysely } from 'kysely';

/**
 * Rate-limit counts shared by every process (src/http/shared-rate-limit-counters.ts): one row per limiter key and
 * fixed window, added to by each process about once a second. UNLOGGED: no WAL for a counter that only matters
 * for a minute (a crash of PostgreSQL empties it, which forgives at most one window).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create unlogged table rate_limit_counters (
      key text not null,
      window_start bigint not null,
      count integer not null,
      primary key (key, window_start)
    );
    create index rate_limit_counters_window_start_idx on rate_limit_counters (window_start);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table rate_limit_counters`.execute(db);
}
