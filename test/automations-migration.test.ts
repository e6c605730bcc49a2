import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationDatabase } from './helpers/migration-database.js';

const AUTOMATIONS = '20261124100000_automations';

/** The rows of `task_automations` (inputs collected before there were workers) become automations in the operator queue. */
describe('migration 20261124100000: task_automations → automations', () => {
  const migration = migrationDatabase('migration', AUTOMATIONS);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any>;

  it('moves each row with its status history, hands it to the operator queue, and drops the old table', async () => {
    const created = await migration.create();
    db = created.db;
    expect(created.error).toBeUndefined();
    await sql`
      insert into platforms (id, name) values ('plt_1', 'Acme');
      insert into legal_entities (id, platform_id, status, business_name) values ('le_1', 'plt_1', 'active', 'Harbor Labs');
      insert into tasks (id, legal_entity_id, kind, definition_id, region_code, period_key, due_date, status)
        values ('task_1', 'le_1', 'requirement', 'ca-edd-employer-registration', 'CA', 'once', '2026-12-15', 'in-progress');
      insert into task_automations (task_id, legal_entity_id, input, status, history)
        values ('task_1', 'le_1', '{"officer_name": "Ada"}', 'started', '[{"status": "started", "updated_at": "2026-11-20T10:00:00Z"}]');
    `.execute(db);

    expect(await migration.toLatest()).toBeUndefined();
    const rows = (await sql`select * from automations`.execute(db)).rows as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      task_id: 'task_1',
      legal_entity_id: 'le_1',
      platform_id: 'plt_1',
      requirement_id: 'ca-edd-employer-registration',
      region_code: 'CA',
      performer: 'operator',
      status: 'started',
      input: { officer_name: 'Ada' },
      current_step: null,
    });
    expect(String(rows[0]!.id)).toMatch(/^aut_[0-9a-f]{24}$/);
    const logs = (await sql`select status, reason, actor, created_at from automation_status_logs order by id`.execute(db)).rows as Record<
      string,
      unknown
    >[];
    expect(logs.map((l) => [l.status, l.actor])).toEqual([
      ['started', 'system'],
      ['started', 'system'],
    ]);
    expect((logs[0]!.created_at as Date).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(logs[1]!.reason).toMatch(/handed to the operator queue/);
    expect((await sql`select to_regclass('task_automations') as t`.execute(db)).rows).toEqual([{ t: null }]);
  });
});
