import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { openLink } from './helpers/hosted.js';
import { waitUntil } from './helpers/wait.js';

const CALLBACK = 'https://platform.example/back';

/** A task marked done or dismissed by hand cancels its live automation; a reopened completed task can be automated anew. */
describe('automations: manual status changes', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  // The sandbox's steps are ten minutes apart: after `submit`, nothing moves unless the test releases the step.
  beforeAll(async () => {
    f = await startAutomationsFixture({ automations: { sandboxStepMs: 600_000 } });
  });
  afterAll(() => f.close());

  const releaseSteps = () =>
    sql`update pgboss.job set start_after = now() where name = 'automations.step' and state in ('created', 'retry')`.execute(f.t.db);
  const stepJobs = async (automationId: string) =>
    (
      await sql<{
        state: string;
        output: unknown;
      }>`select state, output from pgboss.job where name = 'automations.step' and data->>'automation_id' = ${automationId}`.execute(f.t.db)
    ).rows;

  async function waitingOnState(name: string) {
    const owner = await f.entity({ business_name: name });
    const task = await owner.task(EDD);
    expect((await owner.automate(task.id, EDD_INPUT)).statusCode).toBe(201);
    const state = await owner.waitFor(task.id, (s) => s.status === 'waiting_on_state', 'the submission');
    return { owner, task, state };
  }

  it('PATCH done cancels the live automation in the same change; its queued step then runs and does nothing', async () => {
    const { owner, task, state } = await waitingOnState('Done By Hand Inc');
    const res = await f.t.app.inject({
      method: 'PATCH',
      url: `/tasks/${task.id}`,
      headers: bearer(owner.token),
      payload: { status: 'done' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).status).toBe('done');
    const canceled = await owner.state(task.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.status_reason).toBe('Marked done by hand');
    expect(canceled.status_logs.at(-1)).toMatchObject({ status: 'canceled', reason: 'Marked done by hand', actor: 'platform' });

    // The `await_state` job was queued before the change: released now, it finds the automation final.
    await releaseSteps();
    const outputs = await waitUntil(
      async () => {
        const jobs = await stepJobs(state.id);
        return jobs.every((j) => j.state === 'completed') && jobs.map((j) => JSON.stringify(j.output));
      },
      'the released step job to finish',
      { timeoutMs: 120_000 },
    );
    expect(outputs.some((o) => o.includes('nothing to do (canceled'))).toBe(true);
    const after = await owner.state(task.id);
    expect(after.status_logs.map((l) => l.status)).toEqual(['started', 'waiting_on_state', 'canceled']);
    expect(after.outputs).toBeNull();
    expect(
      (await f.t.db.selectFrom('automation_steps').select('step_key').where('automation_id', '=', state.id).execute()).map(
        (r) => r.step_key,
      ),
    ).toEqual(['submit']);
    expect(await f.t.db.selectFrom('agency_accounts').select('id').where('legal_entity_id', '=', owner.entityId).execute()).toEqual([]);
    expect(json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) })).status).toBe('done');
  }, 180_000);

  it('the owner dismissing it on the hosted task list cancels it too, by the owner', async () => {
    const { owner, task } = await waitingOnState('Dismissed By Hand Inc');
    const link = await f.t.app.inject({
      method: 'POST',
      url: '/tasks/sessions',
      headers: bearer(owner.token),
      payload: { callback_url: CALLBACK },
    });
    const { browser } = await openLink(f.t.app, json(link).url);
    await browser!.get(`/hosted/tasks/${task.id}`);
    const posted = await browser!.post(`/hosted/tasks/${task.id}/status`, { status: 'dismissed' });
    expect(posted.statusCode).toBe(303);
    const canceled = await owner.state(task.id);
    expect(canceled.status_logs.at(-1)).toMatchObject({ status: 'canceled', reason: 'Dismissed by hand', actor: 'owner' });
    expect(json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) })).status).toBe('dismissed');
  });

  it('a completed automation whose task is reopened offers a new start (API and hosted page); the old one stays', async () => {
    const { owner, task, state: first } = await waitingOnState('Filed Twice Inc');
    const done = await waitUntil(
      async () => {
        await releaseSteps();
        const s = await owner.state(task.id);
        return s.status === 'complete' && s;
      },
      'the first automation to complete',
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const record = () => f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) });
    expect(json(await record()).default_resolution_name).toBe('manual');

    const reopened = await f.t.app.inject({
      method: 'PATCH',
      url: `/tasks/${task.id}`,
      headers: bearer(owner.token),
      payload: { status: 'todo' },
    });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(json(await record()).default_resolution_name).toBe('automate');
    expect((await owner.state(task.id)).status).toBe('complete'); // reopening alone changes no automation

    const session = await f.t.app.inject({
      method: 'POST',
      url: `/tasks/${task.id}/automate/sessions`,
      headers: bearer(owner.token),
      payload: { callback_url: CALLBACK },
    });
    const { browser } = await openLink(f.t.app, json(session).automation_url);
    const page = await browser!.get(`/hosted/automation/${task.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The last automation completed, and the task was reopened since. You can start it again below.');
    expect(page.body).toContain(`action="/hosted/automation/${task.id}"`);

    const again = await owner.automate(task.id, EDD_INPUT);
    expect(again.statusCode, again.body).toBe(201);
    expect(json(again).id).not.toBe(first.id);
    const rows = await f.t.db
      .selectFrom('automations')
      .select(['id', 'status'])
      .where('task_id', '=', task.id)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.id)).toEqual([done.id, json(again).id]);
    expect(rows[0]!.status).toBe('complete');
  }, 180_000);
});
