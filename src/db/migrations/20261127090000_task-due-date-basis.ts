import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- How a task's due date was found, so every date can be explained: the rule in words, whether the date is
    -- exact or estimated (a fact it depends on is not known yet), and the question whose answer makes it exact.
    -- Null for tasks without a due date; existing tasks get theirs at their next re-planning.
    alter table tasks
      add column due_date_rule text,
      add column due_date_exact boolean,
      add column due_date_question text;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tasks drop column due_date_rule, drop column due_date_exact, drop column due_date_question`.execute(db);
}
