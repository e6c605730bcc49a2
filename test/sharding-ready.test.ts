import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { tablePlacements, type TablePlacement } from '../src/db/distribution.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';

/** A table's unique indexes (primary key included) and foreign keys, by column name, from the catalog. */
interface TableKeys {
  uniques: { name: string; primary: boolean; columns: string[] }[];
  foreignKeys: { name: string; references: string; pairs: [string, string][] }[];
}

async function readCatalog(client: pg.Client): Promise<Map<string, TableKeys>> {
  const tables = new Map<string, TableKeys>();
  const { rows: names } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`,
  );
  for (const { name } of names) tables.set(name, { uniques: [], foreignKeys: [] });
  const { rows: uniques } = await client.query<{ table: string; name: string; primary: boolean; columns: string[] }>(
    `select t.relname as table, i.relname as name, x.indisprimary as primary,
            array(select a.attname::text from unnest(x.indkey) k join pg_attribute a on a.attrelid = t.oid and a.attnum = k) as columns
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and x.indisunique`,
  );
  for (const u of uniques) tables.get(u.table)?.uniques.push({ name: u.name, primary: u.primary, columns: u.columns });
  const { rows: fks } = await client.query<{ table: string; name: string; references: string; columns: string[]; referenced: string[] }>(
    `select t.relname as table, c.conname as name, r.relname as references,
            array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as columns,
            array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as referenced
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public' and c.contype = 'f'`,
  );
  for (const f of fks)
    tables.get(f.table)?.foreignKeys.push({
      name: f.name,
      references: f.references,
      pairs: f.columns.map((c, i): [string, string] => [c, f.referenced[i]!]),
    });
  return tables;
}

const group = (p: TablePlacement) => (p.kind === 'distributed' ? p.colocatedWith : null);

/** Everything that would stop a Citus-style distributed PostgreSQL from placing the schema as src/db/distribution.ts says. */
function shardingProblems(catalog: Map<string, TableKeys>, placements: Readonly<Record<string, TablePlacement>>): string[] {
  const problems: string[] = [];
  for (const name of catalog.keys()) if (!placements[name]) problems.push(`${name}: not classified in src/db/distribution.ts`);
  for (const name of Object.keys(placements)) if (!catalog.has(name)) problems.push(`${name}: classified but not in the schema`);
  for (const [name, keys] of catalog) {
    const placement = placements[name];
    if (!placement) continue;
    if (placement.kind === 'distributed') {
      const exempt = new Set(placement.crossShardUnique ?? []);
      if (!keys.uniques.some((u) => u.primary)) problems.push(`${name}: no primary key`);
      for (const u of keys.uniques) {
        const hasTenant = u.columns.includes(placement.column);
        if (!hasTenant && !exempt.has(u.name))
          problems.push(
            `${name}: ${u.primary ? 'primary key' : 'unique index'} ${u.name} (${u.columns.join(', ')}) lacks ${placement.column}`,
          );
        if (hasTenant && exempt.has(u.name)) problems.push(`${name}: ${u.name} is listed as cross-shard but contains ${placement.column}`);
        if (u.primary && exempt.has(u.name)) problems.push(`${name}: the primary key cannot be cross-shard`);
      }
      for (const e of exempt) if (!keys.uniques.some((u) => u.name === e)) problems.push(`${name}: cross-shard unique ${e} does not exist`);
    }
    for (const fk of keys.foreignKeys) {
      const target = placements[fk.references];
      if (!target) continue;
      const where = `${name}.${fk.name} → ${fk.references}`;
      if (placement.kind === 'reference' && target.kind !== 'reference')
        problems.push(`${where}: a reference table may only reference reference tables`);
      if (placement.kind === 'distributed' && target.kind === 'coordinator')
        problems.push(`${where}: a distributed table cannot reference a coordinator table`);
      if (placement.kind === 'coordinator' && target.kind === 'distributed')
        problems.push(`${where}: a coordinator table cannot reference a distributed table`);
      if (placement.kind === 'distributed' && target.kind === 'distributed') {
        if (group(placement) !== group(target)) problems.push(`${where}: tables distributed by different keys`);
        else if (!fk.pairs.some(([from, to]) => from === placement.column && to === target.column)) {
          problems.push(`${where}: (${fk.pairs.map((p) => p[0]).join(', ')}) does not carry ${placement.column} to ${target.column}`);
        }
      }
    }
  }
  return problems;
}

