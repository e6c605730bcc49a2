import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcessesFixture } from './helpers/automation-processes.js';
import { waitUntil } from './helpers/wait.js';

/** Steps scheduled ten minutes ahead: nothing moves unless the test releases it. */
const NEVER_BY_ITSELF_MS = 600_000;

describe('automations: a server killed (SIGKILL) mid-workflow', { timeout: 300_000 }, () => {
  let f: Awaited<ReturnType<typeof startProcessesFixture>>;
  beforeAll(async () => {
    f = await startProcessesFixture(NEVER_BY_ITSELF_MS);
  });
  afterAll(() => f.close());

  /** The step jobs of the automation that found its step held by another performance. */
  async function heldOutputs(automationId: string) {
    const { rows } = await sql<{
      output: unknown;
    }>`select output from pgboss.job where name = 'automations.step' and data->>'automation_id' = ${automationId}`.execute(f.db);
    return rows.map((r) => JSON.stringify(r.output)).filter((o) => o.includes('held by another performance'));
  }

  it('another server resumes it once: each step performed once, one account, one login, one confirmation', async () => {
    const first = await f.serve();
    const { entityId, automationId } = await f.automateThrough(first, 'Crash Widgets Inc');
    // `submit` runs at once; `await_state` waits for the release.
    await f.waitForStatus(automationId, 'waiting_on_state');
    await f.releaseSteps();
    await waitUntil(async () => (await f.outputsOf(entityId, automationId)).steps.includes('await_state'), 'await_state performed');
    first.child.kill('SIGKILL');
    await first.exited;

    // As if it had died in the middle of `finalize` too: the step is held (leased) by the dead process. The hold
    // lasts until the test ends it (not a few seconds that a slow start of the second server could outlast).
    await f.db
      .updateTable('automations')
      .set({ lease_token: 'held-by-the-killed-process', lease_until: new Date(Date.now() + NEVER_BY_ITSELF_MS) })
      .where('id', '=', automationId)
      .execute();
    expect(await f.statusOf(automationId)).toBe('waiting_on_state'); // nothing moved while no server ran
    await f.releaseSteps();

    const second = await f.serve();
    // The second server meets the dead hold and leaves the step alone…
    await waitUntil(async () => (await heldOutputs(automationId)).length > 0, 'the second server to meet the dead hold', {
      timeoutMs: 120_000,
    });
    expect(await f.statusOf(automationId)).toBe('waiting_on_state');
    // …and comes back when the hold runs out (ended here, and the step it sent again for then released).
    await f.db
      .updateTable('automations')
      .set({ lease_until: new Date(Date.now() - 1000) })
      .where('id', '=', automationId)
      .execute();
    await f.releaseSteps();
    await f.waitForStatus(automationId, 'complete');
    const outputs = await f.outputsOf(entityId, automationId);
    expect(outputs).toEqual({
      statuses: ['started', 'waiting_on_state', 'complete'],
      steps: ['await_state', 'finalize', 'submit'],
      accounts: 1,
      logins: 1,
      mail: 1,
    });
    // No step was performed twice (a job of the killed process may have died before pg-boss recorded it; then it has none).
    const performed = await waitUntil(async () => {
      const keys = (await f.performances()).filter((p) => p.automation_id === automationId).map((p) => p.step_key);
      return keys.includes('finalize') && keys;
    }, 'finalize recorded as performed');
    expect(performed.filter((key, i) => performed.indexOf(key) !== i)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
