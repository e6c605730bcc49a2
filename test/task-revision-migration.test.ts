import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationDatabase } from './helpers/migration-database.js';

const TASK_REVISION = '20261126150000_task-revision';

/** The calendar's SEQUENCE moved from a clock-derived number to tasks.revision: it must never go down for a subscriber. */
describe('migration 20261126150000: tasks.revision', () => {
  const migration = migrationDatabase('revision', TASK_REVISION);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any>;

  it('starts existing tasks at the SEQUENCE the feed gave them, and counts every later change', async () => {
    const created = await migration.create();
    db = created.db;
    expect(created.error).toBeUndefined();
    await sql`
      insert into platforms (id, name) values ('plt_1', 'Acme');
      insert into legal_entities (id, platform_id, status, business_name) values ('le_1', 'plt_1', 'active', 'Harbor Labs');
      insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key, status, created_at, updated_at) values
        ('task_changed', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'once', 'in-progress', '2026-11-01T00:00:00Z', '2026-11-01T01:00:00.2Z'),
        ('task_new', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'twice', 'todo', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    `.execute(db);

    expect(await migration.toLatest()).toBeUndefined();
    const revisions = async () =>
      Object.fromEntries(
        ((await sql`select id, revision from tasks`.execute(db)).rows as { id: string; revision: number }[]).map((r) => [r.id, r.revision]),
      );
    expect(await revisions()).toEqual({ task_changed: 3601, task_new: 0 });

    await sql`update tasks set status = 'done' where id = 'task_changed'`.execute(db);
    await sql`update tasks set status = 'in-progress' where id = 'task_new'`.execute(db);
    await sql`update tasks set status = 'in-progress' where id = 'task_new'`.execute(db); // no change: no new revision
    expect(await revisions()).toEqual({ task_changed: 3602, task_new: 1 });
  });
});