describe('the schema is ready to be distributed by tenant (src/db/distribution.ts)', () => {
  const cluster = inject('testCluster');
  let url: string;
  let client: pg.Client;
  beforeAll(async () => {
    url = await createTestDatabase(cluster);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    if (url) await dropTestDatabase(cluster.adminUrl, url);
  });

  it('classifies every table, and every key of a distributed table contains its tenant column', async () => {
    const catalog = await readCatalog(client);
    expect(catalog.size).toBeGreaterThan(30);
    expect(shardingProblems(catalog, tablePlacements)).toEqual([]);
  });

  it("keeps the cross-shard unique keys to the lookups that have no tenant yet (token hashes, a platform's company id)", () => {
    const exempt = Object.entries(tablePlacements).flatMap(([table, p]) =>
      p.kind === 'distributed' ? (p.crossShardUnique ?? []).map((u) => `${table}.${u}`) : [],
    );
    expect(exempt.sort()).toEqual([
      'calendar_feeds.calendar_feeds_token_hash_key',
      'handbook_ack_links.handbook_ack_links_token_hash_key',
      'hosted_browser_sessions.hosted_browser_sessions_token_hash_key',
      'hosted_sessions.hosted_sessions_token_hash_key',
      'legal_entities.legal_entities_external_company_id_key',
    ]);
  });

  it('keeps an index for every lookup by id alone that the code still makes (the keys are (id, tenant), id first)', async () => {
    const lookups = [
      `select * from tasks where id = any('{task_a,task_b}'::text[])`, // task events (TaskChange carries no tenant yet)
      `select * from automations where id = 'aut_a' for update`, // jobs, operator actions
      `select step_key from automation_steps where automation_id = any('{aut_a}'::text[])`,
      `select * from automation_status_logs where automation_id = any('{aut_a}'::text[]) order by id`,
      `select * from account_connections where id = 'con_a'`,
      `select * from account_connection_events where connection_id = any('{con_a}'::text[]) order by id`,
      `select * from hosted_sessions where id = 'hs_a'`,
      `select * from webhook_deliveries where id = 'del_a'`,
      `select * from webhook_attempts where delivery_id = 'del_a' order by id`,
      `select * from webhook_endpoint_secrets where endpoint_id = 'we_a'`,
      `select * from events where seq > 10 order by seq limit 10`,
    ];
    await client.query('begin');
    try {
      await client.query('set local enable_seqscan = off');
      for (const query of lookups) {
        const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain ${query}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
        expect({ query, seqScan: plan.includes('Seq Scan') }).toEqual({ query, seqScan: false });
      }
    } finally {
      await client.query('rollback');
    }
  });

  it('finds an unclassified table, a key without the tenant and a foreign key that leaves it out', async () => {
    await client.query(`
      create table sharding_probe (id text primary key, legal_entity_id text not null references legal_entities (id), task_id text not null,
        foreign key (task_id, legal_entity_id) references tasks (id, legal_entity_id));
      create table sharding_probe_child (id text, legal_entity_id text not null, probe_id text references sharding_probe (id),
        primary key (id, legal_entity_id));
      create unique index sharding_probe_child_probe on sharding_probe_child (probe_id);`);
    try {
      const catalog = await readCatalog(client);
      expect(shardingProblems(catalog, tablePlacements)).toEqual(
        expect.arrayContaining([
          'sharding_probe: not classified in src/db/distribution.ts',
          'sharding_probe_child: not classified in src/db/distribution.ts',
        ]),
      );
      const placements: Record<string, TablePlacement> = {
        ...tablePlacements,
        sharding_probe: { kind: 'distributed', column: 'legal_entity_id', colocatedWith: 'legal_entities' },
        sharding_probe_child: { kind: 'distributed', column: 'legal_entity_id', colocatedWith: 'legal_entities' },
        operator_keys: { kind: 'coordinator', why: 'probe' },
        handbook_versions: { kind: 'coordinator', why: 'probe' },
      };
      expect(shardingProblems(catalog, placements).sort()).toEqual(
        [
          'handbook_ack_links.handbook_ack_links_legal_entity_id_version_id_fkey → handbook_versions: a distributed table cannot reference a coordinator table',
          'handbook_acknowledgements.handbook_acknowledgements_legal_entity_id_version_id_fkey → handbook_versions: a distributed table cannot reference a coordinator table',
          'handbook_versions.handbook_versions_legal_entity_id_fkey → legal_entities: a coordinator table cannot reference a distributed table',
          'operator_login_links.operator_login_links_operator_key_id_fkey → operator_keys: a reference table may only reference reference tables',
          'operator_sessions.operator_sessions_operator_key_id_fkey → operator_keys: a reference table may only reference reference tables',
          'sharding_probe: primary key sharding_probe_pkey (id) lacks legal_entity_id',
          'sharding_probe_child.sharding_probe_child_probe_id_fkey → sharding_probe: (probe_id) does not carry legal_entity_id to legal_entity_id',
          'sharding_probe_child: unique index sharding_probe_child_probe (probe_id) lacks legal_entity_id',
        ].sort(),
      );
    } finally {
      await client.query('drop table sharding_probe_child; drop table sharding_probe;');
    }
  });
});
