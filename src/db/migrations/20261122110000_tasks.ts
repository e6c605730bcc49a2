import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tasks (
      id text primary key,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      kind text not null check (kind in ('requirement', 'question')),
      definition_id text not null,
      region_code text not null,
      period_key text not null,
      period_start_date date,
      period_end_date date,
      due_date date,
      status text not null default 'todo' check (status in ('todo', 'in-progress', 'done', 'dismissed')),
      answer jsonb,
      criteria_met jsonb not null default '[]',
      blocked_by jsonb not null default '[]',
      applicable boolean not null default true,
      acted_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Also the index for every per-entity read (legal_entity_id is its first column): no other index needed.
      constraint tasks_identity_key unique (legal_entity_id, definition_id, region_code, period_key)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table tasks`.execute(db);
}
