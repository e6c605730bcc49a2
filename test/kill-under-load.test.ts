import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWrites, startWriters } from '../bench/failover-writers.js';
import { startProcessesFixture } from './helpers/automation-processes.js';
import { waitUntil } from './helpers/wait.js';

/** Automation steps scheduled ten minutes ahead: nothing moves unless the test releases it. */
const NEVER_BY_ITSELF_MS = 600_000;
/** Acknowledged writes each process must answer before the kill, and the survivor after it. */
const WRITES_BEFORE = 20;
const WRITES_AFTER = 20;

describe('kill -9 under load: two `statehouse serve` processes on one database', { timeout: 300_000 }, () => {
  let f: Awaited<ReturnType<typeof startProcessesFixture>>;
  beforeAll(async () => {
    // Expired jobs are looked for every second (JOB_MAINTENANCE_INTERVAL_SECONDS), so the survivor takes the killed
    // process's job soon after its expiry: the step's, the connector time limit + 15 s, 45 s here, so that a slow machine
    // still kills the process before its job expires.
    f = await startProcessesFixture(NEVER_BY_ITSELF_MS, {
      AUTOMATION_CONNECTOR_TIMEOUT_MS: '30000',
      JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
      RATE_LIMIT_PER_CREDENTIAL: '10000000',
      RATE_LIMIT_PER_ADDRESS: '10000000',
      RATE_LIMIT_AUTH_OPERATIONS: '10000000',
    });
  });
  afterAll(() => f?.close());

  /** The step job of this automation now active (started by a process, not finished), if any. */
  const activeStepJob = async (automationId: string) =>
    (
      await sql<{ id: string }>`
    select id from pgboss.job where name = 'automations.step' and data->>'automation_id' = ${automationId} and state = 'active'`.execute(
        f.db,
      )
    ).rows[0]?.id;

  it("loses no acknowledged write, leaves nothing half-written, and the survivor finishes the killed process's job once", async () => {
    const doomed = await f.serve({ PGAPPNAME: 'statehouse-doomed' });
    const { entityId, automationId } = await f.automateThrough(doomed, 'Doomed Widgets Inc');
    await f.waitForStatus(automationId, 'waiting_on_state');

    // The doomed process takes the next step's job and stays inside it: the test holds the automation's row, so
    // the step's lease (an update of that row) waits. Only the doomed process runs yet, so the job is surely its own.
    const holder = new pg.Client({ connectionString: f.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from automations where id = $1 for update', [automationId]);
    await f.releaseSteps();
    const heldJobId = await waitUntil(() => activeStepJob(automationId), 'the doomed process to start the step job', { timeoutMs: 60_000 });

    const survivor = await f.serve({ PGAPPNAME: 'statehouse-survivor' });
    const writers = startWriters(
      [
        { name: 'doomed', url: doomed.url },
        { name: 'survivor', url: survivor.url },
      ],
      f.apiKey,
      6,
    );
    try {
      await waitUntil(
        () => writers.acknowledgedBy('doomed') >= WRITES_BEFORE && writers.acknowledgedBy('survivor') >= WRITES_BEFORE,
        'writes acknowledged by both processes',
        { timeoutMs: 120_000 },
      );
      // Still the doomed process's: not yet expired.
      expect(
        (await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job where id = ${heldJobId}`.execute(f.db))
          .rows[0],
      ).toEqual({ state: 'active', retry_count: 0 });
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      const afterKill = writers.acknowledgedBy('survivor');
      await waitUntil(
        () => writers.acknowledgedBy('survivor') >= afterKill + WRITES_AFTER,
        'writes acknowledged by the survivor after the kill',
        { timeoutMs: 120_000 },
      );
    } finally {
      await writers.stop();
    }
    // PostgreSQL notices a dead client only when it next talks to it: a session of the killed process waiting on the
    // row would still take its lease once free. The database ends them here, as its TCP keepalive would in time.
    await holder.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'statehouse-doomed'`);
    await holder.query('rollback');
    await holder.end();

    // Every acknowledged write is on the survivor; every entity the database holds (acknowledged or not) is whole.
    const entityIds = (await f.db.selectFrom('legal_entities').select('id').execute()).map((r) => r.id).filter((id) => id !== entityId);
    expect(writers.acknowledged.filter((w) => w.server === 'doomed').length).toBeGreaterThanOrEqual(WRITES_BEFORE);
    expect(new Set(writers.acknowledged.map((w) => w.kind))).toEqual(new Set(['signup', 'region', 'status']));
    const check = await checkWrites(survivor.url, f.apiKey, writers.acknowledged, writers.statusAttempts, entityIds);
    expect(check.lost).toEqual([]);
    expect(check.halfWritten).toEqual([]);
    expect(check.entitiesChecked).toBeGreaterThan(6); // each writer signs up several

    // The killed process's job expires and the survivor runs it: the same job completes, after a retry.
    await waitUntil(
      async () => {
        await f.releaseSteps(); // `finalize` is scheduled ten minutes ahead too
        return (await f.statusOf(automationId)) === 'complete';
      },
      'the survivor to finish the automation',
      { timeoutMs: 180_000, intervalMs: 250 },
    );
    const held = (
      await sql<{ state: string; retry_count: number; output: unknown }>`
      select state, retry_count, output from pgboss.job where id = ${heldJobId}`.execute(f.db)
    ).rows[0];
    expect(held).toMatchObject({ state: 'completed' });
    expect(held!.retry_count).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(held!.output)).toContain('performed await_state');
    // Each step once: one account, one login, one confirmation, no step recorded as performed twice.
    expect(await f.outputsOf(entityId, automationId)).toEqual({
      statuses: ['started', 'waiting_on_state', 'complete'],
      steps: ['await_state', 'finalize', 'submit'],
      accounts: 1,
      logins: 1,
      mail: 1,
    });
    const performed = (await f.performances()).filter((p) => p.automation_id === automationId).map((p) => p.step_key);
    expect(performed.filter((key, i) => performed.indexOf(key) !== i)).toEqual([]);
  });
});
