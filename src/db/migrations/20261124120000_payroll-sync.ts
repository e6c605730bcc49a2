import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Who added a location: the platform through the API ('api'), or a payroll report that found employees
    -- in a region the entity had no location in ('payroll'). Payroll never deletes a location.
    alter table legal_entity_locations
      add column added_by text not null default 'api' check (added_by in ('api', 'payroll'));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table legal_entity_locations drop column added_by;`.execute(db);
}
