import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobSender } from '../src/jobs/queue.js';
import { json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';

/** A step whose job was lost (pg-boss gave up on it, or it was deleted) is sent again by the minute's sweep. */
describe('automations: the sweep', () => {
  const sent: { name: string; data: Record<string, unknown> }[] = [];
  const recorder: JobSender = {
    send: async (name, data) => void sent.push({ name, data }),
    sendMany: async (name, list) => void sent.push(...list.map((data) => ({ name, data }))),
  };
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture({ jobs: recorder });
  });
  afterAll(() => f.close());

  it('re-sends overdue steps nobody holds, and leaves alone those held or not yet due', async () => {
    const sweep = () =>
      f.t.app.services.jobDefinitions.find((j) => j.name === 'automations.sweep')!.handler({}) as Promise<{ resent: number }>;
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const id = json(await owner.automate(task.id, EDD_INPUT)).id as string;
    expect(sent.filter((s) => s.name === 'automations.step').map((s) => s.data)).toEqual([{ automation_id: id, step_key: 'submit' }]);

    expect(await sweep()).toEqual({ resent: 0 }); // due just now: its job is on its way
    const overdue = new Date(Date.now() - 5 * 60_000);
    await f.t.db
      .updateTable('automations')
      .set({ step_due_at: overdue, lease_until: new Date(Date.now() + 60_000), lease_token: 'busy' })
      .where('id', '=', id)
      .execute();
    expect(await sweep()).toEqual({ resent: 0 }); // held by a live performance
    await f.t.db.updateTable('automations').set({ lease_until: null, lease_token: null }).where('id', '=', id).execute();
    sent.length = 0;
    expect(await sweep()).toEqual({ resent: 1 });
    expect(sent).toEqual([{ name: 'automations.step', data: { automation_id: id, step_key: 'submit' } }]);

    // Performed from the re-sent job, it moves on as usual.
    expect(await f.t.app.services.automations.runStep(id, 'submit')).toBe('performed submit → await_state');
    expect((await owner.state(task.id)).status).toBe('waiting_on_state');
  });
});
