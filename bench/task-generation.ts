/**
 * Benchmark child (e): task generation throughput and the daily roll-forward, on its own embedded PostgreSQL.
 *
 * 1. Starts an embedded PostgreSQL in STATEHOUSE_DATA_DIR (a fresh directory; DATABASE_URL is
 *    ignored on purpose: this inserts tens of thousands of rows) and applies the migrations.
 * 2. Bulk-inserts (not timed) one platform and BENCH_TASK_ENTITIES legal entities (default 10 000)
 *    with 3 locations each, varied like a real platform's book (see `entityProfile`), all
 *    onboarded now, none planned yet (as after the upgrade to the incremental roll-forward).
 * 3. Times, in order:
 *    - "first run": the daily job's work (`rollForwardDue`: every entity is due, in batches of 200, two in
 *      flight) — first-time planning;
 *    - "re-run": `rollForwardAll` (`statehouse tasks roll-forward`: every entity re-planned, nothing to change);
 *      skipped above 100 000 entities unless BENCH_TASK_FULL_RERUN=1;
 *    - "daily, nothing due": the daily job's work the next time, nothing changed;
 *    - "daily, 1 % due": the same after moving 1 % of the entities' next_replan_on to today.
 *
 * For each run it samples its own CPU time, the embedded PostgreSQL's (postmaster + backends) and
 * the machine's, and counts the task rows the run inserted, updated and deleted. When done it
 * prints its results as the one `benchReady` line, then waits for SIGTERM and stops PostgreSQL.
 *
 * With BENCH_CPU_PROFILE_DIR, after the timed runs it empties the tasks table and repeats the first
 * two runs under the CPU profiler (not timed), writing e1.cpuprofile and e2.cpuprofile there.
 *
 * Env: STATEHOUSE_DATA_DIR (required), BENCH_TASK_ENTITIES (10000), BENCH_TASK_SEED (1), BENCH_CPU_PROFILE_DIR,
 * BENCH_TASK_FULL_RERUN, BENCH_TASK_PLANNED_PADDING (0: entities added as planned and not due before the daily runs,
 * so the daily job looks through a book of that size).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { loadCatalog } from '../src/catalog/catalog.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { BATCH_SIZE, createPlanningModule, rollForwardAll, rollForwardDue } from '../src/modules/planning/index.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { announceReady, log, onShutdown, requireEnv } from './child-lifecycle.js';
import { timedRun, type GenerationReport, type GenerationRun, type RunKind } from './generation-run.js';
import { seed } from './generation-seed.js';
import { startCpuProfile } from './profiler.js';

const NAME = 'task-generation';
const say = (message: string) => log(NAME, message);

const ENTITIES = Number(process.env.BENCH_TASK_ENTITIES || 10_000);
if (!Number.isInteger(ENTITIES) || ENTITIES < 1)
  throw new Error(`BENCH_TASK_ENTITIES must be a whole number ≥ 1 (got '${process.env.BENCH_TASK_ENTITIES}')`);
/** Entities added (one SQL statement, no locations or tasks) as already planned and not due: the daily job's book at scale. */
const PLANNED_PADDING = Number(process.env.BENCH_TASK_PLANNED_PADDING || 0);
const FULL_RERUN = process.env.BENCH_TASK_FULL_RERUN ? process.env.BENCH_TASK_FULL_RERUN === '1' : ENTITIES <= 100_000;
let stopping = false;

// ---------------------------------------------------------------- main

let opening: Promise<DatabaseHandle> | null = null;
const shutdown = onShutdown(NAME, async () => {
  stopping = true;
  const handle = await opening?.catch(() => null);
  await handle?.close();
});

