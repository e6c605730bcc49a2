/**
 * Benchmark child (BENCH_SCENARIO=scale): a database of BENCH_SCALE_ENTITIES legal entities with their planned tasks,
 * in an embedded PostgreSQL kept in STATEHOUSE_DATA_DIR for the next run.
 *
 * What is loaded, and how (docs/benchmarks.md, "A million entities"):
 * 1. BENCH_SCALE_PROFILES template entities (default 500) with 3 locations each, varied like a real book
 *    (bench/generation-seed.ts), planned by the real engine (PlanningService.replanBatch): these are real entities;
 * 2. one "hot" entity with locations added until it has BENCH_TASKS_PER_ENTITY (300) tasks, planned the same way;
 * 3. the rest are copies made inside PostgreSQL (INSERT … SELECT, nothing crosses the wire): each copy takes a
 *    template in turn and gets its entity row, its locations and its tasks (same dates, same facts), with new ids.
 *    Every column list comes from the live catalog, so a migration that adds a column is copied along.
 *    Above 100 000 entities the keys and indexes of the copied tables are dropped first and built once at the end.
 * 4. VACUUM (FREEZE, ANALYZE): statistics, and the visibility map that index-only scans need.
 *
 * Reuse: a marker file (scale-load.json) beside the data says which loader version, size and migrations made it;
 * when they all match, the database is reused as it is, else the directory is emptied and loaded again (a load
 * that stopped half-way left no marker, so the next run starts over: idempotent, not resumable).
 *
 * Each run then issues a fresh API key of the bench platform, prints the `benchReady` line (key, platform, hot
 * entity, sample entity ids, sizes) and stops PostgreSQL on SIGTERM.
 *
 * Env: STATEHOUSE_DATA_DIR (required), BENCH_SCALE_ENTITIES (required), BENCH_SCALE_PROFILES (500),
 *      BENCH_SCALE_SAMPLE (entity ids reported for the load, 2000), BENCH_TASKS_PER_ENTITY (300).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { loadCatalog } from '../src/catalog/catalog.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createPlanningModule } from '../src/modules/planning/index.js';
import { createPlatformsModule } from '../src/modules/platforms/index.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { announceReady, log, onShutdown, requireEnv } from './child-lifecycle.js';
import { seed } from './generation-seed.js';
import { hotEntity } from './scale-hot-entity.js';
import {
  columnsOf,
  copyEntities,
  copyEntityId,
  copyRows,
  createCopies,
  dropStagedRows,
  perEntityTables,
  runAll,
  stageTemplateRows,
  tableKeys,
} from './scale-copy.js';

const NAME = 'scale-load';
const say = (message: string) => log(NAME, message);

/** Raise when what is loaded changes: a marker of another version means reload. */
export const LOADER_VERSION = 2;
const MARKER = 'scale-load.json';
const BULK_THRESHOLD = 100_000;
/** Copies per INSERT … SELECT (about 1 M task rows each): progress to show and a transaction of bounded size. */
const COPY_CHUNK = 40_000;
const PLAN_BATCH = 200;

export interface ScaleMarker {
  loaderVersion: number;
  entities: number;
  profiles: number;
  migrations: string[];
  platformId: string;
  hotEntityId: string;
  hotTasks: number;
  copies: number;
  loadedAt: string;
  loadSeconds: number;
  phases: Record<string, number>;
  rows: Record<string, number>;
  copiedTables: string[];
}

export interface ScaleLoadReport extends ScaleMarker {
  reused: boolean;
  apiKey: string;
  sampleEntityIds: string[];
  databaseBytes: number;
  tableBytes: Record<string, number>;
}

