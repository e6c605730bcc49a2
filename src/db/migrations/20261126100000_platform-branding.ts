import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    -- A platform's look on the hosted pages (src/modules/platforms/platform-brands.*): the name shown to its
    -- business owners, an accent colour (#rrggbb, checked for contrast before it is stored) and a small PNG or
    -- JPEG logo kept here and served from our own origin by its SHA-256 (hosted pages load nothing from third
    -- parties). One row per platform; no row, or null fields, means the default look.
    create table platform_brands (
      platform_id text primary key references platforms (id) on delete cascade,
      display_name text check (char_length(display_name) between 1 and 100),
      accent_color text check (accent_color ~ '^#[0-9a-f]{6}$'),
      logo bytea check (octet_length(logo) <= 102400),
      logo_content_type text check (logo_content_type in ('image/png', 'image/jpeg')),
      logo_sha256 text,
      updated_at timestamptz not null default now(),
      check ((logo is null) = (logo_content_type is null) and (logo is null) = (logo_sha256 is null))
    );
    create index platform_brands_logo on platform_brands (logo_sha256) where logo_sha256 is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table platform_brands`.execute(db);
}
