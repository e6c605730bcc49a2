import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The transactional outbox: one row per domain event, written in the transaction of the change it
    -- describes (src/modules/events/). Readers order by (xid, seq) and only read rows whose transaction is
    -- older than every transaction still running (pg_snapshot_xmin), so a cursor never skips an event that
    -- commits late with a smaller seq.
    create table events (
      id text primary key,
      seq bigserial not null unique,
      xid xid8 not null default pg_current_xact_id(),
      platform_id text not null references platforms (id),
      legal_entity_id text,
      type text not null,
      data jsonb not null,
      created_at timestamptz not null default now()
    );
    create index events_platform_order on events (platform_id, xid, seq);
    create index events_created_at on events (created_at);

    -- A platform's webhook endpoints (src/modules/webhooks/). event_types null: every type.
    create table webhook_endpoints (
      id text primary key,
      platform_id text not null references platforms (id),
      url text not null,
      description text,
      event_types text[],
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      disabled_reason text,
      disabled_at timestamptz,
      consecutive_failures integer not null default 0,
      failing_since timestamptz,
      last_success_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index webhook_endpoints_platform on webhook_endpoints (platform_id) where deleted_at is null;

    -- Signing secrets, sealed with the vault key. expires_at null: the current secret; a rotated-out secret
    -- keeps signing (a second signature) until it expires, so receivers can switch without a gap.
    create table webhook_endpoint_secrets (
      id text primary key,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      sealed bytea not null,
      iv bytea not null,
      tag bytea not null,
      key_id text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz
    );
    create index webhook_endpoint_secrets_endpoint on webhook_endpoint_secrets (endpoint_id);

    -- One event to one endpoint (at most once each: the fan-out is idempotent), and its attempts.
    create table webhook_deliveries (
      id text primary key,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      event_id text not null references events (id) on delete cascade,
      platform_id text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      created_at timestamptz not null default now(),
      unique (endpoint_id, event_id)
    );
    create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at);

    create table webhook_attempts (
      id bigserial primary key,
      delivery_id text not null references webhook_deliveries (id) on delete cascade,
      trigger text not null check (trigger in ('automatic', 'manual')),
      attempted_at timestamptz not null default now(),
      status_code integer,
      error text,
      latency_ms integer not null,
      response_excerpt text
    );
    create index webhook_attempts_delivery on webhook_attempts (delivery_id, id);

    -- Where the fan-out (events → deliveries) has read the outbox up to: one row.
    create table event_dispatch_state (
      id integer primary key check (id = 1),
      last_xid xid8 not null,
      last_seq bigint not null,
      updated_at timestamptz not null default now()
    );
    insert into event_dispatch_state (id, last_xid, last_seq) values (1, '0'::xid8, 0);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table event_dispatch_state;
    drop table webhook_attempts;
    drop table webhook_deliveries;
    drop table webhook_endpoint_secrets;
    drop table webhook_endpoints;
    drop table events;
  `.execute(db);
}
