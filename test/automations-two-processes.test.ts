import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/database.js';
import type { Config } from '../src/config.js';
import type { FilingConnector } from '../src/modules/agencies/contract.js';
import { createAgencyConnectors } from '../src/modules/agencies/registry.js';
import { createAutomationsModule } from '../src/modules/automations/index.js';
import { createVault } from '../src/crypto/vault.js';
import { createEventsService } from '../src/modules/events/index.js';
import { createTaskEvents, taskStatusStore } from '../src/modules/tasks/index.js';
import { TEST_VAULT_KEY, discardingJobs } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { startProcessesFixture } from './helpers/automation-processes.js';
import { waitUntil } from './helpers/wait.js';

describe('automations: two Statehouse processes on one database', { timeout: 300_000 }, () => {
  describe('two `statehouse serve` processes working one queue', () => {
    let f: Awaited<ReturnType<typeof startProcessesFixture>>;
    beforeAll(async () => {
      f = await startProcessesFixture(0);
    });
    afterAll(() => f.close());

    it('complete every automation with each step performed exactly once', async () => {
      const [a, b] = [await f.serve(), await f.serve()];
      const started = [];
      for (let i = 0; i < 6; i++) started.push(await f.automateThrough(i % 2 ? b : a, `Twin Widgets ${i}`));
      for (const { automationId } of started) await f.waitForStatus(automationId, 'complete');
      for (const { entityId, automationId } of started) {
        expect(await f.outputsOf(entityId, automationId)).toEqual({
          statuses: ['started', 'waiting_on_state', 'complete'],
          steps: ['await_state', 'finalize', 'submit'],
          accounts: 1,
          logins: 1,
          mail: 1,
        });
      }
      const performed = await waitUntil(async () => {
        const all = await f.performances();
        return all.length >= started.length * 3 && all;
      }, 'every performance recorded by pg-boss');
      const keys = performed.map((p) => `${p.automation_id}:${p.step_key}`);
      expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
      expect(keys).toHaveLength(started.length * 3);
    });
  });

  it('two performances of one step at the same moment: the connector is called once, the other finds it held', async () => {
    // A connector that counts its calls and stays in the call until the test lets it go (not for a fixed time a busy
    // machine could outlast), in two modules (as two processes would build them) on one database.
    const f = await startAutomationsFixture({ jobs: discardingJobs });
    try {
      const calls: string[] = [];
      let letGo!: () => void;
      const gate = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const slow: FilingConnector = {
        name: 'counting',
        firstStep: 'submit',
        steps: [{ key: 'submit', label: 'Submit' }],
        async perform(call) {
          calls.push(call.idempotencyKey);
          await gate;
          return { type: 'rejected', reason: 'counted' };
        },
      };
      const build = () => {
        const db = createDb(f.t.url, 3);
        const events = createEventsService();
        const settings: Config['automations'] = {
          sandbox: false,
          sandboxStepMs: 0,
          connectorTimeoutMs: 120_000,
          maxAttempts: 3,
          retryBaseMs: 100,
        };
        const module = createAutomationsModule({
          db,
          catalog: f.t.app.services.catalog,
          now: () => new Date(),
          planning: f.t.app.services.planning.planning,
          jobs: discardingJobs,
          vault: createVault([TEST_VAULT_KEY]),
          accounts: f.t.app.services.accounts,
          mail: f.t.app.services.mail,
          audit: { record: async () => {} },
          settings,
          connectors: createAgencyConnectors({
            enabled: ['ca-edd'],
            sandbox: { accounts: false, filings: false, filingStepMs: 0 },
            implementations: { 'ca-edd': () => ({ filings: slow }) },
          }).filings,
          events,
          taskEvents: createTaskEvents({ catalog: f.t.app.services.catalog, publicBaseUrl: f.t.config.publicBaseUrl, events }),
          taskStatus: taskStatusStore,
        });
        return { module, db };
      };
      const [one, two] = [build(), build()];
      const owner = await f.entity();
      const task = await owner.task(EDD);
      const automation = await one.module.automations.start(owner.scope, task.id, EDD_INPUT);
      expect(automation.performer).toBe('counting');
      const runs = [one.module.runStep(automation.id), two.module.runStep(automation.id)];
      // The one that could not hold the step answers while the other is still in the connector.
      expect(await Promise.race(runs)).toMatch(/^not performed/);
      letGo();
      const results = await Promise.all(runs);
      expect(calls).toEqual([`${automation.id}:submit`]);
      expect(results.filter((r) => r.startsWith('performed submit'))).toHaveLength(1);
      expect(results.filter((r) => r.startsWith('not performed'))).toHaveLength(1);
      expect(await one.module.runStep(automation.id)).toMatch(/^nothing to do \(canceled/);
      expect(calls).toHaveLength(1);
      await Promise.all([one.db.destroy(), two.db.destroy()]);
    } finally {
      await f.close();
    }
  });
});
