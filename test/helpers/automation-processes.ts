import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/db/database.js';
import { createPlatform, TEST_VAULT_KEY, VALID_SIGNUP_V2 } from './app.js';
import { EDD } from './automations.js';
import { startServe, type ServeProcess } from './cli.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';
import { waitUntil } from './wait.js';

/**
 * `statehouse serve` processes on one test database and one data directory (the confirmation PDFs), watched
 * through a plain database connection; entities signed up through whichever process is given.
 */
export async function startProcessesFixture(stepMs: number, extraEnv: Record<string, string> = {}) {
  const url = await createTestDatabase(inject('testCluster'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'statehouse-automations-'));
  const db = createDb(url, 2);
  const { apiKey } = await createPlatform(db, 'Durable Payroll');
  const processes: ServeProcess[] = [];
  const env = {
    DATABASE_URL: url,
    STATEHOUSE_DATA_DIR: dataDir,
    STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
    PUBLIC_BASE_URL: 'http://statehouse.test',
    LOG_LEVEL: 'warn',
    AUTOMATION_SANDBOX: 'on',
    AUTOMATION_SANDBOX_STEP_MS: String(stepMs),
    AUTOMATION_CONNECTOR_TIMEOUT_MS: '2000',
    ...extraEnv,
  };

  /** A `statehouse serve` process; `processEnv` adds to the shared environment (e.g. PGAPPNAME to tell its sessions apart). */
  async function serve(processEnv: Record<string, string> = {}) {
    const server = await startServe({ ...env, ...processEnv });
    processes.push(server);
    return server;
  }

  const call = async (server: ServeProcess, method: string, pathName: string, body: unknown, authorization: string) => {
    const res = await fetch(`${server.url}${pathName}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${pathName}: ${res.status} ${text}`);
    return JSON.parse(text);
  };

  /** An entity with California employees whose payroll registration is automated through `server`; its automation id. */
  async function automateThrough(server: ServeProcess, name: string) {
    const { legal_entity_id: entityId } = await call(server, 'POST', '/v2/signup', { ...VALID_SIGNUP_V2, business_name: name }, apiKey);
    const { access_token: token } = await call(server, 'POST', '/accounts/auth', { legal_entity_id: entityId }, apiKey);
    const auth = `Bearer ${token}`;
    await call(server, 'PUT', '/locations/CA', { config: { has_employees: true, has_physical_location: true } }, auth);
    const tasks = (await call(server, 'GET', '/tasks', undefined, auth)) as { id: string; definition: { id: string } }[];
    const task = tasks.find((x) => x.definition.id === EDD)!;
    const started = await call(
      server,
      'POST',
      `/tasks/${task.id}/automate`,
      { first_payroll_date: '2026-12-01', officer_name: name, officer_ssn_last4: '1234' },
      auth,
    );
    return { entityId, automationId: started.id as string };
  }

  /** What a finished automation left: its log, step records, and the entity's accounts, logins and mail. */
  async function outputsOf(entityId: string, automationId: string) {
    const count = async (table: 'agency_accounts' | 'account_logins' | 'mail_items') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('legal_entity_id', '=', entityId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      statuses: (
        await db.selectFrom('automation_status_logs').select('status').where('automation_id', '=', automationId).orderBy('id').execute()
      ).map((r) => r.status),
      steps: (await db.selectFrom('automation_steps').select('step_key').where('automation_id', '=', automationId).execute())
        .map((r) => r.step_key)
        .sort(),
      accounts: await count('agency_accounts'),
      logins: await count('account_logins'),
      mail: await count('mail_items'),
    };
  }

  /** Every performance of a step that pg-boss recorded as done ("performed …" outputs), by automation and step key. */
  async function performances() {
    const { rows } = await sql<{ automation_id: string; step_key: string; output: unknown }>`
      select data->>'automation_id' as automation_id, data->>'step_key' as step_key, output from pgboss.job
      where name = 'automations.step' and state = 'completed'`.execute(db);
    return rows.filter((r) => JSON.stringify(r.output).includes('performed ') && !JSON.stringify(r.output).includes('not performed'));
  }

  const statusOf = async (automationId: string) =>
    (await db.selectFrom('automations').select('status').where('id', '=', automationId).executeTakeFirstOrThrow()).status;
  const waitForStatus = (automationId: string, status: string, timeoutMs = 120_000) =>
    waitUntil(async () => (await statusOf(automationId)) === status, `automation ${automationId} to be ${status}`, {
      timeoutMs,
      intervalMs: 100,
    });
  /** Makes the scheduled steps due now (steps are scheduled far ahead, so that nothing moves by itself). */
  const releaseSteps = () =>
    sql`update pgboss.job set start_after = now() where name = 'automations.step' and state in ('created', 'retry')`.execute(db);

  async function close() {
    for (const server of processes) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await db.destroy();
    await dropTestDatabase(inject('testCluster').adminUrl, url);
    await rm(dataDir, { recursive: true, force: true });
  }

  return { db: db as Db, url, apiKey, serve, automateThrough, outputsOf, performances, statusOf, waitForStatus, releaseSteps, close };
}
