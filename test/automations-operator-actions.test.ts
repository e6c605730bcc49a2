import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, InvalidInputsError, NotFoundError } from '../src/lib/errors.js';
import { textPdf } from '../src/lib/text-pdf.js';
import { createAuditService } from '../src/modules/audit/audit.service.js';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';

const alice = { keyId: 'opk_alice', name: 'Alice' };
const bob = { keyId: 'opk_bob', name: 'Bob' };
const CONFLICT = { status: 409 };

/** With the sandbox off (as in production) every automation waits in the operator queue; the operator functions of the service. */
describe('automations: the operator queue and actions', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  const service = () => f.t.app.services.automations.automations;
  const audit = () => createAuditService({ db: f.t.db });
  beforeAll(async () => {
    f = await startAutomationsFixture({ automations: { sandbox: false } });
  });
  afterAll(() => f.close());

  async function started(name: string) {
    const owner = await f.entity({ business_name: name });
    const task = await owner.task(EDD);
    const res = await owner.automate(task.id, EDD_INPUT);
    expect(res.statusCode, res.body).toBe(201);
    return {
      owner,
      task,
      automation: json(res) as { id: string; performer: string; status: string; steps: { key: string; state: string }[] },
    };
  }

  it('queues it for a person; claim, reveal (audited), send back to the owner, the owner answers, complete with the outcome', async () => {
    const { owner, task, automation } = await started('Queue Widgets Inc');
    expect(automation).toMatchObject({ performer: 'operator', status: 'started' });
    expect(automation.steps.map((s) => [s.key, s.state])).toEqual([
      ['operator_review', 'current'],
      ['operator_file', 'pending'],
      ['operator_record', 'pending'],
    ]);

    const queued = await service().queue({ limit: 50, region: 'CA', assignedTo: 'unassigned' });
    const item = queued.items.find((i) => i.id === automation.id)!;
    expect(item).toMatchObject({
      entityName: 'Queue Widgets Inc',
      platformName: 'Acme Payroll',
      taskTitle: 'Register with the EDD for an employer payroll tax account',
      input: { officer_ssn_last4: '••••' },
    });
    expect((await service().queue({ limit: 50, region: 'NY' })).items.map((i) => i.id)).not.toContain(automation.id);

    const claimed = await service().claim(automation.id, alice);
    expect(claimed.assignedTo).toEqual({ keyId: 'opk_alice', name: 'Alice' });
    expect((await service().queue({ limit: 50, assignedTo: 'opk_alice' })).items.map((i) => i.id)).toContain(automation.id);
    expect((await service().queue({ limit: 50, assignedTo: 'unassigned' })).items.map((i) => i.id)).not.toContain(automation.id);

    const revealed = await service().revealInput(automation.id, alice);
    expect(revealed).toEqual(EDD_INPUT);

    const asked = await service().requestCustomerResponse(automation.id, alice, 'Which date did you first pay wages in California?');
    expect(asked).toMatchObject({
      status: 'waiting_on_customer_response',
      customerMessage: 'Which date did you first pay wages in California?',
    });
    await expect(service().requestCustomerResponse(automation.id, alice, 'Again?')).rejects.toMatchObject(CONFLICT);
    const state = await owner.state(task.id);
    expect(state.customer_message).toBe('Which date did you first pay wages in California?');

    await expect(service().answer(owner.scope, task.id, {})).rejects.toBeInstanceOf(InvalidInputError);
    const answered = await service().answer(owner.scope, task.id, {
      response: 'We paid wages first on 2026-11-20.',
      first_payroll_date: '2026-11-20',
    });
    expect(answered).toMatchObject({
      status: 'started',
      performer: 'operator',
      customerResponse: 'We paid wages first on 2026-11-20.',
      input: { first_payroll_date: '2026-11-20', officer_ssn_last4: '••••' },
    });
    await expect(service().answer(owner.scope, task.id, { response: 'twice' })).rejects.toMatchObject(CONFLICT);
    expect(await service().revealInput(automation.id, bob)).toEqual({ ...EDD_INPUT, first_payroll_date: '2026-11-20' });

    // A refused outcome writes nothing: every problem at once.
    const refused = await service()
      .complete(automation.id, alice, { accountData: [{ name: 'Nonsense', value: '1' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidInputsError);
    expect((refused as InvalidInputsError).errors.map((e) => e.path)).toEqual([
      ['account_data', 0, 'name'],
      ['account_data', 'Withholding account number'],
      ['document'],
    ]);
    expect(json(await f.t.app.inject({ url: '/agency_accounts', headers: bearer(owner.token) }))).toEqual([]);

    const done = await service().complete(automation.id, alice, {
      accountData: [
        { name: 'Withholding account number', value: '123-4567-8' },
        { name: 'Filing frequency', value: 'Quarterly' },
      ],
      login: { username: 'harbor-admin', password: 'S3cret-from-the-agency' },
      document: { fileName: 'EDD confirmation.pdf', bytes: textPdf(['EDD registration confirmed']) },
      dates: { effective_date: '2026-11-20' },
    });
    expect(done).toMatchObject({ status: 'complete', outputs: { dates: { effective_date: '2026-11-20' } } });
    expect(done.logs.map((l) => [l.status, l.actor])).toEqual([
      ['started', 'owner'],
      ['waiting_on_customer_response', 'Alice'],
      ['started', 'owner'],
      ['complete', 'Alice'],
    ]);
    expect(json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) })).status).toBe('done');
    const accounts = json<{ id: string; data: { name: string; value: string }[] }[]>(
      await f.t.app.inject({ url: '/agency_accounts', headers: bearer(owner.token) }),
    );
    expect(accounts).toHaveLength(1);
    expect(accounts[0]!.data).toContainEqual(expect.objectContaining({ name: 'Withholding account number', value: '123-4567-8' }));
    expect((await f.t.app.services.accounts.openLoginSecrets(owner.entityId, done.outputs!.loginId!)).password).toBe(
      'S3cret-from-the-agency',
    );
    const mail = json<{ id: string }[]>(await f.t.app.inject({ url: '/mail', headers: bearer(owner.token) }));
    expect(mail.map((m) => m.id)).toEqual([done.outputs!.documentId]);

    await expect(
      service().complete(automation.id, alice, {
        document: { fileName: 'x.pdf', bytes: textPdf(['x']) },
        accountData: [{ name: 'Withholding account number', value: '1' }],
      }),
    ).rejects.toMatchObject(CONFLICT);
    await expect(service().cancel(automation.id, alice, 'late')).rejects.toMatchObject(CONFLICT);

    const trail = await audit().list({ subjectId: automation.id, limit: 20 });
    expect(trail.map((e) => [e.action, e.operator.name]).reverse()).toEqual([
      ['automation.claim', 'Alice'],
      ['automation.reveal_input', 'Alice'],
      ['automation.request_response', 'Alice'],
      ['automation.reveal_input', 'Bob'],
      ['automation.complete', 'Alice'],
    ]);
    expect(trail.find((e) => e.action === 'automation.reveal_input')!.details).toEqual({ fields: ['officer_ssn_last4'] });
    expect(JSON.stringify(trail)).not.toContain(EDD_INPUT.officer_ssn_last4);
  });

  it('cancel with a reason: canceled, the task back to to-do, and it can be automated again', async () => {
    const { owner, task, automation } = await started('Cancel Widgets Inc');
    const canceled = await service().cancel(automation.id, bob, 'The business closed its California office');
    expect(canceled).toMatchObject({ status: 'canceled', statusReason: 'The business closed its California office' });
    expect(json(await f.t.app.inject({ url: `/tasks/${task.id}`, headers: bearer(owner.token) })).status).toBe('todo');
    await expect(service().claim(automation.id, bob)).rejects.toMatchObject(CONFLICT);
    await expect(service().cancel(automation.id, bob, '  ')).rejects.toBeInstanceOf(InvalidInputError);
    const again = await owner.automate(task.id, EDD_INPUT);
    expect(again.statusCode).toBe(201);
    expect(json(again).id).not.toBe(automation.id);
    expect((await audit().list({ subjectId: automation.id, limit: 5 })).map((e) => e.action)).toEqual(['automation.cancel']);
  });

  it('unknown ids are 404; the queue pages by due date with an opaque cursor', async () => {
    await expect(service().get('aut_unknown')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service().claim('aut_unknown', alice)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service().revealInput('aut_unknown', alice)).rejects.toBeInstanceOf(NotFoundError);
    await started('Paging One Inc');
    await started('Paging Two Inc');
    const all = (await service().queue({ limit: 100 })).items;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await service().queue({ limit: 1 });
    const second = await service().queue({ limit: 1, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual(all.slice(0, 2).map((i) => i.id));
    await expect(service().queue({ limit: 1, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidInputError);
    expect((await service().get(all[0]!.id)).id).toBe(all[0]!.id);
  });
});
