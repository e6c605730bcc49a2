import type { Config } from '../../src/config.js';
import type { JobSender } from '../../src/jobs/queue.js';
import { bearer, createPlatformWithEntity, createTestApp, json, signupWithToken, type TestApp } from './app.js';
import { waitUntil } from './wait.js';

/** CA payroll registration: sensitive input (SSN digits), an account with a number in `##########`, a login, a confirmation. */
export const EDD = 'ca-edd-employer-registration';
export const EDD_INPUT = { first_payroll_date: '2026-12-01', officer_name: 'Ada Lovelace', officer_ssn_last4: '4821' } as const;
/** CA foreign qualification of a corporation: completing it unlocks the Statement of Information tasks. */
export const FOREIGN = 'ca-foreign-qualification-corporation';
export const FOREIGN_INPUT = {
  registered_agent_name: 'Harbor Agents Inc',
  principal_office_address: '1 Main St, Dover, DE 19901',
  good_standing_certificate_date: '2026-11-02',
} as const;

/**
 * The sandbox with no pause between steps and fast retries (tests wait on conditions, not time). The connector
 * timeout is generous: an ordinary sandbox step on a busy machine must never run out of it (a test of the
 * timeout itself sets a short one: a hanging connector hangs however busy the machine is).
 */
export const TEST_AUTOMATIONS: Config['automations'] = {
  sandbox: true,
  sandboxStepMs: 0,
  connectorTimeoutMs: 20_000,
  maxAttempts: 3,
  retryBaseMs: 100,
};

export interface AutomationState {
  id: string;
  task_id: string;
  status: string;
  status_reason: string | null;
  customer_message: string | null;
  performer: string;
  fulfilment: string;
  steps: { key: string; label: string; state: string }[];
  status_logs: { status: string; reason: string | null; actor: string; updated_at: string }[];
  input: Record<string, unknown>;
  outputs: {
    agency_account_id: string | null;
    login_id: string | null;
    document_id: string | null;
    dates: Record<string, string>;
    account_data: { name: string; value: string }[];
  } | null;
  last_error: string | null;
}

/** The calls of one entity: its tasks, automate, read the automation, wait for a status. */
export function entityCalls(t: TestApp, token: string) {
  const auth = bearer(token);
  const api = {
    token,
    async task(definitionId: string) {
      const tasks = json<{ id: string; status: string; definition: { id: string } }[]>(
        await t.app.inject({ url: '/tasks', headers: auth }),
      );
      const found = tasks.find((x) => x.definition.id === definitionId);
      if (!found) throw new Error(`no task ${definitionId}: ${tasks.map((x) => x.definition.id).join(', ')}`);
      return found;
    },
    tasks: async () =>
      json<{ id: string; status: string; definition: { id: string } }[]>(await t.app.inject({ url: '/tasks', headers: auth })),
    automate: (taskId: string, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/tasks/${taskId}/automate`, headers: auth, payload: body }),
    get: (taskId: string) => t.app.inject({ url: `/tasks/${taskId}/automation`, headers: auth }),
    async state(taskId: string) {
      const res = await api.get(taskId);
      if (res.statusCode !== 200) throw new Error(`GET automation: ${res.statusCode} ${res.body}`);
      return json<AutomationState>(res);
    },
    /** Polls GET /tasks/{id}/automation until `done` holds (generous limit: the machine may be busy). */
    async waitFor(taskId: string, done: (s: AutomationState) => boolean, what: string, timeoutMs = 60_000) {
      let last: AutomationState | undefined;
      try {
        return await waitUntil(
          async () => {
            last = await api.state(taskId);
            return done(last) && last;
          },
          what,
          { timeoutMs, intervalMs: 100 },
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}; last state: ${JSON.stringify(last)}`);
      }
    },
  };
  return api;
}

/**
 * An app with a real job queue (pg-boss on its test database) and the sandbox at zero delay, and entities
 * (`entity()`) with California employees: a C corporation incorporated in Delaware, so its CA tasks include
 * the payroll registration and the foreign qualification.
 */
export async function startAutomationsFixture(
  options: { automations?: Partial<Config['automations']>; jobs?: boolean | JobSender; log?: { write(line: string): void } } = {},
) {
  const t = await createTestApp(
    { automations: { ...TEST_AUTOMATIONS, ...options.automations }, ...(options.log && { logLevel: 'debug' as const }) },
    options.log,
    { jobs: options.jobs ?? true },
  );
  let apiKey: string | null = null;
  let platformId: string | null = null;
  async function entity(body: Record<string, unknown> = {}) {
    const created = apiKey
      ? { apiKey, ...(await signupWithToken(t.app, apiKey, body)) }
      : await createPlatformWithEntity(t, 'Acme Payroll', body);
    apiKey = created.apiKey;
    if ('platformId' in created) platformId = created.platformId;
    const calls = entityCalls(t, created.token);
    const located = await t.app.inject({
      method: 'PUT',
      url: '/locations/CA',
      headers: bearer(created.token),
      payload: { config: { has_employees: true, has_physical_location: true } },
    });
    if (located.statusCode !== 200) throw new Error(`PUT /locations/CA: ${located.statusCode} ${located.body}`);
    return {
      entityId: created.entityId,
      platformId: 'platformId' in created ? created.platformId : platformId!,
      scope: { platformId: 'platformId' in created ? created.platformId : platformId!, legalEntityId: created.entityId },
      ...calls,
    };
  }
  return { t, entity, close: () => t.close() };
}
