import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Each catalog content a Statehouse process planned with, numbered in the order the installation first saw it:
    -- a rolling deploy's new catalog gets a higher revision than the one it replaces (docs/scaling.md, scenario 7).
    create table catalog_versions (
      revision serial primary key,
      hash text not null unique,
      first_seen_at timestamptz not null default now()
    );
    -- What the daily roll-forward needs to skip an entity: the day its planning window next gains an occurrence
    -- (its next due date beyond the window, minus the window's length) and the catalog revision it was planned
    -- with. Null on both for existing rows: each is planned once by the first daily run after the upgrade.
    alter table legal_entities
      add column next_replan_on date,
      add column catalog_revision integer references catalog_versions (revision);
    create index legal_entities_next_replan_on on legal_entities (next_replan_on, id);
    create index legal_entities_catalog_revision on legal_entities (catalog_revision, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table legal_entities drop column next_replan_on, drop column catalog_revision;
    drop table catalog_versions;
  `.execute(db);
}
