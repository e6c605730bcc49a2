import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from src/modules.

/**
 * The platform console (/console): its users (a platform's own people, not operators), their browser sessions,
 * their one-time invitations, and the trail of what they did. Users, sessions and invitations are looked up by
 * e-mail or by a token's hash before the platform is known (reference tables, like operator_sessions); the trail
 * is the platform's own (distributed by platform_id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table console_users (
      id text not null,
      platform_id text not null references platforms(id),
      email text not null,
      -- scrypt$N$r$p$salt$hash (base64url); never the password.
      password_hash text not null,
      role text not null check (role in ('admin', 'developer', 'read_only')),
      created_at timestamptz not null default now(),
      primary key (id, platform_id)
    );
    -- One console account per e-mail address in an installation: sign-in asks only for the address.
    create unique index console_users_email_key on console_users (lower(email));
    create index console_users_platform_idx on console_users (platform_id, created_at);

    create table console_sessions (
      id text not null,
      platform_id text not null,
      user_id text not null,
      -- SHA-256 of the cookie's token; the token itself is never stored.
      token_hash bytea not null unique,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (id, platform_id),
      foreign key (user_id, platform_id) references console_users (id, platform_id) on delete cascade
    );
    create index console_sessions_user_idx on console_sessions (user_id, platform_id);

    create table console_invites (
      id text not null,
      platform_id text not null references platforms(id),
      email text not null,
      role text not null check (role in ('admin', 'developer', 'read_only')),
      token_hash bytea not null unique,
      -- null: the operator's CLI (statehouse console invite).
      invited_by text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      primary key (id, platform_id)
    );

    -- What console users did, append-only; user_id without a foreign key so the trail outlives a removed user.
    create table console_audit_events (
      id text not null,
      platform_id text not null,
      user_id text not null,
      user_email text not null,
      action text not null,
      subject_type text not null,
      subject_id text not null,
      details jsonb not null default '{}',
      created_at timestamptz not null default clock_timestamp(),
      primary key (id, platform_id)
    );
    create index console_audit_events_platform_idx on console_audit_events (platform_id, created_at desc, id desc);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table console_audit_events; drop table console_invites; drop table console_sessions; drop table console_users;`.execute(
    db,
  );
}
