import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The back office's browser sessions: only the cookie token's hash is stored. A session ends at
    -- expires_at (absolute), after an idle gap (last_seen_at, checked by the service), at sign-out, or when
    -- its operator key is revoked (the key is checked on every request).
    create table operator_sessions (
      id text primary key,
      token_hash bytea not null unique,
      operator_key_id text not null references operator_keys (id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index operator_sessions_key_idx on operator_sessions (operator_key_id);
    -- One-time sign-in links printed by 'statehouse operators login': usable once, before expires_at.
    create table operator_login_links (
      id text primary key,
      token_hash bytea not null unique,
      operator_key_id text not null references operator_keys (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table operator_login_links; drop table operator_sessions;`.execute(db);
}
