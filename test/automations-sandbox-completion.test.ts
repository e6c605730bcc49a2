import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { EDD, EDD_INPUT, FOREIGN, FOREIGN_INPUT, startAutomationsFixture } from './helpers/automations.js';

/** POST /tasks/{id}/automate → the sandbox files it on the durable queue → outputs in the entity's APIs. */
describe('automations: the sandbox completes a filing end to end', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  beforeAll(async () => {
    f = await startAutomationsFixture();
  });
  afterAll(() => f.close());

  it('starts with 201 and the masked input, then completes: task done, account with its number, login, confirmation document', async () => {
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const res = await owner.automate(task.id, EDD_INPUT);
    expect(res.statusCode, res.body).toBe(201);
    const started = json(res);
    expect(started).toMatchObject({ task_id: task.id, status: 'started', performer: 'sandbox', fulfilment: 'connector', outputs: null });
    expect(started.id).toMatch(/^aut_/);
    expect(started.input).toEqual({ first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '••••' });
    expect(res.body).not.toContain(EDD_INPUT.officer_ssn_last4);
    expect(started.status_logs.map((l: { status: string }) => l.status)).toEqual(['started']);

    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'the sandbox to complete');
    expect(done.status_logs.map((l) => l.status)).toEqual(['started', 'waiting_on_state', 'complete']);
    expect(done.status_logs.map((l) => l.actor)).toEqual(['owner', 'sandbox', 'sandbox']);
    expect(done.steps.map((s) => [s.key, s.state])).toEqual([
      ['submit', 'done'],
      ['await_state', 'done'],
      ['finalize', 'done'],
    ]);
    expect(done.last_error).toBeNull();
    const number = done.outputs!.account_data.find((d) => d.name === 'Withholding account number')!.value;
    expect(number).toMatch(/^\d{10}$/);
    expect(done.outputs!.dates).toEqual({ effective_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });

    const auth = { authorization: `Bearer ${owner.token}` };
    const taskNow = json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: auth }));
    expect(taskNow.status).toBe('done');
    const accounts = json<{ id: string; name: string; data: { name: string; value: string | null }[] }[]>(
      await f.t.app.inject({ url: '/agency_accounts', headers: auth }),
    );
    const account = accounts.find((a) => a.id === done.outputs!.agency_account_id)!;
    expect(account.name).toBe('Withholding tax account');
    expect(account.data).toContainEqual(expect.objectContaining({ name: 'Withholding account number', value: number }));
    const logins = json<{ id: string }[]>(await f.t.app.inject({ url: '/logins', headers: auth }));
    expect(logins.map((l) => l.id)).toContain(done.outputs!.login_id);

    const mail = json<{ id: string; sender: string; file_url: string }[]>(await f.t.app.inject({ url: '/mail', headers: auth }));
    const document = mail.find((m) => m.id === done.outputs!.document_id)!;
    expect(document.sender).toBe('California Employment Development Department');
    const pdf = await f.t.app.inject({ url: document.file_url.replace(/^https?:\/\/[^/]+/, '') });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain(`Withholding account number: ${number}`);

    // v2 reports the status log of the task's automation.
    const v2 = json(await f.t.app.inject({ url: `/v2/tasks/${task.id}`, headers: auth }));
    expect(v2.source.automation_status).toBe('complete');
  });

  it('completing a filing re-plans: the tasks it unlocks are no longer blocked by it', async () => {
    const owner = await f.entity({ business_name: 'Unlock Widgets Inc' });
    const blockedBy = async () =>
      ((await owner.tasks()) as unknown as { definition: { id: string }; blocked_by: string[] }[]).find(
        (x) => x.definition.id === 'ca-statement-of-information-initial-corporation',
      )!.blocked_by;
    expect(await blockedBy()).toContain(FOREIGN);
    const task = await owner.task(FOREIGN);
    expect((await owner.automate(task.id, FOREIGN_INPUT)).statusCode).toBe(201);
    const done = await owner.waitFor(task.id, (s) => s.status === 'complete', 'the foreign qualification to complete');
    expect(done.outputs!.account_data).toEqual([{ name: 'Entity number', value: expect.stringMatching(/^\d{9}$/) }]);
    expect(done.outputs!.login_id).toBeNull();
    expect(await blockedBy()).not.toContain(FOREIGN);
  });

  it('a requirement the catalog marks operator-only waits in the operator queue, even with the sandbox on', async () => {
    const owner = await f.entity({
      business_name: 'Harbor Studio LLC',
      entity_type: 'llc',
      tax_class: 'disregarded',
      incorporation_region: 'NY',
    });
    const located = await f.t.app.inject({
      method: 'PUT',
      url: '/locations/NY',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { config: { has_employees: true } },
    });
    expect(located.statusCode, located.body).toBe(200);
    const task = await owner.task('ny-llc-publication');
    const res = await owner.automate(task.id, { office_county: 'Kings', filing_date: '2026-10-01' });
    expect(res.statusCode, res.body).toBe(201);
    expect(json(res)).toMatchObject({ fulfilment: 'operator', performer: 'operator', status: 'started' });
    const queued = await f.t.app.services.automations.automations.queue({ limit: 100, region: 'NY' });
    expect(queued.items.map((i) => i.id)).toContain(json(res).id);
    const row = await f.t.db
      .selectFrom('automations')
      .select(['current_step', 'step_due_at'])
      .where('id', '=', json(res).id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ current_step: null, step_due_at: null });
  });
});