try {
  const dataDir = requireEnv('STATEHOUSE_DATA_DIR');
  // Always a fresh embedded PostgreSQL: never an external DATABASE_URL.
  const config = loadConfig(process.env, { databaseUrl: null, dataDir: path.resolve(dataDir) });
  const t0 = performance.now();
  opening = openDatabase(config, { allowAttach: false, migrate: true, log: say });
  const database = await opening;
  const { db } = database;
  const pidText = readFileSync(path.join(config.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n', 1)[0] ?? '';
  const postmasterPid = Number.parseInt(pidText, 10) || null;
  say(`embedded PostgreSQL ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (postmaster pid ${postmasterPid})`);

  const today = new Date();
  const t1 = performance.now();
  const seeded = await seed(db, today, ENTITIES);
  const seedSeconds = (performance.now() - t1) / 1000;
  say(
    `inserted ${seeded.entities} legal entities and ${seeded.locations} locations in ${seedSeconds.toFixed(1)} s (${JSON.stringify(seeded.byType)})`,
  );

  const catalog = loadCatalog();
  // Task events are recorded as the server records them: part of what a roll-forward costs.
  const taskEvents = createTaskEvents({ catalog, publicBaseUrl: config.publicBaseUrl, events: createEventsService() });
  const { planning } = createPlanningModule({
    db,
    catalog,
    now: () => new Date(),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
  });
  const runs: GenerationRun[] = [];
  const runAndSay = async (name: string, kind: RunKind) => {
    say(`${kind === 'due' ? 'rollForwardDue' : 'rollForwardAll'} (${name}), batches of ${BATCH_SIZE}`);
    const run = await timedRun(name, kind, db, planning, postmasterPid, () => stopping);
    say(
      `${name}: ${run.entities} entities in ${run.elapsedSeconds.toFixed(2)} s = ${run.entitiesPerSecond.toFixed(0)} entities/s; ` +
        `${run.created} tasks created (${run.rows.updated} updated, ${run.rows.deleted} deleted); RSS ${run.rssMiB.toFixed(0)} MiB`,
    );
    return run;
  };
  runs.push(await runAndSay('first run', 'due'));
  await sql`analyze legal_entities, tasks`.execute(db);
  if (FULL_RERUN) runs.push(await runAndSay('re-run', 'all'));
  if (PLANNED_PADDING > 0) {
    const t2 = performance.now();
    const revision = await planning.catalogRevision();
    await sql`
      insert into legal_entities (id, platform_id, status, business_name, entity_type, incorporation_region, next_replan_on, catalog_revision)
      select 'le_zpad' || lpad(n::text, 9, '0'), ${seeded.platformId}, 'active', 'Padding ' || n, 'llc', 'DE',
             current_date + 1 + (n % 360), ${revision}
        from generate_series(1, ${PLANNED_PADDING}::int) as n`.execute(db);
    await sql`analyze legal_entities`.execute(db);
    say(`added ${PLANNED_PADDING} planned, not due entities in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  }
  // How the book's re-plannings spread over the next year: the entities due on the busiest day, and per day on average.
  const spread = (
    await sql<{ busiest: number; perDay: number }>`
    select coalesce(max(n), 0)::int as busiest, coalesce(sum(n) / 365.0, 0)::float8 as "perDay"
      from (select count(*) as n from legal_entities
             where next_replan_on < current_date + 365 and id not like 'le_zpad%' group by next_replan_on) d`.execute(db)
  ).rows[0]!;
  say(
    `of the ${seeded.entities} planned entities, due on the busiest day of the next year: ${spread.busiest}; per day on average: ${spread.perDay.toFixed(0)}`,
  );
  // The plan of the finder's query over the whole book (index scans expected, no sequential scan of legal_entities).
  const finderPlan = (
    await sql<{ 'QUERY PLAN': string }>`explain
    select id from legal_entities
     where id > '' and (next_replan_on is null or next_replan_on <= current_date or catalog_revision is null or catalog_revision < ${await planning.catalogRevision()})
       and (catalog_revision is null or catalog_revision <= ${await planning.catalogRevision()})
     order by id limit 10000`.execute(db)
  ).rows.map((r) => r['QUERY PLAN']);
  say(`the finder's plan:\n${finderPlan.join('\n')}`);
  // The daily job the next time: nothing changed; then with 1 % of the planned book due (their window gains an occurrence).
  const daily = [await runAndSay('daily, nothing due', 'due')];
  const moved =
    await sql`update legal_entities set next_replan_on = current_date where abs(hashtext(id)) % 100 = 0 and id not like 'le_zpad%'`.execute(
      db,
    );
  say(`moved the next_replan_on of ${moved.numAffectedRows} entities to today`);
  daily.push(await runAndSay('daily, 1 % due', 'due'));
  if (PLANNED_PADDING > 0) {
    // 1 % of the added book due: as many entities as a busy day brings at that size (planned for the first time: no tasks yet).
    const padded =
      await sql`update legal_entities set next_replan_on = current_date where abs(hashtext(id)) % 100 = 0 and id like 'le_zpad%'`.execute(
        db,
      );
    say(`moved the next_replan_on of ${padded.numAffectedRows} added entities to today`);
    daily.push(await runAndSay('daily, 1 % of the added book due', 'due'));
  }
  const distribution = (
    await sql<{ min: number; p50: number; p90: number; max: number; avg: number }>`
    select min(n)::int as min, percentile_disc(0.5) within group (order by n)::int as p50,
           percentile_disc(0.9) within group (order by n)::int as p90, max(n)::int as max, avg(n)::float8 as avg
    from (select count(*) as n from tasks group by legal_entity_id) t`.execute(db)
  ).rows[0]!;
  const size = (
    await sql<{ bytes: number; database: number }>`
    select pg_total_relation_size('tasks')::float8 as bytes, pg_database_size(current_database())::float8 as database`.execute(db)
  ).rows[0]!;
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const profiles: Record<string, string> = {};
  if (profileDir) {
    await sql`delete from tasks`.execute(db);
    await sql`vacuum analyze tasks`.execute(db);
    // Every entity due again, as before the first run.
    await sql`update legal_entities set next_replan_on = null, catalog_revision = null`.execute(db);
    for (const [i, name] of ['first run', 're-run'].entries()) {
      const file = path.join(profileDir, `e${i + 1}.cpuprofile`);
      say(`${name} again, under the CPU profiler (not timed)`);
      const profiler = await startCpuProfile();
      if (i === 0) await rollForwardDue(planning);
      else await rollForwardAll(planning);
      await profiler.stop(file);
      profiles[`e${i + 1}`] = file;
    }
  }
  const report: GenerationReport = {
    entities: seeded.entities,
    locations: seeded.locations,
    entityTypes: seeded.byType,
    seedSeconds,
    batchSize: BATCH_SIZE,
    tasksPerEntity: distribution,
    tasksTableMiB: size.bytes / 1048576,
    databaseMiB: size.database / 1048576,
    runs,
    daily,
    dueSpread: spread,
    finderPlan,
    ...(profileDir && { profiles }),
  };
  announceReady({ ...report });
} catch (error) {
  // Stopped on purpose (SIGTERM, or the parent went away): the shutdown under way is all there is to do.
  if (!stopping) {
    say(`failed: ${(error as Error).stack ?? String(error)}`);
    shutdown('failed', 1);
  }
}
