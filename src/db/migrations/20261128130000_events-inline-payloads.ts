import { sql, type Kysely } from 'kysely';

/**
 * Event payloads stay inline and uncompressed up to a page (docs/decisions/0071-first-time-planning-cost.md). Under
 * PostgreSQL's default TOAST rule a row over ~2 kB is pglz-compressed, and most `task.created` payloads (the whole
 * v2 task) are just over it: compressing them was about half the cost of writing a first planning's events. The
 * price is more disk for the event log, which its retention bounds. Rows already written keep their storage.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events set (toast_tuple_target = 8160)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events reset (toast_tuple_target)`.execute(db);
}
