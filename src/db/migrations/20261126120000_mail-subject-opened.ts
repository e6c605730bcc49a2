import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The documents page shows each item's subject and whether it is new. subject: what the mail is about, as the
    -- operator (or the automation that filed it) recorded it; null for mail recorded before, or without one.
    -- opened_at: when the owner first opened the item from the documents page; null = new.
    alter table mail_items add column subject text;
    alter table mail_items add column opened_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table mail_items drop column subject, drop column opened_at`.execute(db);
}
