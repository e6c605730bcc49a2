import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Operators (the people running Statehouse) call the operator API with their own keys, never a platform's.
    create table operator_keys (
      id text primary key,
      name text not null,
      key_hash bytea not null unique,
      key_hint text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );

    -- Mail received for a legal entity; the PDF itself lives in the file store under its SHA-256.
    create table mail_items (
      id text primary key,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      region_code text,
      type text not null check (type in ('registered-agent', 'external-mail')),
      received_on date not null,
      sender text,
      file_sha256 text not null,
      file_size bigint not null,
      file_name text,
      created_at timestamptz not null default now()
    );
    create index mail_items_legal_entity_id_idx on mail_items (legal_entity_id, received_on);

    -- What a connection learned about the account at the agency (status, id number, rates, history).
    alter table agency_accounts add column details jsonb;

    create table account_connections (
      id text primary key,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      platform_id text not null references platforms (id) on delete cascade,
      agency_account_id text not null references agency_accounts (id) on delete cascade,
      login_id text references account_logins (id) on delete set null,
      status text not null check (status in ('pending', 'authenticating', 'registering', 'connected', 'disconnected', 'canceled')),
      status_reason text,
      status_changed_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index account_connections_legal_entity_id_idx on account_connections (legal_entity_id);
    create index account_connections_agency_account_id_idx on account_connections (agency_account_id);
    create index account_connections_active_idx on account_connections (status) where status in ('authenticating', 'registering');

    -- Every status change of a connection, in order.
    create table account_connection_events (
      id bigserial primary key,
      connection_id text not null references account_connections (id) on delete cascade,
      from_status text,
      to_status text not null,
      reason text,
      occurred_at timestamptz not null default now()
    );
    create index account_connection_events_connection_id_idx on account_connection_events (connection_id, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table account_connection_events;
    drop table account_connections;
    alter table agency_accounts drop column details;
    drop table mail_items;
    drop table operator_keys;
  `.execute(db);
}
