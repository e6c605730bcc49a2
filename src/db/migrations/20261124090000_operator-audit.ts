import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Everything an operator does (API, CLI or back office), append-only: who, what, on which record.
    -- operator_key_id is kept without a foreign key so that the trail outlives a deleted key.
    create table operator_audit_events (
      id text primary key,
      operator_key_id text not null,
      operator_name text not null,
      action text not null,
      subject_type text not null,
      subject_id text not null,
      legal_entity_id text,
      details jsonb not null default '{}',
      created_at timestamptz not null default clock_timestamp()
    );
    create index operator_audit_events_created_idx on operator_audit_events (created_at desc, id desc);
    create index operator_audit_events_subject_idx on operator_audit_events (subject_type, subject_id, created_at desc);
    create index operator_audit_events_entity_idx on operator_audit_events (legal_entity_id, created_at desc) where legal_entity_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table operator_audit_events;`.execute(db);
}
