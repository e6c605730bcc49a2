import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Request logs (src/modules/request-logs/, docs/request-logs.md): one row per API request of a platform (API key
    -- or entity token), written in batches after the response. Tenant-owned: platform_id leads the primary key (the
    -- distribution column under Citus) and every index; no foreign key (observability data outlives nothing it names
    -- and must never fail a batch). Error bodies only for 4xx/5xx, with sensitive inputs redacted before the insert.
    create table request_logs (
      platform_id text not null,
      id text not null,
      created_at timestamptz not null,
      method text not null,
      path text not null,
      route text,
      status smallint not null,
      duration_ms double precision not null,
      request_id text not null,
      idempotency_key text,
      legal_entity_id text,
      api_key_id text,
      error jsonb,
      primary key (platform_id, id)
    );
    -- GET /v2/request_logs: a platform's logs newest first, paged by (created_at, id).
    create index request_logs_listing on request_logs (platform_id, created_at desc, id desc);
    -- The retention job deletes by age across platforms: rows arrive in time order, so a BRIN index is tiny and cheap to keep.
    create index request_logs_created_at on request_logs using brin (created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table request_logs;`.execute(db);
}