function numberEnv(name: string, fallback: number | null): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (value === null || !Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1 (got '${raw}')`);
  return value;
}

const ENTITIES = numberEnv('BENCH_SCALE_ENTITIES', null);
const PROFILES = Math.min(numberEnv('BENCH_SCALE_PROFILES', 500), Math.max(1, ENTITIES - 1));
const SAMPLE = numberEnv('BENCH_SCALE_SAMPLE', 2000);
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

function markerMatches(marker: ScaleMarker | null): marker is ScaleMarker {
  return (
    marker !== null &&
    marker.loaderVersion === LOADER_VERSION &&
    marker.entities === ENTITIES &&
    marker.profiles === PROFILES &&
    JSON.stringify(marker.migrations) === JSON.stringify(Object.keys(migrations))
  );
}

function readMarker(dataDir: string): ScaleMarker | null {
  const file = path.join(dataDir, MARKER);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ScaleMarker;
  } catch {
    return null;
  }
}
async function load(db: Db, publicBaseUrl: string): Promise<ScaleMarker> {
  const phases: Record<string, number> = {};
  const timed = async <T>(phase: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await f();
    phases[phase] = (performance.now() - t0) / 1000;
    say(`${phase}: ${phases[phase].toFixed(1)} s`);
    return out;
  };
  const t0 = performance.now();
  const seeded = await timed('templates', () => seed(db, new Date(), PROFILES));
  const templateIds = (
    await db.selectFrom('legal_entities').select('id').where('platform_id', '=', seeded.platformId).orderBy('id').execute()
  ).map((r) => r.id);
  const catalog = loadCatalog();
  const taskEvents = createTaskEvents({ catalog, publicBaseUrl, events: createEventsService() });
  const { planning } = createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
  });
  await timed('planning the templates', async () => {
    for (let i = 0; i < templateIds.length; i += PLAN_BATCH) await planning.replanBatch(templateIds.slice(i, i + PLAN_BATCH));
  });
  const hot = await timed('hot entity', () => hotEntity(db, planning, seeded.platformId));
  say(`hot entity ${hot.id}: ${hot.tasks} tasks`);

  const copies = ENTITIES - templateIds.length - 1;
  const tables = ['legal_entities', ...(await perEntityTables(db, templateIds, ['legal_entities', 'events']))];
  say(`copying ${copies} entities from ${templateIds.length} templates: ${tables.join(', ')}`);
  const perEntity = tables.filter((t) => t !== 'legal_entities');
  for (const table of perEntity) await stageTemplateRows(db, table, templateIds);
  const bulk = copies >= BULK_THRESHOLD;
  const keys = bulk ? await Promise.all(perEntity.map((t) => tableKeys(db, t))) : [];
  if (bulk)
    await timed('dropping keys and indexes', () =>
      runAll(
        db,
        keys.flatMap((k) => k.drop),
        say,
      ),
    );
  await createCopies(db, templateIds, copies);
  // The copies carry their template's rows of every per-entity table, the task-list version included, so the
  // tables' own triggers (which upsert that version, through a key dropped above in a bulk load) stay off meanwhile.
  for (const table of perEntity) await sql`alter table ${sql.table(table)} disable trigger user`.execute(db);
  const rows: Record<string, number> = {};
  await timed('copies', async () => {
    const columns = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await columnsOf(db, t)] as const)));
    for (let from = 1; from <= copies; from += COPY_CHUNK) {
      const to = Math.min(copies, from + COPY_CHUNK - 1);
      const t1 = performance.now();
      for (const table of tables) {
        const n =
          table === 'legal_entities'
            ? await copyEntities(db, columns[table]!, from, to)
            : await copyRows(db, table, columns[table]!, from, to);
        rows[table] = (rows[table] ?? 0) + n;
      }
      say(
        `copies ${from}–${to} of ${copies}: ${((performance.now() - t1) / 1000).toFixed(1)} s (${Object.entries(rows)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')})`,
      );
    }
  });
  await sql`drop table bench_scale_copies`.execute(db);
  for (const table of perEntity) await sql`alter table ${sql.table(table)} enable trigger user`.execute(db);
  for (const table of perEntity) await dropStagedRows(db, table);
  if (bulk)
    await timed('building keys and indexes', () =>
      runAll(
        db,
        keys.flatMap((k) => k.create),
        say,
      ),
    );
  await timed('vacuum (freeze, analyze)', async () => {
    for (const table of tables) await sql`vacuum (freeze, analyze) ${sql.table(table)}`.execute(db);
  });
  for (const table of tables)
    rows[table] = (await sql<{ n: number }>`select count(*)::float8 as n from ${sql.table(table)}`.execute(db)).rows[0]!.n;
  return {
    loaderVersion: LOADER_VERSION,
    entities: ENTITIES,
    profiles: templateIds.length,
    migrations: Object.keys(migrations),
    platformId: seeded.platformId,
    hotEntityId: hot.id,
    hotTasks: hot.tasks,
    copies,
    loadedAt: new Date().toISOString(),
    loadSeconds: (performance.now() - t0) / 1000,
    phases,
    rows,
    copiedTables: tables,
  };
}

let opening: Promise<DatabaseHandle> | null = null;
const shutdown = onShutdown(NAME, async () => {
  const handle = await opening?.catch(() => null);
  await handle?.close();
});

try {
  const dataDir = path.resolve(requireEnv('STATEHOUSE_DATA_DIR'));
  let marker = readMarker(dataDir);
  const reused = markerMatches(marker);
  if (!reused) {
    if (marker || existsSync(dataDir))
      say(`${dataDir}: ${marker ? 'loaded by another loader version, size or migrations list' : 'no complete load'}: loading again`);
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  }
  const config = loadConfig(process.env, { databaseUrl: null, dataDir });
  opening = openDatabase(config, { allowAttach: false, migrate: true, log: say });
  const { db } = await opening;
  if (!markerMatches(marker)) {
    say(`loading ${ENTITIES} entities (${PROFILES} planned templates) into ${dataDir}`);
    marker = await load(db, config.publicBaseUrl);
    await fs.writeFile(path.join(dataDir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    say(`loaded in ${marker.loadSeconds.toFixed(0)} s`);
  } else {
    say(`reusing ${dataDir} (loaded ${marker.loadedAt} in ${marker.loadSeconds.toFixed(0)} s)`);
  }
  const apiKey = await createPlatformsModule({ db }).platforms.rotateKey(marker.platformId);
  const step = Math.max(1, Math.floor(marker.copies / SAMPLE));
  const sampleEntityIds = Array.from({ length: Math.min(SAMPLE, marker.copies) }, (_, i) => copyEntityId(1 + i * step, md5));
  const databaseBytes = (await sql<{ b: number }>`select pg_database_size(current_database())::float8 as b`.execute(db)).rows[0]!.b;
  const sizes = await sql<{ name: string; b: number }>`
    select relname as name, pg_total_relation_size(oid)::float8 as b from pg_class
    where relkind = 'r' and relnamespace = current_schema()::regnamespace order by b desc limit 8`.execute(db);
  const report: ScaleLoadReport = {
    ...marker,
    reused,
    apiKey: apiKey.key,
    sampleEntityIds,
    databaseBytes,
    tableBytes: Object.fromEntries(sizes.rows.map((r) => [r.name, r.b])),
  };
  announceReady({ ...report });
} catch (error) {
  say(`failed: ${(error as Error).stack ?? String(error)}`);
  shutdown('failed', 1);
}
