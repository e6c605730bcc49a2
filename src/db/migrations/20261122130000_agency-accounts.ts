import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table agency_accounts (
      id text primary key,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      region_code text not null,
      agency_id text not null,
      name text not null,
      data jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index agency_accounts_legal_entity_id_idx on agency_accounts (legal_entity_id);

    create table account_logins (
      id text primary key,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      agency_account_id text references agency_accounts (id) on delete set null,
      region_code text not null,
      name text not null,
      login_url text not null,
      is_supported boolean not null default false,
      secret_ciphertext bytea not null,
      secret_iv bytea not null,
      secret_tag bytea not null,
      key_id text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index account_logins_legal_entity_id_idx on account_logins (legal_entity_id);
    create index account_logins_agency_account_id_idx on account_logins (agency_account_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table account_logins;
    drop table agency_accounts;
  `.execute(db);
}
