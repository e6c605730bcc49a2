import { sql, type Kysely } from 'kysely';

// Frozen in time: migrations take Kysely<any> and import nothing from src/modules.

/**
 * Imports of a platform's book (docs/imports.md): one row per import and one per business in it. Each row's result
 * (the entity, or its errors) is stored with it in the batch's transaction, so a killed import resumes at the first
 * row without one. Both tables are the platform's: distributed by platform_id, which every key contains.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table imports (
      id text not null,
      platform_id text not null,
      status text not null default 'queued',
      format text not null,
      total integer not null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      primary key (id, platform_id)
    );
    create index imports_platform_created_idx on imports (platform_id, created_at desc, id desc);
    create table import_rows (
      import_id text not null,
      platform_id text not null,
      row_number integer not null,
      external_company_id text,
      input jsonb,
      result text,
      legal_entity_id text,
      errors jsonb,
      primary key (import_id, row_number, platform_id)
    );
    create index import_rows_pending_idx on import_rows (import_id, row_number) where result is null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table import_rows;
    drop table imports;
  `.execute(db);
}
