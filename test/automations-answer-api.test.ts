import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';

interface AutomateResolution {
  submit_url: string;
  form_spec: { properties: Record<string, unknown>; required: string[] };
}

/** POST /tasks/{task_id}/automation/answer: the owner's answer collected in the platform's own UI. */
describe('automations API: the owner answers over HTTP', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture();
  });
  afterAll(() => f.close());

  const answer = (token: string, taskId: string, payload: unknown) =>
    f.t.app.inject({
      method: 'POST',
      url: `/tasks/${taskId}/automation/answer`,
      headers: bearer(token),
      payload: payload as Record<string, unknown>,
    });
  const automateOf = async (token: string, taskId: string) =>
    json<{ resolutions: { automate: AutomateResolution } }>(await f.t.app.inject({ url: `/tasks/${taskId}`, headers: bearer(token) }))
      .resolutions.automate;

  it('while waiting, the task record points at it; bad answers are 422 and change nothing; an answer resumes the filing', async () => {
    const owner = await f.entity({ business_name: 'Answer Over Http Inc' });
    const task = await owner.task(EDD);
    const before = await automateOf(owner.token, task.id);
    expect(before.submit_url).toMatch(new RegExp(`/tasks/${task.id}/automate$`));
    expect((await owner.automate(task.id, { ...EDD_INPUT, officer_name: 'needs-info' })).statusCode).toBe(201);
    const waiting = await owner.waitFor(task.id, (s) => s.status === 'waiting_on_customer_response', 'the question');

    const resolution = await automateOf(owner.token, task.id);
    expect(resolution.submit_url).toMatch(new RegExp(`/tasks/${task.id}/automation/answer$`));
    expect(resolution.form_spec.required).toEqual([]);
    expect(Object.keys(resolution.form_spec.properties)).toEqual(['response', ...Object.keys(before.form_spec.properties)]);

    const badField = await answer(owner.token, task.id, { first_payroll_date: 'soon', response: 'here' });
    expect(badField.statusCode).toBe(422);
    expect(json<{ detail: { loc: string[] }[] }>(badField).detail.map((d) => d.loc)).toEqual([['body', 'first_payroll_date']]);
    const empty = await answer(owner.token, task.id, {});
    expect(empty.statusCode).toBe(422);
    expect(json<{ detail: { loc: string[] }[] }>(empty).detail.map((d) => d.loc)).toEqual([['body', 'response']]);
    const tooLong = await answer(owner.token, task.id, { response: 'x'.repeat(2001) });
    expect(tooLong.statusCode).toBe(422);
    expect(await owner.state(task.id)).toMatchObject({
      id: waiting.id,
      status: 'waiting_on_customer_response',
      input: { officer_name: 'needs-info' },
    });

    const answered = await answer(owner.token, task.id, { officer_name: 'Ada Lovelace', response: 'Corrected the officer name' });
    expect(answered.statusCode, answered.body).toBe(200);
    const state = json<{ id: string; status: string; input: Record<string, unknown>; status_logs: { status: string; actor: string }[] }>(
      answered,
    );
    expect(state.id).toBe(waiting.id);
    expect(state.input.officer_name).toBe('Ada Lovelace');
    expect(state.status_logs.find((l, i) => i > 0 && l.status === 'started')).toMatchObject({ actor: 'owner' });
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'completion after the answer');
    expect(done.status_logs.map((l) => l.status)).toEqual([
      'started',
      'waiting_on_state',
      'waiting_on_customer_response',
      'started',
      'waiting_on_state',
      'complete',
    ]);
    expect((await automateOf(owner.token, task.id)).submit_url).toMatch(/\/automate$/);

    const late = await answer(owner.token, task.id, { response: 'again' });
    expect(late.statusCode).toBe(409);
    expect(json(late)).toEqual({ message: 'Conflict', detail: expect.stringContaining('is not waiting on an answer') });
  }, 120_000);

  it('404 for a task of another entity or an unknown one; 409 for a task with no automation; 401 without a token', async () => {
    const owner = await f.entity({ business_name: 'Waiting Owner Inc' });
    const other = await f.entity({ business_name: 'Other Entity Inc' });
    const task = await owner.task(EDD);
    expect((await owner.automate(task.id, { ...EDD_INPUT, officer_name: 'needs-info' })).statusCode).toBe(201);
    await owner.waitFor(task.id, (s) => s.status === 'waiting_on_customer_response', 'the question');

    expect((await answer(other.token, task.id, { response: 'not mine' })).statusCode).toBe(404);
    expect((await answer(owner.token, 'task_unknown', { response: 'hello' })).statusCode).toBe(404);
    const notStarted = await answer(other.token, (await other.task(EDD)).id, { response: 'nothing to answer' });
    expect(notStarted.statusCode).toBe(409);
    expect(json(notStarted)).toEqual({ message: 'Conflict', detail: expect.stringContaining('is not waiting on an answer') });
    expect(
      (await f.t.app.inject({ method: 'POST', url: `/tasks/${task.id}/automation/answer`, payload: { response: 'x' } })).statusCode,
    ).toBe(401);
    expect((await owner.state(task.id)).status).toBe('waiting_on_customer_response');
  }, 120_000);
});
