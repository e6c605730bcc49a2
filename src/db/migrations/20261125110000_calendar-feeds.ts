import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- A legal entity's calendar subscription URLs (src/modules/calendar/). The token in the URL is kept twice:
    -- its SHA-256 (the feed's lookup) and sealed with the vault key, bound to the row's id, so that asking
    -- again hands back the same URL. revoked_at set: the URL answers 404; at most one live URL per entity.
    create table calendar_feeds (
      id text primary key,
      platform_id text not null references platforms (id),
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      token_hash bytea not null unique,
      token_sealed bytea not null,
      token_iv bytea not null,
      token_tag bytea not null,
      key_id text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create unique index calendar_feeds_live on calendar_feeds (legal_entity_id) where revoked_at is null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table calendar_feeds`.execute(db);
}
