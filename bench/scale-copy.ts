/**
 * The SQL of the scale loader (bench/scale-load.ts): copies of planned template entities, made inside PostgreSQL.
 *
 * Every column list is read from the live catalog (information_schema), never written here, so the loader keeps
 * working when a migration adds a column or a key: a copy takes every column of its template row except the few it
 * must change (the ids, the entity's name and e-mail, its external id).
 */
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The table's writable columns, in order. */
export async function columnsOf(db: Db, table: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER' and coalesce(identity_generation, '') <> 'ALWAYS'
    order by ordinal_position`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Public tables with a legal_entity_id column that hold rows of the given entities (what planning wrote for them). */
export async function perEntityTables(db: Db, entityIds: string[], exclude: readonly string[]): Promise<string[]> {
  const candidates = await sql<{ name: string }>`
    select c.table_name as name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema() and c.column_name = 'legal_entity_id'
    order by c.table_name`.execute(db);
  const found: string[] = [];
  for (const { name } of candidates.rows) {
    if (exclude.includes(name)) continue;
    const any = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(name)} where legal_entity_id = any(${entityIds}::text[])`.execute(db);
    if (any.rows[0]!.n > 0) found.push(name);
  }
  return found;
}

/**
 * The mapping table of copies: `n` (1…count), the new entity id (`le_` + 24 hex characters of md5, deterministic, so
 * every load of the same size makes the same ids) and its template, templates taken in turn.
 */
export async function createCopies(db: Db, templateIds: string[], count: number): Promise<void> {
  await sql`drop table if exists bench_scale_copies`.execute(db);
  await sql`create unlogged table bench_scale_copies (n integer primary key, id text not null, template_id text not null)`.execute(db);
  await sql`
    insert into bench_scale_copies (n, id, template_id)
    select g, 'le_' || left(md5('bench-scale-' || g), 24), (${templateIds}::text[])[1 + (g - 1) % ${templateIds.length}]
    from generate_series(1, ${count}::integer) g`.execute(db);
  await sql`create index on bench_scale_copies (template_id)`.execute(db);
  await sql`analyze bench_scale_copies`.execute(db);
}

export const copyEntityId = (n: number, md5: (s: string) => string) => `le_${md5(`bench-scale-${n}`).slice(0, 24)}`;

/** Copies of legal_entities rows for copies n in [from, to]. */
export async function copyEntities(db: Db, columns: string[], from: number, to: number): Promise<number> {
  const special: Record<string, string> = {
    id: 'c.id',
    business_name: `'Bench Business ' || c.n`,
    user_email: `'owner' || c.n || '@bench.example'`,
    external_company_id: 'null',
  };
  const select = columns.map((c) => special[c] ?? `e.${quote(c)}`).join(', ');
  const result = await sql`
    insert into legal_entities (${sql.raw(columns.map(quote).join(', '))})
    select ${sql.raw(select)} from bench_scale_copies c join legal_entities e on e.id = c.template_id
    where c.n between ${from} and ${to}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The templates' rows of a per-entity table, set apart in a small table of their own: the copies read them from
 * there, not from the table being filled (which has no index during a bulk load, and grows by a million rows a
 * chunk).
 */
export async function stageTemplateRows(db: Db, table: string, templateIds: string[]): Promise<void> {
  await sql`drop table if exists ${sql.table(`bench_scale_src_${table}`)}`.execute(db);
  await sql`create unlogged table ${sql.table(`bench_scale_src_${table}`)} as select * from ${sql.table(table)} where legal_entity_id = any(${templateIds}::text[])`.execute(
    db,
  );
  await sql`create index on ${sql.table(`bench_scale_src_${table}`)} (legal_entity_id)`.execute(db);
  await sql`analyze ${sql.table(`bench_scale_src_${table}`)}`.execute(db);
}

export const dropStagedRows = (db: Db, table: string) => sql`drop table if exists ${sql.table(`bench_scale_src_${table}`)}`.execute(db);

/**
 * Copies of a per-entity table's rows (tasks, locations, …) for copies n in [from, to]: legal_entity_id becomes the
 * copy's; an `id` column gets a new id with the template row's prefix (`task_` + 24 hex characters of md5).
 */
export async function copyRows(db: Db, table: string, columns: string[], from: number, to: number): Promise<number> {
  const special: Record<string, string> = {
    legal_entity_id: 'c.id',
    id: `split_part(r.id, '_', 1) || '_' || left(md5(c.id || r.id), 24)`,
  };
  const select = columns.map((c) => special[c] ?? `r.${quote(c)}`).join(', ');
  const result = await sql`
    insert into ${sql.table(table)} (${sql.raw(columns.map(quote).join(', '))})
    select ${sql.raw(select)} from bench_scale_copies c join ${sql.table(`bench_scale_src_${table}`)} r on r.legal_entity_id = c.template_id
    where c.n between ${from} and ${to}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The DDL to drop and to recreate a table's indexes and keys (and the foreign keys that point at it), read from the catalog. */
export interface TableKeys {
  table: string;
  drop: string[];
  create: string[];
}

export async function tableKeys(db: Db, table: string): Promise<TableKeys> {
  // Keys of the table: primary and unique first (foreign keys may need them), then its own foreign keys.
  const own = await sql<{ name: string; def: string; type: string }>`
    select conname as name, pg_get_constraintdef(oid) as def, contype as type from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u', 'f')
    order by case contype when 'p' then 0 when 'u' then 1 else 2 end, conname`.execute(db);
  const incoming = await sql<{ name: string; def: string; source: string }>`
    select conname as name, pg_get_constraintdef(oid) as def, conrelid::regclass::text as source from pg_constraint
    where confrelid = ${table}::regclass and conrelid <> confrelid and contype = 'f' order by conname`.execute(db);
  const indexes = await sql<{ name: string; def: string }>`
    select i.relname as name, pg_get_indexdef(x.indexrelid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = ${table}::regclass and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.conrelid = x.indrelid)
    order by i.relname`.execute(db);
  const t = quote(table);
  return {
    table,
    drop: [
      ...incoming.rows.map((c) => `alter table ${c.source} drop constraint ${quote(c.name)}`),
      ...[...own.rows].reverse().map((c) => `alter table ${t} drop constraint ${quote(c.name)}`),
      ...indexes.rows.map((i) => `drop index ${quote(i.name)}`),
    ],
    create: [
      ...own.rows.filter((c) => c.type !== 'f').map((c) => `alter table ${t} add constraint ${quote(c.name)} ${c.def}`),
      ...indexes.rows.map((i) => i.def),
      ...own.rows.filter((c) => c.type === 'f').map((c) => `alter table ${t} add constraint ${quote(c.name)} ${c.def}`),
      ...incoming.rows.map((c) => `alter table ${c.source} add constraint ${quote(c.name)} ${c.def}`),
    ],
  };
}

export async function runAll(db: Db, statements: string[], log: (s: string) => void): Promise<void> {
  for (const statement of statements) {
    const t0 = performance.now();
    // Index builds sort in memory rather than on disk, on two workers.
    await db.transaction().execute(async (trx) => {
      await sql`set local maintenance_work_mem = '1GB'`.execute(trx);
      await sql`set local max_parallel_maintenance_workers = 2`.execute(trx);
      await sql.raw(statement).execute(trx);
    });
    log(`${statement.slice(0, 140)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
}
