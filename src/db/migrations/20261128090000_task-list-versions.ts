import { sql, type Kysely } from 'kysely';

/**
 * The version of an entity's task lists, kept by the database: one counter per entity, one more at every
 * statement that inserts, updates or deletes its tasks or automations. Every process reads the same number,
 * whatever its clock (the version it replaces was built from timestamps written by each process's clock).
 * Statement-level triggers with transition tables: a re-planning or roll-forward batch that writes hundreds
 * of tasks bumps each entity's counter once per statement, not once per row. No foreign key: a cascade delete
 * of an entity deletes its tasks and this row would then block it; an orphan counter is a few bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table task_list_versions (
      legal_entity_id text primary key,
      version bigint not null
    );
  `.execute(db);
  for (const table of ['tasks', 'automations']) {
    // Sorted entity ids: two concurrent statements lock the counters in the same order, so they cannot deadlock.
    const bump = (rows: string) => `
      insert into task_list_versions as v (legal_entity_id, version)
        select legal_entity_id, 1 from (${rows}) changed group by legal_entity_id order by legal_entity_id
        on conflict (legal_entity_id) do update set version = v.version + 1`;
    await sql
      .raw(
        `
      create function ${table}_list_version_inserted() returns trigger language plpgsql as $$
      begin ${bump('select legal_entity_id from new_rows')}; return null; end $$;
      create function ${table}_list_version_updated() returns trigger language plpgsql as $$
      begin ${bump('select legal_entity_id from new_rows union all select legal_entity_id from old_rows')}; return null; end $$;
      create function ${table}_list_version_deleted() returns trigger language plpgsql as $$
      begin ${bump('select legal_entity_id from old_rows')}; return null; end $$;
      create trigger ${table}_list_version_inserted after insert on ${table}
        referencing new table as new_rows for each statement execute function ${table}_list_version_inserted();
      create trigger ${table}_list_version_updated after update on ${table}
        referencing old table as old_rows new table as new_rows for each statement execute function ${table}_list_version_updated();
      create trigger ${table}_list_version_deleted after delete on ${table}
        referencing old table as old_rows for each statement execute function ${table}_list_version_deleted();
    `,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tasks', 'automations']) {
    for (const op of ['inserted', 'updated', 'deleted']) {
      await sql.raw(`drop trigger ${table}_list_version_${op} on ${table}; drop function ${table}_list_version_${op}();`).execute(db);
    }
  }
  await sql`drop table task_list_versions`.execute(db);
}
