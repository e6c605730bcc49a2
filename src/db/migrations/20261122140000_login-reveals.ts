import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table login_reveals (
      id text primary key,
      login_id text not null references account_logins (id) on delete cascade,
      legal_entity_id text not null references legal_entities (id) on delete cascade,
      platform_id text not null references platforms (id) on delete cascade,
      hosted_session_id text not null,
      browser_session_id text not null,
      revealed_at timestamptz not null default now()
    );
    create index login_reveals_legal_entity_id_idx on login_reveals (legal_entity_id, revealed_at);
    create index login_reveals_login_id_idx on login_reveals (login_id);
    create index login_reveals_platform_id_idx on login_reveals (platform_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table login_reveals`.execute(db);
}
