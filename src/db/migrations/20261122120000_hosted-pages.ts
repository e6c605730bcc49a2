import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table hosted_sessions add column scope jsonb not null default '{}';
    alter table legal_entities add column signup_step text;

    create table hosted_browser_sessions (
      id text primary key,
      token_hash bytea not null unique,
      hosted_session_id text not null references hosted_sessions (id) on delete cascade,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      purpose text not null,
      scope jsonb not null default '{}',
      callback_url text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index hosted_browser_sessions_legal_entity_id_idx on hosted_browser_sessions (legal_entity_id);
    create index hosted_browser_sessions_hosted_session_id_idx on hosted_browser_sessions (hosted_session_id);

    create table platform_callback_origins (
      platform_id text not null references platforms (id) on delete cascade,
      origin text not null,
      created_at timestamptz not null default now(),
      primary key (platform_id, origin)
    );

    create table task_automations (
      task_id text primary key references tasks (id) on delete cascade,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      input jsonb not null,
      status text not null,
      history jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index task_automations_legal_entity_id_idx on task_automations (legal_entity_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table task_automations;
    drop table platform_callback_origins;
    drop table hosted_browser_sessions;
    alter table legal_entities drop column signup_step;
    alter table hosted_sessions drop column scope;
  `.execute(db);
}
