import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, discardingJobs } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { openLink } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';

/** The hosted automation form never drops input silently, and never tells the platform `status=started` for a refused start. */
describe('automations: a refused start on the hosted form', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture({ jobs: discardingJobs });
  });
  afterAll(() => f.close());

  async function formFor(owner: Awaited<ReturnType<typeof f.entity>>, taskId: string) {
    const res = await f.t.app.inject({
      method: 'POST',
      url: `/tasks/${taskId}/automate/sessions`,
      headers: bearer(owner.token),
      payload: { callback_url: CALLBACK },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { browser } = await openLink(f.t.app, json(res).automation_url);
    expect((await browser!.get(`/hosted/automation/${taskId}`)).body).toContain('Start the automation');
    return browser!;
  }

  it('a task done meanwhile: the form says so in words, the platform is not called back, nothing is stored', async () => {
    const owner = await f.entity({ business_name: 'Done Meanwhile Co' });
    const task = await owner.task(EDD);
    const browser = await formFor(owner, task.id);
    expect(
      (await f.t.app.inject({ method: 'PATCH', url: `/tasks/${task.id}`, headers: bearer(owner.token), payload: { status: 'done' } }))
        .statusCode,
    ).toBe(200);
    const posted = await browser.post(`/hosted/automation/${task.id}`, EDD_INPUT);
    expect(posted.statusCode).toBe(409);
    expect(posted.headers.location).toBeUndefined();
    expect(posted.body).toContain('This task is already done');
    expect(await f.t.db.selectFrom('automations').select('id').where('task_id', '=', task.id).execute()).toEqual([]);
    // Opening the page again says the same instead of offering the form (a page, not a refused action: 200).
    const again = await browser.get(`/hosted/automation/${task.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('This task is already done');
    expect(again.body).not.toContain('Start the automation');
  });

  it('an automation started meanwhile (through the API): the form shows its status, no second start, no callback', async () => {
    const owner = await f.entity({ business_name: 'Started Meanwhile Co' });
    const task = await owner.task(EDD);
    const browser = await formFor(owner, task.id);
    expect((await owner.automate(task.id, EDD_INPUT)).statusCode).toBe(201);
    const posted = await browser.post(`/hosted/automation/${task.id}`, { ...EDD_INPUT, officer_name: 'Someone Else' });
    expect(posted.statusCode).toBe(409);
    expect(posted.headers.location).toBeUndefined();
    expect(posted.body).toContain('This filing is already under way, so nothing new was started');
    const automations = await f.t.db.selectFrom('automations').selectAll().where('task_id', '=', task.id).execute();
    expect(automations.map((a) => a.input.officer_name)).toEqual(['Ada Lovelace']);
  });
});
