import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/modules/events/contract.js';
import { bearer, createTestApp, json, VALID_SIGNUP_V2, type TestApp } from './helpers/app.js';
import { EDD, EDD_INPUT, entityCalls, TEST_AUTOMATIONS } from './helpers/automations.js';
import { PASSWORD, USERNAME } from './helpers/connections.js';
import { acknowledge, publishWithOneEmployee } from './helpers/handbook.js';
import { connectPayroll, finishSignup, openLink } from './helpers/hosted.js';
import { waitUntil } from './helpers/wait.js';
import { startWebhooksFixture, TEST_WEBHOOKS } from './helpers/webhook-deliveries.js';

interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  legal_entity_id: string | null;
  data: { object: Record<string, unknown>; changed?: string[] };
}

/**
 * The whole chain, through the public interface only: real API flows of one platform (signup, a profile change,
 * regions and locations, a task's status and a question's answer, a task deleted by re-planning, a sandbox
 * automation to completion, a connection through the sandbox connector, payroll connect and disconnect; the first
 * planning runs the repository's catalog release, so `catalog.released` is recorded for the platform) record
 * events; one endpoint subscribed to everything receives every event type, each request verified with
 * `standardwebhooks`, and GET /v2/events lists exactly the ids that arrived.
 */
describe('webhooks: every event type reaches a verifying receiver', { timeout: 300_000 }, () => {
  let t: TestApp;
  let f: Awaited<ReturnType<typeof startWebhooksFixture>>;
  beforeAll(async () => {
    t = await createTestApp({ automations: TEST_AUTOMATIONS, webhooks: TEST_WEBHOOKS, sandboxConnectorStepMs: 0 }, undefined, {
      jobs: true,
    });
    f = await startWebhooksFixture({}, t);
    await f.addEndpoint();
  });
  afterAll(async () => {
    await f?.close();
    await t?.close();
  });

  const inject = async (what: string, options: InjectOptions, status = 200) => {
    const res = await t.app.inject(options);
    if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res;
  };

  /** Every event of the platform through GET /v2/events, page after page. */
  async function listedEvents(): Promise<ListedEvent[]> {
    const out: ListedEvent[] = [];
    let next: string | null = '/v2/events?limit=1000';
    while (next) {
      const res = await inject('GET /v2/events', { url: next, headers: f.key });
      const page = json<ListedEvent[]>(res);
      out.push(...page);
      const header = res.headers['x-next-page'];
      next = page.length > 0 && typeof header === 'string' && header ? header.replace(/^https?:\/\/[^/]+/, '') : null;
    }
    return out;
  }

  /** A C corporation incorporated in Delaware, signed up through the API, with its token. */
  async function signup(overrides: Record<string, unknown> = {}) {
    const entityId = json(
      await inject('POST /v2/signup', { method: 'POST', url: '/v2/signup', headers: f.key, payload: { ...VALID_SIGNUP_V2, ...overrides } }),
    ).legal_entity_id as string;
    const token = json(
      await inject('POST /accounts/auth', {
        method: 'POST',
        url: '/accounts/auth',
        headers: f.key,
        payload: { legal_entity_id: entityId },
      }),
    ).access_token as string;
    return { entityId, token, auth: bearer(token) };
  }

  it('drives every kind of change and delivers every event type, verified, with the ids GET /v2/events lists', async () => {
    // Signup through the API (task.created), a profile change through a hosted signup link (legal_entity.updated), completed by the owner.
    const owner = await signup();
    const session = json(
      await inject('POST /v2/signup/sessions (profile change)', {
        method: 'POST',
        url: '/v2/signup/sessions',
        headers: f.key,
        payload: {
          legal_entity_id: owner.entityId,
          business_name: 'Renamed Widgets Inc',
          user_email: 'founder@example.com',
          callback_url: 'https://platform.example/done',
        },
      }),
    );
    // The owner completes the hosted signup (legal_entity.signup_completed).
    expect((await finishSignup(t.app, session.url)).statusCode).toBe(303);

    // Regions and locations (location.updated, task.created): employees in California; New York with its facts unknown (questions).
    await inject('PUT /v2/regions/CA', { method: 'PUT', url: '/v2/regions/CA', headers: owner.auth, payload: { employee_count: 8 } });
    await inject('PUT /locations/NY', { method: 'PUT', url: '/locations/NY', headers: owner.auth });

    // A task's status and a question's answer (task.updated).
    const tasks = json<{ id: string; type: string; source: { requirement_id?: string; question_id?: string } }[]>(
      await inject('GET /v2/tasks', { url: '/v2/tasks?page_size=500', headers: owner.auth }),
    );
    const todo = tasks.find((x) => x.source.requirement_id && x.source.requirement_id !== EDD)!;
    await inject('PATCH /v2/tasks/{id}', {
      method: 'PATCH',
      url: `/v2/tasks/${todo.id}`,
      headers: owner.auth,
      payload: { status: 'done' },
    });
    const question = tasks.find((x) => x.source.question_id === 'has-employees')!;
    await inject('PATCH /v2/tasks/questions/{id}', {
      method: 'PATCH',
      url: `/v2/tasks/questions/${question.id}`,
      headers: owner.auth,
      payload: { answer: true },
    });

    // A sandbox automation to completion (automation.status_changed, agency_account.created, login.created, mail.received: its confirmation).
    const calls = entityCalls(t, owner.token);
    const edd = await calls.task(EDD);
    expect((await calls.automate(edd.id, EDD_INPUT)).statusCode).toBe(201);
    const done = await calls.waitFor(edd.id, (s) => s.status === 'complete', 'the sandbox automation to complete');
    const accountId = done.outputs!.agency_account_id!;

    // A connection of the automation's account through the sandbox connector (connection.status_changed, agency_account.updated: its details).
    const connect = json(
      await inject('POST /accounts/connect', {
        method: 'POST',
        url: '/accounts/connect',
        headers: owner.auth,
        payload: { legal_entity_id: owner.entityId, agency_account_id: accountId },
      }),
    );
    const browser = (await openLink(t.app, connect.connect_url)).browser!;
    await browser.get(`/hosted/connections/${connect.connection.id}`);
    expect(
      (await browser.post(`/hosted/connections/${connect.connection.id}`, { username: USERNAME, password: PASSWORD })).statusCode,
    ).toBe(303);
    await waitUntil(
      async () =>
        json(await inject('GET connection', { url: `/accounts/connections/${connect.connection.id}`, headers: owner.auth })).status ===
        'connected',
      'the sandbox connector to connect',
      { timeoutMs: 90_000, intervalMs: 100 },
    );

    // Payroll connected and disconnected (payroll.connected, payroll.disconnected).
    await connectPayroll(t.app, f.platform.apiKey, owner.entityId);
    await inject('DELETE /v2/auth/payroll', { method: 'DELETE', url: '/v2/auth/payroll', headers: owner.auth });

    // The owner publishes the employee handbook; an employee acknowledges it (handbook.published, handbook.acknowledged).
    const ackLink = await publishWithOneEmployee(t.app, owner.token);
    expect((await acknowledge(t.app, ackLink, 'Ana Lopez')).statusCode).toBe(303);

    // No more employees in California: re-planning deletes its untouched employer tasks (task.deleted).
    await inject('PUT /v2/regions/CA (no employees)', {
      method: 'PUT',
      url: '/v2/regions/CA',
      headers: owner.auth,
      payload: { employee_count: 0 },
    });

    // Every event the flows recorded arrives, each request verified; GET /v2/events lists exactly those ids.
    let listed: ListedEvent[] = [];
    await waitUntil(
      async () => {
        listed = await listedEvents();
        const arrived = new Set(f.receiver.verified().map((p) => p.id));
        const types = new Set(listed.map((e) => e.type));
        return EVENT_TYPES.every((type) => types.has(type)) && listed.every((e) => arrived.has(e.id)) && arrived.size === listed.length;
      },
      'every listed event at the receiver',
      { timeoutMs: 120_000, intervalMs: 200 },
    ).catch((error: Error) => {
      const seen = new Set(f.receiver.verified().map((p) => p.type));
      throw new Error(`${error.message}; types not received: ${EVENT_TYPES.filter((type) => !seen.has(type)).join(', ')}`);
    });

    expect(f.receiver.received.length).toBeGreaterThan(0);
    expect(f.receiver.received.filter((r) => !r.verified.ok).map((r) => r.verified)).toEqual([]);
    const received = f.receiver.verified();
    expect(new Set(received.map((p) => p.type))).toEqual(new Set(EVENT_TYPES));
    expect(new Set(received.map((p) => p.id))).toEqual(new Set(listed.map((e) => e.id)));
    // Each delivery is the event as the log lists it, under its own id.
    const byId = new Map(listed.map((e) => [e.id, e]));
    for (const payload of received) expect(payload).toEqual(byId.get(payload.id));
    for (const request of f.receiver.received) expect(request.headers['webhook-id']).toBe(JSON.parse(request.body).id);
  });
});
