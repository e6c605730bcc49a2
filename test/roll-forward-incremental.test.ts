import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadCatalog } from '../src/catalog/catalog.js';
import { createDb, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { addDays, toIso } from '../src/engine/dates.js';
import { startJobQueue, type JobQueue } from '../src/jobs/queue.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createEventsRepository } from '../src/modules/events/events.repository.js';
import type { NewEvent } from '../src/modules/events/contract.js';
import { ROLL_FORWARD_BATCH_JOB, ROLL_FORWARD_JOB, createPlanningModule, type PlanningModule } from '../src/modules/planning/index.js';
import { createPlanningRepository } from '../src/modules/planning/planning.repository.js';
import { createTaskEvents, plannedTaskStore } from '../src/modules/tasks/index.js';
import { plannedEntityStore } from '../src/modules/legal-entities/index.js';
import { bearer, createPlatform, createPlatformWithEntity, createTestApp, json, type TestApp } from './helpers/app.js';
import { admin, createTestDatabase, dropTestDatabase, withDatabase } from './helpers/test-database.js';
import { waitUntil } from './helpers/wait.js';

const catalog = loadCatalog();

/** A planning module as another process would build it, over the same database (another catalog version, if given). */
function planningOver(db: Db, now: () => number, options: { catalogVersion?: string; jobs?: JobQueue } = {}): PlanningModule {
  const taskEvents = createTaskEvents({ catalog, publicBaseUrl: 'http://statehouse.test', events: createEventsService() });
  return createPlanningModule({
    db,
    catalog,
    now: () => new Date(now()),
    taskEvents,
    plannedTasks: plannedTaskStore,
    plannedEntities: plannedEntityStore,
    ...options,
  });
}

describe('the incremental roll-forward', () => {
  let t: TestApp;
  let token: string;
  let entityId: string;
  let offset = 0;
  const now = () => Date.now() + offset;
  /** Moves the app's clock (and this file's) to noon UTC of `day`. */
  const moveTo = (day: string) => {
    const ms = Date.parse(`${day}T12:00:00Z`) - now();
    offset += ms;
    t.advance(ms);
  };
  const stored = async () =>
    (
      await sql<{ next_replan_on: string | null; catalog_revision: number | null }>`
    select next_replan_on, catalog_revision from legal_entities where id = ${entityId}`.execute(t.db)
    ).rows[0]!;
  const franchiseDueDates = async () =>
    json<{ due_date: string }[]>(await t.app.inject({ url: '/tasks?definition_id=tx-franchise-tax-report', headers: bearer(token) }))
      .map((x) => x.due_date)
      .sort();

  beforeAll(async () => {
    t = await createTestApp({ accessTokenTtlSeconds: 86_400 * 2000 });
    ({ token, entityId } = await createPlatformWithEntity(t, undefined, {
      user_email: 'o@example.com',
      business_name: 'Lone Star LLC',
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'TX',
      incorporated_date: '2021-04-01',
    }));
  });
  afterAll(async () => t.close());

  it('skips an entity until its window gains an occurrence, then plans it (and only then)', async () => {
    const first = await stored();
    // Signup planned it: the day its window reaches the next franchise report, and the catalog it used.
    expect(first.catalog_revision).toEqual(expect.any(Number));
    const [due] = await franchiseDueDates();
    expect(first.next_replan_on! > toIso(new Date(now()))).toBe(true);
    const planning = t.app.services.planning;
    expect(await planning.rollForwardDue()).toEqual({ entities: 0, created: 0, batches: 0 });

    moveTo(addDays(first.next_replan_on!, -1));
    expect(await planning.rollForwardDue()).toEqual({ entities: 0, created: 0, batches: 0 });
    expect(await franchiseDueDates()).toHaveLength(1);

    moveTo(first.next_replan_on!);
    const rolled = await planning.rollForwardDue();
    expect(rolled).toMatchObject({ entities: 1, batches: 1 });
    expect(rolled.created).toBeGreaterThan(0);
    expect(await franchiseDueDates()).toEqual([due, addDays(first.next_replan_on!, 365)]);
    expect((await stored()).next_replan_on! > first.next_replan_on!).toBe(true);
    // Its next report is the one that made it due, a window's length later; planned, it is not due again the same day.
    expect((await planning.rollForwardDue()).entities).toBe(0);
  });

  it('a newer catalog makes every entity due; an older one re-plans what a newer one planned only when its date comes', async () => {
    const older = t.app.services.planning;
    const newer = planningOver(t.db, now, { catalogVersion: `newer catalog ${process.pid}` });
    const tasksBefore = await franchiseDueDates();
    expect(await newer.rollForwardDue()).toMatchObject({ entities: 1, created: 0 });
    expect((await stored()).catalog_revision).toBe(await newer.planning.catalogRevision());
    expect(await newer.planning.catalogRevision()).toBeGreaterThan(await older.planning.catalogRevision());
    expect(await franchiseDueDates()).toEqual(tasksBefore);

    // Not due by date: the older process leaves the newer catalog's plan alone (no flapping during a rolling deploy).
    expect(await older.rollForwardDue()).toEqual({ entities: 0, created: 0, batches: 0 });
    expect(await older.planning.replanDueBatch('', '\uffff')).toEqual({ entities: 0, created: 0 });
    // Its window gains an occurrence: whichever process runs the day's job plans it (after a rollback to the older
    // release no date may be skipped), and the newer one finds it due again for its catalog.
    await sql`update legal_entities set next_replan_on = ${toIso(new Date(now()))} where id = ${entityId}`.execute(t.db);
    expect(await older.rollForwardDue()).toMatchObject({ entities: 1 });
    expect((await stored()).catalog_revision).toBe(await older.planning.catalogRevision());
    expect(await newer.rollForwardDue()).toMatchObject({ entities: 1 });

    // A fact changed through an older process: planned at once with its catalog, then due for the newer one again.
    expect(
      (await t.app.inject({ method: 'PUT', url: '/v2/regions/CA', headers: bearer(token), payload: { employee_count: 2 } })).statusCode,
    ).toBe(200);
    expect((await stored()).catalog_revision).toBe(await older.planning.catalogRevision());
    expect(await older.rollForwardDue()).toMatchObject({ entities: 0 });
    expect(await newer.rollForwardDue()).toMatchObject({ entities: 1 });
  });
});

describe('the daily job through the queue, two processes', { timeout: 120_000 }, () => {
  const cluster = inject('testCluster');
  let url: string;
  let db: Db;
  const queues: JobQueue[] = [];
  beforeAll(async () => {
    url = await createTestDatabase(cluster);
    db = createDb(url, 5);
  });
  afterAll(async () => {
    for (const queue of queues) await queue.stop();
    await db.destroy();
    await dropTestDatabase(cluster.adminUrl, url);
  });

  it('the finder enqueues each range once a day; each batch runs once, on either process, and plans every due entity once', async () => {
    const { platformId } = await createPlatform(db);
    // 450 entities never planned (as after the upgrade): three ranges of at most 200.
    await sql`
      insert into legal_entities (id, platform_id, status, business_name, entity_type, incorporation_region, incorporation_date)
      select 'le_rf_' || lpad(n::text, 4, '0'), ${platformId}, 'active', 'Business ' || n, 'llc', 'WY', date '2020-05-01'
        from generate_series(1, 450) as n`.execute(db);
    const processes = [];
    for (let i = 0; i < 2; i++) {
      const queue = await startJobQueue(url, () => {});
      queues.push(queue);
      const planning = planningOver(db, Date.now, { jobs: queue });
      await queue.work(planning.jobs);
      processes.push(planning);
    }
    const finder = processes[0]!.jobs.find((j) => j.name === ROLL_FORWARD_JOB)!;
    expect(await finder.handler({})).toEqual({ due: 450, batches: 3 });
    // A second run of the finder the same day (a retry, or another process's tick) while batches are queued or done: nothing new.
    await finder.handler({});

    const repo = createPlanningRepository(db);
    const revision = await processes[1]!.planning.catalogRevision();
    await waitUntil(async () => (await repo.dueEntityIds('', 1, toIso(new Date()), revision)).length === 0, 'every entity planned');
    const jobs = await waitUntil(async () => {
      const { rows } = await sql<{ state: string; retry_count: number; output: { entities: number } | null }>`
        select state, retry_count, output from pgboss.job where name = ${ROLL_FORWARD_BATCH_JOB}`.execute(db);
      return rows.every((r) => r.state === 'completed') && rows;
    }, 'the batch jobs completed');
    expect(jobs).toHaveLength(3);
    expect(jobs.map((j) => j.retry_count)).toEqual([0, 0, 0]);
    expect(jobs.reduce((sum, j) => sum + j.output!.entities, 0)).toBe(450);
    const planned = (await sql<{ n: number }>`select count(distinct legal_entity_id)::int as n from tasks`.execute(db)).rows[0]!;
    expect(planned.n).toBe(450);
  });

  it('a queue created by an earlier release gets the expiry its job now sets (pg-boss applies options only at creation)', async () => {
    const queue = queues[0]!;
    // As an earlier release left it: created without options (pg-boss's default 15-minute expiry applies).
    await queue.send('rollforward-test.long', {});
    const expiry = async () =>
      (await sql<{ s: number }>`select expire_seconds as s from pgboss.queue where name = 'rollforward-test.long'`.execute(db)).rows[0]!.s;
    expect(await expiry()).toBeNull();
    await queue.work([{ name: 'rollforward-test.long', expireInSeconds: 3600, handler: async () => null }]);
    expect(await expiry()).toBe(3600);
    expect(
      (await sql<{ s: number }>`select expire_seconds as s from pgboss.queue where name = ${ROLL_FORWARD_BATCH_JOB}`.execute(db)).rows[0]!
        .s,
    ).toBe(300);
  });
});

describe('migration 20261128100000 on existing entities', () => {
  const cluster = inject('testCluster');
  const name = `statehouse_test_rollforward_migration_${process.pid}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an earlier version
  let db: Kysely<any>;
  const provider = (names: string[]) => ({
    getMigrations: async () => Object.fromEntries(names.map((n) => [n, migrations[n]!])) as Record<string, Migration>,
  });
  afterAll(async () => {
    await db?.destroy();
    await admin(cluster.adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  });

  it('leaves them due: the first daily run after the upgrade plans each once', async () => {
    await admin(cluster.adminUrl, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
    db = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: withDatabase(cluster.adminUrl, name), max: 2 }) }),
    });
    const before = Object.keys(migrations).filter((n) => n < '20261128100000');
    expect((await new Migrator({ db, provider: provider(before) }).migrateToLatest()).error).toBeUndefined();
    await sql`
      insert into platforms (id, name) values ('plt_1', 'Acme');
      insert into legal_entities (id, platform_id, status, business_name) values ('le_1', 'plt_1', 'active', 'Harbor Labs'), ('le_2', 'plt_1', 'active', 'Bay Labs');
    `.execute(db);
    expect((await new Migrator({ db, provider: provider(Object.keys(migrations)) }).migrateToLatest()).error).toBeUndefined();
    expect((await sql`select id, next_replan_on, catalog_revision from legal_entities order by id`.execute(db)).rows).toEqual([
      { id: 'le_1', next_replan_on: null, catalog_revision: null },
      { id: 'le_2', next_replan_on: null, catalog_revision: null },
    ]);
    const repo = createPlanningRepository(db as Db);
    const revision = await repo.registerCatalog('the catalog after the upgrade');
    expect(await repo.dueEntityIds('', 10, '2026-11-24', revision)).toEqual(['le_1', 'le_2']);
  });
});

describe('a roll-forward batch that writes more events than one statement can carry', () => {
  const cluster = inject('testCluster');
  let url: string;
  let db: Db;
  beforeAll(async () => {
    url = await createTestDatabase(cluster);
    db = createDb(url, 2);
  });
  afterAll(async () => {
    await db.destroy();
    await dropTestDatabase(cluster.adminUrl, url);
  });

  it("14 000 events (70 000 values: past PostgreSQL's 65 535 parameters) are all recorded, in order, in one transaction", async () => {
    const { platformId } = await createPlatform(db);
    const events: NewEvent[] = Array.from({ length: 14_000 }, (_, i) => ({
      type: 'task.created',
      platformId,
      legalEntityId: null,
      data: { object: { id: `task_${i}` } },
    }));
    await db.transaction().execute((trx) => createEventsRepository(trx).insert(events));
    const rows = (await sql<{ id: string }>`select data->'object'->>'id' as id from events order by seq`.execute(db)).rows;
    expect(rows).toHaveLength(14_000);
    expect(rows.map((r) => r.id)).toEqual(events.map((e) => String(e.data.object.id)));
  });
});
