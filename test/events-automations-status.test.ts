/**
 * automation.status_changed on every status change (owner's start and answer, the connector's steps, the operator's
 * actions), with the automation as GET /tasks/{id}/automation answers it; task.updated (status) when the automation
 * moves its task; what completion records (account, login, confirmation); nothing for a refused change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { eventsOf, eventsText, type RecordedEvent } from './helpers/outbox.js';
import { createOperatorKey } from './helpers/back-office.js';

type Fixture = Awaited<ReturnType<typeof startAutomationsFixture>>;

const automationEvents = (events: RecordedEvent[], automationId: string) =>
  events.filter((e) => e.type === 'automation.status_changed' && e.data.object.id === automationId);
const taskStatusEvents = (events: RecordedEvent[], taskId: string) =>
  events.filter((e) => e.type === 'task.updated' && e.data.object.id === taskId && e.data.changed?.includes('status'));

describe('events: automations run by the sandbox connector', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startAutomationsFixture();
  });
  afterAll(() => f?.close());

  it('start → waiting_on_state → complete: one event per change, the last as the API answers, and the task with it', async () => {
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const started = await owner.automate(task.id, EDD_INPUT);
    expect(started.statusCode, started.body).toBe(201);
    const automationId = json<{ id: string }>(started).id;
    await owner.waitFor(task.id, (s) => s.status === 'complete', 'the sandbox to complete');
    const events = await eventsOf(f.t, owner.entityId);

    const changes = automationEvents(events, automationId);
    expect(changes.map((e) => e.data.object.status)).toEqual(['started', 'waiting_on_state', 'complete']);
    for (const e of changes)
      expect(e).toMatchObject({ platform_id: owner.platformId, legal_entity_id: owner.entityId, data: { changed: ['status'] } });
    expect(changes.at(-1)!.data.object).toEqual(json(await owner.get(task.id)));

    // The task went in progress with the start and done with the completion, each right after its automation's event.
    const taskChanges = taskStatusEvents(events, task.id);
    expect(taskChanges.map((e) => e.data.object.status)).toEqual(['in-progress', 'done']);
    expect(events.indexOf(taskChanges[1]!)).toBe(events.indexOf(changes[2]!) + 1);
    expect(taskChanges[1]!.data.object).toMatchObject(
      json(await f.t.app.inject({ url: `/v2/tasks/${task.id}`, headers: bearer(owner.token) })),
    );

    // Completion recorded the account (with its login) and the confirmation in its transaction.
    const outputs = changes.at(-1)!.data.object.outputs as { agency_account_id: string; login_id: string; document_id: string };
    expect(events.find((e) => e.type === 'agency_account.created')!.data.object).toMatchObject({
      id: outputs.agency_account_id,
      logins: [{ id: outputs.login_id }],
    });
    expect(events.find((e) => e.type === 'login.created')!.data.object).toMatchObject({ id: outputs.login_id });
    expect(events.find((e) => e.type === 'mail.received')!.data.object).toMatchObject({ id: outputs.document_id });
    // The sensitive input stays sealed: masked in the payload as in the API.
    expect(await eventsText(f.t, owner.entityId)).not.toContain(`"${EDD_INPUT.officer_ssn_last4}"`);
  });

  it('a refused start records nothing', async () => {
    const owner = await f.entity({ business_name: 'Refused Widgets Inc' });
    const task = await owner.task(EDD);
    const before = (await eventsOf(f.t, owner.entityId)).length;
    expect((await owner.automate(task.id, { ...EDD_INPUT, officer_ssn_last4: 'abc' })).statusCode).toBe(422);
    expect(await eventsOf(f.t, owner.entityId)).toHaveLength(before);
    expect((await owner.automate(task.id, EDD_INPUT)).statusCode).toBe(201);
    await owner.waitFor(task.id, (s) => s.status === 'complete', 'the sandbox to complete');
    const after = (await eventsOf(f.t, owner.entityId)).length;
    // Done: a second start is a 409, and nothing is recorded.
    expect((await owner.automate(task.id, EDD_INPUT)).statusCode).toBe(409);
    expect(await eventsOf(f.t, owner.entityId)).toHaveLength(after);
  });
});

describe('events: automations in the operator queue', () => {
  let f: Fixture;
  let op: { authorization: string };
  beforeAll(async () => {
    f = await startAutomationsFixture({ automations: { sandbox: false } });
    op = { authorization: `Bearer ${(await createOperatorKey(f.t.db, 'Grace')).key}` };
  });
  afterAll(() => f?.close());

  it("request-response, the owner's answer and cancel each record their event; a claim (no status change) and a refused action none", async () => {
    const owner = await f.entity();
    const task = await owner.task(EDD);
    const automationId = json<{ id: string }>(await owner.automate(task.id, EDD_INPUT)).id;
    const call = (action: string, payload: object = {}) =>
      f.t.app.inject({ method: 'POST', url: `/operator/v1/automations/${automationId}/${action}`, headers: op, payload });
    expect((await call('claim')).statusCode).toBe(200);
    expect((await call('request-response', { message: 'Which date did you first pay wages?' })).statusCode).toBe(200);
    const answered = await f.t.app.inject({
      method: 'POST',
      url: `/tasks/${task.id}/automation/answer`,
      headers: bearer(owner.token),
      payload: { response: 'On 2026-11-20.' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await call('cancel', { reason: 'The agency closed the registration' })).statusCode).toBe(200);

    const events = await eventsOf(f.t, owner.entityId);
    const changes = automationEvents(events, automationId);
    expect(changes.map((e) => e.data.object.status)).toEqual(['started', 'waiting_on_customer_response', 'started', 'canceled']);
    expect(changes.at(-1)!.data.object).toEqual(json(await owner.get(task.id)));
    // Canceled sends the task back to to-do, with its event.
    expect(taskStatusEvents(events, task.id).map((e) => e.data.object.status)).toEqual(['in-progress', 'todo']);

    expect((await call('cancel', { reason: 'Again' })).statusCode).toBe(409);
    expect(await eventsOf(f.t, owner.entityId)).toHaveLength(events.length);
  });
});
