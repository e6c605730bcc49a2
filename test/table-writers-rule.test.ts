import { describe, expect, it } from 'vitest';
import { writerViolations, writesIn, type ModuleWrite } from '../scripts/table-writers-rule.js';

const tables = (text: string) => writesIn('x.ts', text).map((w) => [w.table, w.how]);

describe('the one-writer-per-table rule (npm run seams)', () => {
  it("finds Kysely's writes, the table without its alias", () => {
    const text = [
      "db.insertInto('tasks').values(row).execute();",
      "await trx.updateTable('legal_entities as e').set({ status: 'active' }).execute();",
      "db\n  .deleteFrom('mail_items')\n  .where('id', '=', id);",
      "db.selectFrom('platforms').selectAll();",
    ].join('\n');
    expect(tables(text)).toEqual([
      ['tasks', 'insertInto'],
      ['legal_entities', 'updateTable'],
      ['mail_items', 'deleteFrom'],
    ]);
    expect(writesIn('x.ts', text).map((w) => w.line)).toEqual([1, 2, 3]);
  });

  it('finds raw writes in sql templates and strings, not in comments or reads', () => {
    const text = [
      '// update tasks set status = 1 (a comment)',
      'await sql`update legal_entities e set next_replan_on = ${d} where e.id = ${id}`.execute(db);',
      'await sql`insert into tasks (id) select * from unnest(${ids}::text[]) on conflict (id) do update set id = excluded.id`.execute(db);',
      "const PRUNE = 'DELETE FROM idempotency_keys WHERE created_at < $1';",
      'await sql`update only "events" set seq = 1`.execute(db);',
      'await sql`select * from tasks for update`.execute(db);',
    ].join('\n');
    expect(tables(text)).toEqual([
      ['legal_entities', 'sql'],
      ['tasks', 'sql'],
      ['idempotency_keys', 'sql'],
      ['events', 'sql'],
    ]);
  });

  it('reports a write whose table it cannot read', () => {
    expect(tables('db.insertInto(table).values(row);\nawait sql`insert into ${sql.table(t)} (id) values (1)`.execute(db);')).toEqual([
      [null, 'insertInto'],
      [null, 'sql'],
    ]);
  });

  const write = (module: string, table: string | null, line = 1): ModuleWrite => ({
    module,
    table,
    line,
    how: 'updateTable',
    file: `src/modules/${module}/${module}.repository.ts`,
  });

  it('refuses a table written by two modules, naming each writer', () => {
    const writes = [write('tasks', 'tasks', 3), write('tasks', 'tasks', 9), write('handbook', 'tasks', 7), write('mail', 'mail_items')];
    expect(writerViolations(writes, {})).toEqual([
      'table tasks has 2 writing modules: tasks (src/modules/tasks/tasks.repository.ts:3, src/modules/tasks/tasks.repository.ts:9); ' +
        'handbook (src/modules/handbook/handbook.repository.ts:7)',
    ]);
    expect(writerViolations([write('tasks', 'tasks'), write('mail', 'mail_items')], {})).toEqual([]);
  });

  it('lets an allowed second writer be, and no other', () => {
    const writes = [write('tasks', 'tasks'), write('handbook', 'tasks'), write('planning', 'tasks')];
    expect(writerViolations(writes, { tasks: { handbook: 'why it must' } })).toHaveLength(1);
    expect(writerViolations(writes, { tasks: { handbook: 'why', planning: 'why' } })).toEqual([]);
    expect(writerViolations([write('tasks', null)], {})[0]).toMatch(/whose table is not literal/);
  });
});
