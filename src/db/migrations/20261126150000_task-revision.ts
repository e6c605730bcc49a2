import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- A task's revision: 0 when created, one more at every update that changes the row. The calendar feed's
    -- SEQUENCE must rise at each change, and a count kept by the database does so however close together two
    -- changes come (a clock-derived number did not, for two changes within a second).
    alter table tasks add column revision integer not null default 0;
    -- Existing tasks start from the SEQUENCE the feed gave them before (whole seconds from creation to the last
    -- change, rounded up), so a subscribed calendar never sees an event's SEQUENCE go down.
    update tasks set revision = least(2147483647, greatest(0, ceil(extract(epoch from updated_at - created_at))))::integer
      where updated_at > created_at;
    create function tasks_next_revision() returns trigger language plpgsql as $$
    begin
      new.revision := old.revision + 1;
      return new;
    end $$;
    create trigger tasks_revision before update on tasks
      for each row when (old.* is distinct from new.*) execute function tasks_next_revision();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger tasks_revision on tasks;
    drop function tasks_next_revision();
    alter table tasks drop column revision;
  `.execute(db);
}
