import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from src/modules.

/**
 * Test clocks (src/modules/test-clocks/, docs/test-clocks.md): at most one per legal entity, outside production.
 * frozen_time is the entity's "now" for every date decision about it while the clock exists. Keyed like the
 * other entity-owned tables (id, legal_entity_id); the unique entity index is the one lookup every date decision
 * makes, and the (platform_id, created_at) index serves the platform's list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table test_clocks (
      id text not null,
      platform_id text not null references platforms (id),
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      frozen_time timestamptz not null,
      status text not null default 'ready',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (id, legal_entity_id)
    );
    create unique index test_clocks_entity on test_clocks (legal_entity_id);
    create index test_clocks_platform on test_clocks (platform_id, created_at, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table test_clocks`.execute(db);
}
