import { sql, type Kysely } from 'kysely';

/**
 * Dated API versions (docs/versions.md): each platform's default version, pinned when its first API key is made.
 * Every platform that exists now has made its key already, so it is pinned to the first version, 2026-11-28.
 * (The date is written here, not read from src/http/api-versions.ts: a migration never changes once shipped.)
 *
 * Test events of webhook endpoints (docs/webhooks.md): a delivery carries either an event of the log (`event_id`) or
 * the test event it was made for (`test_event`, the whole event as delivered), which is not in the log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table platforms add column api_version text;
    update platforms set api_version = '2026-11-28';

    alter table webhook_deliveries add column test_event jsonb,
      alter column event_id drop not null,
      add constraint webhook_deliveries_event_or_test check ((event_id is null) <> (test_event is null));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    delete from webhook_deliveries where test_event is not null;
    alter table webhook_deliveries drop constraint webhook_deliveries_event_or_test,
      alter column event_id set not null,
      drop column test_event;
    alter table platforms drop column api_version;
  `.execute(db);
}
