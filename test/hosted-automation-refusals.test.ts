import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, discardingJobs } from './helpers/app.js';
import { EDD, startAutomationsFixture } from './helpers/automations.js';
import { openLink } from './helpers/hosted.js';

const CALLBACK = 'https://platform.example/back';

/** The hosted automation form never drops input silently, never echoes sensitive digits, and says a refusal in words. */
describe('hosted automation page: refusals and sensitive input', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  // The automation's jobs are held: these tests look at the start only.
  beforeAll(async () => {
    f = await startAutomationsFixture({ jobs: discardingJobs });
  });
  afterAll(() => f.close());

  async function openForm(token: string, taskId: string) {
    const res = await f.t.app.inject({
      method: 'POST',
      url: `/tasks/${taskId}/automate/sessions`,
      headers: bearer(token),
      payload: { callback_url: CALLBACK },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { browser } = await openLink(f.t.app, json(res).automation_url);
    const page = await browser!.get(`/hosted/automation/${taskId}`);
    return { browser: browser!, page };
  }

  it('a form refused for one field keeps the others but never writes the SSN digits back', async () => {
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const { browser } = await openForm(owner.token, task.id);
    const refused = await browser.post(`/hosted/automation/${task.id}`, {
      first_payroll_date: 'soon',
      officer_name: 'Ada Lovelace',
      officer_ssn_last4: '4821',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Enter a date');
    expect(refused.body).toContain('value="Ada Lovelace"');
    expect(refused.body).not.toContain('4821');
    expect((await owner.get(task.id)).statusCode).toBe(404); // nothing started
  });

  it('a task done while its form was open: 409 in words, what was typed kept, no "started" callback, nothing started', async () => {
    const owner = await f.entity({ business_name: 'Done Meanwhile Inc' });
    const task = await owner.task(EDD);
    const { browser, page } = await openForm(owner.token, task.id);
    expect(page.body).toContain('Start the automation');
    const done = await f.t.app.inject({
      method: 'PATCH',
      url: `/tasks/${task.id}`,
      headers: bearer(owner.token),
      payload: { status: 'done' },
    });
    expect(done.statusCode).toBe(200);
    const refused = await browser.post(`/hosted/automation/${task.id}`, {
      first_payroll_date: '2026-12-01',
      officer_name: 'Ada Lovelace',
      officer_ssn_last4: '4821',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('This task is already done, so there is nothing to file and nothing was started');
    expect(refused.body).toContain('value="Ada Lovelace"');
    expect(refused.body).toContain('value="2026-12-01"');
    expect(refused.body).not.toContain('4821');
    expect((await owner.get(task.id)).statusCode).toBe(404);

    // A new session for the done task says so and offers no form.
    const again = await openForm(owner.token, task.id);
    expect(again.page.statusCode).toBe(200);
    expect(again.page.body).toContain('This task is already done');
    expect(again.page.body).not.toContain('<form');
  });

  it('a second tab starting the same automation sees its progress, "already under way", not a second start', async () => {
    const owner = await f.entity({ business_name: 'Two Tabs Inc' });
    const task = await owner.task(EDD);
    const first = await openForm(owner.token, task.id);
    const second = await openForm(owner.token, task.id);
    const input = { first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '4821' };
    const started = await first.browser.post(`/hosted/automation/${task.id}`, input);
    expect(started.statusCode).toBe(303);
    expect(new URL(started.headers.location!).searchParams.get('status')).toBe('started');
    const refused = await second.browser.post(`/hosted/automation/${task.id}`, input);
    expect(refused.statusCode).toBe(409);
    expect(refused.headers.location).toBeUndefined();
    expect(refused.body).toContain('This filing is already under way, so nothing new was started');
    expect(refused.body).toContain('What happens next:');
    expect(refused.body).not.toContain('4821');
    expect((await owner.state(task.id)).status_logs.map((l) => l.status)).toEqual(['started']);
  });
});
