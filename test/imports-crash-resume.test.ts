import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../src/db/database.js';
import { createPlatform, TEST_VAULT_KEY } from './helpers/app.js';
import { startServe, type ServeProcess } from './helpers/cli.js';
import { importBody } from './helpers/imports.js';
import { outsideComponentsLane } from './helpers/lanes.js';
import { createTestDatabase, dropTestDatabase } from './helpers/test-database.js';
import { waitUntil } from './helpers/wait.js';

const ROWS = 300;

/** A `statehouse serve` killed (SIGKILL) in the middle of an import: the next server resumes it where it was. */
describe.skipIf(!outsideComponentsLane)('imports: a server killed (SIGKILL) mid-import', { timeout: 600_000 }, () => {
  let url: string;
  let db: Db;
  let dataDir: string;
  const processes: ServeProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    url = await createTestDatabase(inject('testCluster'));
    db = createDb(url, 2);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-imports-'));
    env = {
      DATABASE_URL: url,
      STATEHOUSE_DATA_DIR: dataDir,
      STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
      PUBLIC_BASE_URL: 'http://statehouse.test',
      LOG_LEVEL: 'warn',
      // The killed process's job is handed back by pg-boss's maintenance once it expires.
      JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
    };
  });
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
    await rm(dataDir, { recursive: true, force: true });
  });

  const serve = async () => {
    const server = await startServe(env);
    processes.push(server);
    return server;
  };
  const results = () => db.selectFrom('import_rows').select(['row_number', 'result', 'legal_entity_id']).execute();

  it('every row is imported once: the rows done before the kill keep their results, the rest follow', async () => {
    const { platformId, apiKey } = await createPlatform(db, 'Crash Payroll');
    const first = await serve();
    const body = Array.from({ length: ROWS }, (_, i) =>
      JSON.stringify(importBody(`crash-${i}`, { regions: [{ code: 'CA', employee_count: 2 }] })),
    ).join('\n');
    const created = await fetch(`${first.url}/v2/legal_entities/imports`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };

    await waitUntil(async () => (await results()).some((r) => r.result === 'created'), 'a first committed batch');
    first.child.kill('SIGKILL');
    await first.exited;
    const before = await results();
    const doneBefore = before.filter((r) => r.result === 'created');
    expect(doneBefore.length).toBeGreaterThan(0);
    expect(doneBefore.length).toBeLessThan(ROWS);

    const killedAt = Date.now();
    const second = await serve();
    const restartedAt = Date.now();
    // Resumed: a row pending at the kill gets its result from the new process.
    await waitUntil(
      async () => (await results()).filter((r) => r.result !== null).length > before.filter((r) => r.result !== null).length,
      'the import to resume',
      {
        timeoutMs: 240_000,
        intervalMs: 250,
      },
    );
    const resumedAt = Date.now();
    console.log(
      `imports crash-resume: ${doneBefore.length}/${ROWS} rows done at the kill; resumed ${((resumedAt - killedAt) / 1000).toFixed(1)} s after the kill (${((resumedAt - restartedAt) / 1000).toFixed(1)} s after the restart)`,
    );
    const finished = await waitUntil(
      async () => {
        const response = await fetch(`${second.url}/v2/legal_entities/imports/${id}?limit=1`, { headers: { authorization: apiKey } });
        const view = (await response.json()) as { status: string; counts: Record<string, number> };
        return view.status === 'succeeded' && view;
      },
      'the import to be resumed and finished',
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(finished.counts).toEqual({ total: ROWS, created: ROWS, unchanged: 0, failed: 0, pending: 0 });
    // The rows done before the kill kept their entities; no business was created twice.
    const after = new Map((await results()).map((r) => [r.row_number, r.legal_entity_id]));
    for (const row of doneBefore) expect(after.get(row.row_number)).toBe(row.legal_entity_id);
    const entities = await db
      .selectFrom('legal_entities')
      .select(['external_company_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('platform_id', '=', platformId)
      .groupBy('external_company_id')
      .execute();
    expect(entities).toHaveLength(ROWS);
    expect(entities.filter((e) => Number(e.n) !== 1)).toEqual([]);
    expect(new Set(after.values()).size).toBe(ROWS);
    // Every one is planned.
    const unplanned = await db
      .selectFrom('legal_entities')
      .select('id')
      .where('platform_id', '=', platformId)
      .where('catalog_revision', 'is', null)
      .execute();
    expect(unplanned).toEqual([]);
    // Planned once: every entity (the same input) has the same tasks, none twice.
    const tasks = await db
      .selectFrom('tasks')
      .innerJoin('legal_entities', 'legal_entities.id', 'tasks.legal_entity_id')
      .select([
        'tasks.legal_entity_id',
        (eb) => eb.fn.countAll<string>().as('n'),
        sql<string>`count(distinct (tasks.kind, tasks.definition_id, tasks.region_code, tasks.period_key))`.as('distinct_n'),
      ])
      .where('legal_entities.platform_id', '=', platformId)
      .groupBy('tasks.legal_entity_id')
      .execute();
    expect(tasks).toHaveLength(ROWS);
    expect(new Set(tasks.map((t) => t.n)).size).toBe(1);
    expect(tasks.filter((t) => t.n !== t.distinct_n)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
