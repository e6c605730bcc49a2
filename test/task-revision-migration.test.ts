import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { admin, withDatabase } from './helpers/test-database.js';

const TASK_REVISION = '20261126150000_task-revision';
const provider = (names: string[]) => ({ getMigrations: async () => Object.fromEntries(names.map((n) => [n, migrations[n]!])) as Record<string, Migration> });

/** The calendar's SEQUENCE moved from a clock-derived number to tasks.revision: it must never go down for a subscriber. */
describe('migration 20261126150000: tasks.revision', () => {
  const { adminUrl } = inject('testCluster');
  const name = `statehouse_test_revision_${process.pid}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any>;
  afterAll(async () => {
    await db?.destroy();
    await admin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  });

  it('starts existing tasks at the SEQUENCE the feed gave them, and counts every later change', async () => {
    await admin(adminUrl, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: withDatabase(adminUrl, name), max: 2 }) }) });
    const before = Object.keys(migrations).filter((n) => n < TASK_REVISION);
    expect((await new Migrator({ db, provider: provider(before) }).migrateToLatest()).error).toBeUndefined();
    await sql`
      insert into platforms (id, name) values ('plt_1', 'Acme');
      insert into legal_entities (id, platform_id, status, business_name) values ('le_1', 'plt_1', 'active', 'Harbor Labs');
      insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key, status, created_at, updated_at) values
        ('task_changed', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'once', 'in-progress', '2026-11-01T00:00:00Z', '2026-11-01T01:00:00.2Z'),
        ('task_new', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'twice', 'todo', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z');
    `.execute(db);

    expect((await new Migrator({ db, provider: provider(Object.keys(migrations)) }).migrateToLatest()).error).toBeUndefined();
    const revisions = async () => Object.fromEntries(((await sql`select id, revision from tasks`.execute(db)).rows as { id: string; revision: number }[]).map((r) => [r.id, r.revision]));
    expect(await revisions()).toEqual({ task_changed: 3601, task_new: 0 });

    await sql`update tasks set status = 'done' where id = 'task_changed'`.execute(db);
    await sql`update tasks set status = 'in-progress' where id = 'task_new'`.execute(db);
    await sql`update tasks set status = 'in-progress' where id = 'task_new'`.execute(db); // no change: no new revision
    expect(await revisions()).toEqual({ task_changed: 3602, task_new: 1 });
  });
});
