import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from src/modules.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table platforms (
      id text primary key,
      name text not null check (length(name) between 1 and 200),
      created_at timestamptz not null default now()
    );

    create table api_keys (
      id text primary key,
      platform_id text not null references platforms (id) on delete cascade,
      key_hash bytea not null unique,
      key_hint text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index api_keys_platform_id_idx on api_keys (platform_id);

    create table legal_entities (
      id text primary key,
      platform_id text not null references platforms (id) on delete cascade,
      status text not null check (status in ('inactive', 'active')),
      business_name text not null,
      user_email text,
      entity_type text,
      tax_classification text,
      incorporation_region text,
      incorporation_date date,
      ein text,
      llc_managed_type text,
      business_purpose text,
      business_phone text,
      business_email text,
      business_address jsonb,
      mailing_address jsonb,
      naics_code text,
      accounting_method text,
      accounting_period text,
      accounting_year_end smallint check (accounting_year_end between 1 and 12),
      futa_liability_year text,
      external_company_id text,
      authorization_callback_url text,
      payroll_connected_at timestamptz,
      last_payroll_update timestamptz,
      activated_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index legal_entities_platform_id_idx on legal_entities (platform_id);
    create unique index legal_entities_external_company_id_key
      on legal_entities (platform_id, external_company_id) where external_company_id is not null;

    create table hosted_sessions (
      id text primary key,
      purpose text not null,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      token_hash bytea not null unique,
      callback_url text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    );
    create index hosted_sessions_legal_entity_id_idx on hosted_sessions (legal_entity_id);

    create table legal_entity_locations (
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      region_id text not null,
      has_employees boolean,
      has_physical_location boolean,
      employee_count integer check (employee_count >= 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (legal_entity_id, region_id)
    );

    create table instance_secrets (
      name text primary key,
      value bytea not null,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table instance_secrets;
    drop table legal_entity_locations;
    drop table hosted_sessions;
    drop table legal_entities;
    drop table api_keys;
    drop table platforms;
  `.execute(db);
}
