import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- The fan-out (src/modules/webhook-deliveries/) reads the outbox past its cursor in (xid, seq) order, every
    -- half second when idle: an index on exactly that order keeps each read a short range scan.
    create index events_dispatch_order on events (xid, seq);
    -- A delivery's attempts are listed by the API; the endpoint's deliveries newest first, optionally by status.
    create index webhook_deliveries_endpoint_status on webhook_deliveries (endpoint_id, status, created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index webhook_deliveries_endpoint_status;
    drop index events_dispatch_order;
  `.execute(db);
}
