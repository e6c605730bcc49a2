import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Idempotency-Key (src/modules/idempotency/): one row per key a caller sent with a POST or PATCH, in the
    -- caller's scope ('platform:<id>' or 'operator:<key id>'). in_flight: claimed by claim_id until locked_until
    -- (then another request may take it over); complete: the stored response, its body sealed with the vault key.
    create table idempotency_keys (
      scope text not null,
      key text not null,
      fingerprint text not null,
      state text not null check (state in ('in_flight', 'complete')),
      claim_id text not null,
      locked_until timestamptz not null,
      response_status smallint,
      response_headers jsonb,
      response_body bytea,
      response_iv bytea,
      response_tag bytea,
      response_key_id text,
      created_at timestamptz not null default now(),
      primary key (scope, key),
      check (state = 'in_flight' or (response_status is not null and response_body is not null))
    );
    -- The pruning job deletes by age.
    create index idempotency_keys_created_at on idempotency_keys (created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table idempotency_keys;`.execute(db);
}
