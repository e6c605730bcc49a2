import { sql, type Kysely } from 'kysely';

/**
 * Catalog releases (docs/catalog-releases.md). Each catalog revision records the release its content is (null: a
 * build with unreleased changes), so an entity's `catalog_revision` says which release it was planned with; and
 * `catalog_releases` holds each release the installation has run, once: its first insert records `catalog.released`
 * for every platform in the same transaction. Both are small reference tables (src/db/distribution.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table catalog_versions add column release_id text;
    create table catalog_releases (
      id text primary key,
      revision integer not null references catalog_versions (revision),
      first_seen_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table catalog_releases;
    alter table catalog_versions drop column release_id;
  `.execute(db);
}
