import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- Which associated data a login's sealed secret is bound to: 1 = the purpose only (older rows),
    -- 2 = also the login's id. Every new seal writes 2; 'statehouse logins reencrypt' upgrades 1.
    alter table account_logins add column secret_aad_version smallint not null default 1
      check (secret_aad_version in (1, 2));
    alter table account_logins alter column secret_aad_version drop default;

    -- Instance keys (token signing, CSRF, file links) are sealed with the vault key: value holds the
    -- ciphertext when key_id is set. Rows without key_id are plaintext from before; the first process
    -- that starts seals them (it has the vault key; a migration does not).
    alter table instance_secrets add column iv bytea, add column tag bytea, add column key_id text;
    alter table instance_secrets add constraint instance_secrets_sealed_check
      check ((iv is null and tag is null and key_id is null) or (iv is not null and tag is not null and key_id is not null));
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table instance_secrets drop constraint instance_secrets_sealed_check;
    alter table instance_secrets drop column iv, drop column tag, drop column key_id;
    alter table account_logins drop column secret_aad_version;
  `.execute(db);
}
