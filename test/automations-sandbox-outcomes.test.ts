import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';

/** The sandbox's test data (docs/automations.md): each magic value produces its outcome through the real queue. */
describe('automations: the sandbox test values', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture();
  });
  afterAll(() => f.close());

  const begin = async (name: string, officer: string) => {
    const owner = await f.entity({ business_name: name });
    const task = await owner.task(EDD);
    const res = await owner.automate(task.id, { ...EDD_INPUT, officer_name: officer });
    expect(res.statusCode, res.body).toBe(201);
    return { owner, task };
  };
  const statuses = (s: { status_logs: { status: string }[] }) => s.status_logs.map((l) => l.status);

  it('"reject": canceled with the state\'s reason, the task back to to-do', async () => {
    const { owner, task } = await begin('Reject Co', 'reject');
    const done = await owner.waitFor(task.id, (s) => s.status === 'canceled', 'the rejection');
    expect(done.status_reason).toMatch(/^The state rejected the filing/);
    expect(statuses(done)).toEqual(['started', 'waiting_on_state', 'canceled']);
    expect(done.outputs).toBeNull();
    expect(json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) })).status).toBe('todo');
  });

  it('"needs-info": waits on the owner with a question; the answer starts a new round that completes', async () => {
    const { owner, task } = await begin('Question Co', 'needs-info');
    const waiting = await owner.waitFor(task.id, (s) => s.status === 'waiting_on_customer_response', 'the question');
    expect(waiting.customer_message).toMatch(/^The state needs more information/);
    expect(waiting.steps.find((s) => s.key === 'await_state')!.state).toBe('done');
    await f.t.app.services.automations.automations.answer(owner.scope, task.id, {
      officer_name: 'Ada Lovelace',
      response: 'Corrected the name',
    });
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'completion after the answer');
    expect(statuses(done)).toEqual([
      'started',
      'waiting_on_state',
      'waiting_on_customer_response',
      'started',
      'waiting_on_state',
      'complete',
    ]);
    expect(done.input.officer_name).toBe('Ada Lovelace');
    const keys = (await f.t.db.selectFrom('automation_steps').select('step_key').where('automation_id', '=', done.id).execute())
      .map((r) => r.step_key)
      .sort();
    expect(keys).toEqual(['await_state', 'await_state#1', 'finalize#1', 'submit', 'submit#1']);
  });

  it('"signature": waiting_on_signature, then complete', async () => {
    const { owner, task } = await begin('Signature Co', 'signature');
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'completion after the signature');
    expect(statuses(done)).toEqual(['started', 'waiting_on_state', 'waiting_on_signature', 'waiting_on_state', 'complete']);
    expect(done.steps.map((s) => s.key)).toEqual(['submit', 'await_state', 'signature', 'finalize']);
  });

  it('"start-later": waiting_for_start_file_date first, then as usual', async () => {
    const { owner, task } = await begin('Later Co', 'start-later');
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'completion after the start date');
    expect(statuses(done)).toEqual(['started', 'waiting_for_start_file_date', 'waiting_on_state', 'complete']);
  });

  it('"connector-error": each failure visible and retried, then handed to the operator queue (never stuck)', async () => {
    const { owner, task } = await begin('Faulty Co', 'connector-error');
    const retrying = await owner.waitFor(task.id, (s) => s.last_error !== null, 'a visible failure');
    expect(retrying.last_error).toMatch(/^The sandbox connector failed: The agency portal answered 503/);
    expect(retrying.steps.find((s) => s.key === 'submit')!.state).toBe('failed');
    const handed = await owner.waitFor(task.id, (s) => s.performer === 'operator', 'the hand-over to the operator queue');
    expect(handed.status).toBe('started');
    expect(handed.status_logs.at(-1)).toMatchObject({
      status: 'started',
      actor: 'system',
      reason: expect.stringContaining('after 3 tries it is handed to the operator queue'),
    });
    const row = await f.t.db.selectFrom('automations').selectAll().where('id', '=', handed.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 3, current_step: null });
    const queue = await f.t.app.services.automations.automations.queue({ limit: 100 });
    expect(queue.items.map((i) => i.id)).toContain(handed.id);
  });

  it('"connector-timeout": a connector that hangs runs out of time on each try, then goes to the operator queue', async () => {
    // Its own app with a short connector timeout (the shared one's is generous, for a busy machine).
    const short = await startAutomationsFixture({ automations: { connectorTimeoutMs: 1500 } });
    try {
      const owner = await short.entity({ business_name: 'Hanging Co' });
      const task = await owner.task(EDD);
      expect((await owner.automate(task.id, { ...EDD_INPUT, officer_name: 'connector-timeout' })).statusCode).toBe(201);
      const handed = await owner.waitFor(task.id, (s) => s.performer === 'operator', 'the hand-over after timeouts', 90_000);
      expect(handed.last_error).toBe('The sandbox connector did not answer within 1.5 s');
    } finally {
      await short.close();
    }
  });
});
