import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './helpers/app.js';
import { EDD, EDD_INPUT, FOREIGN, FOREIGN_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { createOperatorKey } from './helpers/back-office.js';
import { tinyPdf } from './helpers/pdf.js';

interface OperatorAutomation {
  id: string;
  task_id: string;
  status: string;
  performer: string;
  assigned_to: { key_id: string; name: string } | null;
  input: Record<string, unknown>;
  outputs: { account_data: { name: string; value: string }[]; document_id: string | null } | null;
  customer_message: string | null;
  status_reason: string | null;
}

/** The operator API of automations, with no connector: every automation waits on a person. */
describe('operator API: /operator/v1/automations', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  let key: string;
  let keyId: string;
  let otherKeyId: string;
  const op = () => ({ authorization: `Bearer ${key}` });
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    f.t.app.inject({ method, url: `/operator/v1${url}`, headers: op(), ...(payload !== undefined && { payload: payload as object }) });

  beforeAll(async () => {
    f = await startAutomationsFixture({ automations: { sandbox: false } });
    ({ key, id: keyId } = await createOperatorKey(f.t.db, 'Grace'));
    otherKeyId = (await createOperatorKey(f.t.db, 'Linus')).id;
  });
  afterAll(() => f.close());

  async function queued(input: Record<string, string> = EDD_INPUT, definition = EDD) {
    const owner = await f.entity();
    const task = await owner.task(definition);
    const started = await owner.automate(task.id, input);
    expect(started.statusCode, started.body).toBe(201);
    return { owner, task, automationId: json<{ id: string }>(started).id };
  }

  it('lists the queue with filters and pages, and shows one automation with its input masked', async () => {
    const a = await queued();
    const b = await queued(FOREIGN_INPUT, FOREIGN);
    const page = await call('GET', '/automations?region=CA');
    expect(page.statusCode, page.body).toBe(200);
    const ids = json<{ items: OperatorAutomation[] }>(page).items.map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining([a.automationId, b.automationId]));
    expect(json<{ items: OperatorAutomation[] }>(await call('GET', '/automations?agency_id=ca-edd')).items.map((i) => i.id)).toContain(
      a.automationId,
    );
    expect(json<{ items: OperatorAutomation[] }>(await call('GET', '/automations?agency_id=ca-edd')).items.map((i) => i.id)).not.toContain(
      b.automationId,
    );
    expect(json<{ items: unknown[] }>(await call('GET', '/automations?region=NY')).items).toEqual([]);

    const first = json<{ items: OperatorAutomation[]; next_cursor: string | null }>(await call('GET', '/automations?limit=1'));
    expect(first.items).toHaveLength(1);
    expect(first.next_cursor).toBeTruthy();
    const second = json<{ items: OperatorAutomation[] }>(await call('GET', `/automations?limit=1&cursor=${first.next_cursor}`));
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);

    const one = await call('GET', `/automations/${a.automationId}`);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toMatchObject({
      id: a.automationId,
      performer: 'operator',
      status: 'started',
      entity_name: expect.any(String),
      task_title: expect.any(String),
    });
    expect(json<OperatorAutomation>(one).input.officer_ssn_last4).not.toBe(EDD_INPUT.officer_ssn_last4);
    expect(one.body).not.toContain(EDD_INPUT.officer_ssn_last4);
  });

  it('claims, assigns and filters by assignee; reveals the input (audited)', async () => {
    const { automationId } = await queued();
    const claimed = await call('POST', `/automations/${automationId}/claim`, {});
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(json<OperatorAutomation>(claimed).assigned_to).toEqual({ key_id: keyId, name: 'Grace' });
    expect(json<{ items: OperatorAutomation[] }>(await call('GET', '/automations?assigned_to=me')).items.map((i) => i.id)).toContain(
      automationId,
    );
    const assigned = await call('POST', `/automations/${automationId}/claim`, { assignee_key_id: otherKeyId });
    expect(json<OperatorAutomation>(assigned).assigned_to).toEqual({ key_id: otherKeyId, name: 'Linus' });
    expect(json<{ items: OperatorAutomation[] }>(await call('GET', '/automations?assigned_to=me')).items.map((i) => i.id)).not.toContain(
      automationId,
    );
    expect((await call('POST', `/automations/${automationId}/claim`, { assignee_key_id: 'opk_nobody' })).statusCode).toBe(422);

    const revealed = await call('POST', `/automations/${automationId}/reveal`);
    expect(revealed.statusCode).toBe(200);
    expect(json(revealed).input.officer_ssn_last4).toBe(EDD_INPUT.officer_ssn_last4);
    const trail = json<{ events: { action: string; details: Record<string, unknown> }[] }>(
      await call('GET', `/audit-events?subject_id=${automationId}`),
    ).events;
    expect(trail.map((e) => e.action)).toEqual(['automation.reveal_input', 'automation.claim', 'automation.claim']);
    expect(JSON.stringify(trail)).not.toContain(EDD_INPUT.officer_ssn_last4);
  });

  it("completes with the confirmation PDF as base64: the task is done and the outputs are the entity's", async () => {
    const { owner, task, automationId } = await queued();
    const bad = await call('POST', `/automations/${automationId}/complete`, {
      document: { file_name: 'c.pdf', content_base64: Buffer.from('not a pdf').toString('base64') },
    });
    expect(bad.statusCode).toBe(422);
    const locs = json<{ detail: { loc: (string | number)[] }[] }>(bad).detail.map((d) => d.loc);
    expect(locs).toContainEqual(['body', 'account_data', 'Withholding account number']);
    expect(locs).toContainEqual(['body', 'document']);
    const done = await call('POST', `/automations/${automationId}/complete`, {
      account_data: [
        { name: 'Withholding account number', value: '1234567890' },
        { name: 'Filing frequency', value: 'Quarterly' },
      ],
      login: { username: 'grace-edd', password: 'Edd-pass-1!' },
      dates: { effective_date: '2026-11-20' },
      document: { file_name: 'edd-confirmation.pdf', content_base64: tinyPdf('edd confirmation').toString('base64') },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toMatchObject({
      status: 'complete',
      outputs: { account_data: expect.arrayContaining([{ name: 'Withholding account number', value: '1234567890' }]) },
    });
    expect(done.body).not.toContain('Edd-pass-1!');
    expect((await owner.tasks()).find((x) => x.id === task.id)?.status).toBe('done');
    const documentId = json<OperatorAutomation>(done).outputs!.document_id;
    const mail = json<{ id: string }[]>(await f.t.app.inject({ url: '/mail', headers: { authorization: `Bearer ${owner.token}` } }));
    expect(mail.map((m) => m.id)).toContain(documentId);
    const again = await call('POST', `/automations/${automationId}/cancel`, { reason: 'too late' });
    expect(again.statusCode).toBe(409);
  });

  it('sends it back to the owner, cancels with a reason; 404 unknown, 422 bad bodies, 401 for platform credentials', async () => {
    const { automationId } = await queued();
    const sent = await call('POST', `/automations/${automationId}/request-response`, { message: 'Which county is the office in?' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(json(sent)).toMatchObject({ status: 'waiting_on_customer_response', customer_message: 'Which county is the office in?' });
    expect((await call('POST', `/automations/${automationId}/request-response`, { message: 'again?' })).statusCode).toBe(409);
    const canceled = await call('POST', `/automations/${automationId}/cancel`, { reason: 'The business closed' });
    expect(canceled.statusCode).toBe(200);
    expect(json(canceled)).toMatchObject({ status: 'canceled' });

    expect((await call('GET', '/automations/aut_unknown')).statusCode).toBe(404);
    expect((await call('POST', '/automations/aut_unknown/claim', {})).statusCode).toBe(404);
    const empty = await call('POST', `/automations/${automationId}/cancel`, { reason: '' });
    expect(empty.statusCode).toBe(422);
    expect(json(empty).detail[0].loc).toEqual(['body', 'reason']);
    expect((await call('GET', '/automations?status=bogus')).statusCode).toBe(422);
    expect((await call('GET', '/automations?limit=500')).statusCode).toBe(422);
    expect((await call('GET', '/automations?cursor=garbage')).statusCode).toBe(422);
    const owner = await f.entity();
    expect(
      (await f.t.app.inject({ url: '/operator/v1/automations', headers: { authorization: `Bearer ${owner.token}` } })).statusCode,
    ).toBe(401);
  });

  it('documents every operation in the OpenAPI document, with its errors', async () => {
    const doc = json(await f.t.app.inject({ url: '/openapi.json' }));
    const ops = {
      '/operator/v1/automations': ['get', 'operatorAutomationQueue'],
      '/operator/v1/automations/{automation_id}': ['get', 'operatorGetAutomation'],
      '/operator/v1/automations/{automation_id}/claim': ['post', 'operatorClaimAutomation'],
      '/operator/v1/automations/{automation_id}/reveal': ['post', 'operatorRevealAutomationInput'],
      '/operator/v1/automations/{automation_id}/complete': ['post', 'operatorCompleteAutomation'],
      '/operator/v1/automations/{automation_id}/request-response': ['post', 'operatorRequestCustomerResponse'],
      '/operator/v1/automations/{automation_id}/cancel': ['post', 'operatorCancelAutomation'],
    } as const;
    for (const [path, [method, id]] of Object.entries(ops)) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, path).toBe(id);
      expect(op.security).toEqual([{ operatorKey: [] }]);
    }
    expect(Object.keys(doc.paths['/operator/v1/automations/{automation_id}/complete'].post.responses)).toEqual(
      expect.arrayContaining(['200', '401', '404', '409', '413', '422']),
    );
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/operator/') && !p.startsWith('/operator/v1/'))).toEqual([]);
  });
});
