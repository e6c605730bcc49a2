import { sql, type Kysely } from 'kysely';

/**
 * Dated API versions (docs/versions.md): each platform's default version, pinned when its first API key is made.
 * Every platform that exists now has made its key already, so it is pinned to the first version, 2026-11-28.
 * (The date is written here, not read from src/http/api-versions.ts: a migration never changes once shipped.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table platforms add column api_version text;
    update platforms set api_version = '2026-11-28';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table platforms drop column api_version;`.execute(db);
}
