import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The employee handbook (src/modules/handbook/, docs/handbook.md). Every key starts with the tenant.
    -- The owner's draft: answers to the handbook questions and the adopt/skip choice of each optional policy.
    create table handbook_drafts (
      legal_entity_id text primary key references legal_entities (id) on delete cascade,
      answers jsonb not null default '{}',
      choices jsonb not null default '{}',
      updated_at timestamptz not null default now()
    );
    -- The employees the owner lists on the builder; removed ones stay (their acknowledgements are history).
    create table handbook_employees (
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      id text not null,
      name text not null,
      email text,
      created_at timestamptz not null default now(),
      removed_at timestamptz,
      primary key (legal_entity_id, id)
    );
    -- Published versions: immutable snapshots (the document as its readers see it), numbered 1, 2, … per entity.
    create table handbook_versions (
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      id text not null,
      number integer not null,
      document jsonb not null,
      regions text[] not null,
      published_at timestamptz not null default now(),
      primary key (legal_entity_id, id),
      unique (legal_entity_id, number)
    );
    -- A published version is never altered: the database refuses it, whatever the code does.
    create function handbook_versions_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'a published handbook version is immutable';
    end $$;
    create trigger handbook_versions_immutable before update on handbook_versions
      for each row execute function handbook_versions_immutable();
    create table handbook_acknowledgements (
      legal_entity_id text not null,
      employee_id text not null,
      version_id text not null,
      typed_name text not null,
      acknowledged_at timestamptz not null default now(),
      primary key (legal_entity_id, employee_id, version_id),
      foreign key (legal_entity_id, employee_id) references handbook_employees (legal_entity_id, id) on delete cascade,
      foreign key (legal_entity_id, version_id) references handbook_versions (legal_entity_id, id) on delete cascade
    );
    create index handbook_acknowledgements_version on handbook_acknowledgements (legal_entity_id, version_id);
    -- Each employee's acknowledgement link of one version, by the SHA-256 of its token (the token itself is an
    -- HMAC of the three ids under an instance key, so the builder can show the link again without storing it).
    create table handbook_ack_links (
      token_hash bytea primary key,
      legal_entity_id text not null,
      employee_id text not null,
      version_id text not null,
      created_at timestamptz not null default now(),
      unique (legal_entity_id, employee_id, version_id),
      foreign key (legal_entity_id, employee_id) references handbook_employees (legal_entity_id, id) on delete cascade,
      foreign key (legal_entity_id, version_id) references handbook_versions (legal_entity_id, id) on delete cascade
    );
    create index handbook_ack_links_version on handbook_ack_links (legal_entity_id, version_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table handbook_ack_links;
    drop table handbook_acknowledgements;
    drop table handbook_versions;
    drop function handbook_versions_immutable;
    drop table handbook_employees;
    drop table handbook_drafts;
  `.execute(db);
}
