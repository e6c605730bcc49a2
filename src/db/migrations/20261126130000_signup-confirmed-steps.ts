import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The hosted signup's steps the owner has saved. A step with details but not listed here was filled in by the
    -- platform, and the pages say so until the owner has checked it (docs/hosted-pages.md).
    alter table legal_entities add column signup_confirmed_steps text[] not null default '{}';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table legal_entities drop column signup_confirmed_steps;`.execute(db);
}
