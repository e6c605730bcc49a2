import { randomUUID } from 'node:crypto';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AutomationRow } from '../../db/schema.js';
import type { JobDefinition, JobSender } from '../../jobs/queue.js';
import type { PlanningChange, Replanner } from '../planning/contract.js';
import { stepKey } from './automations.views.js';
import { STEP_JOB, type AutomationWriter } from './automation-writer.js';
import { createAutomationsRepository } from './automations.repository.js';
import type {
  ConnectorStepOutcome,
  FilingConnector as AgencyConnector,
  FilingConnectors as AgencyConnectors,
} from '../agencies/contract.js';

export const SWEEP_JOB = 'automations.sweep';
/** A scheduled step this late (and held by nobody) has lost its job: the sweep sends it again. */
export const OVERDUE_SECONDS = 60;
/** The longest pause before a retry, however many tries are configured. */
export const MAX_RETRY_PAUSE_MS = 3_600_000;

export interface WorkflowSettings {
  /** Longest a connector call may take (AUTOMATION_CONNECTOR_TIMEOUT_MS). */
  connectorTimeoutMs: number;
  /** Failed tries of one step before the automation goes to the operator queue (AUTOMATION_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Pause before the first retry, doubled at each (AUTOMATION_RETRY_BASE_MS). */
  retryBaseMs: number;
}

export interface WorkflowDeps {
  db: Db;
  catalog: Pick<Catalog, 'requirement'>;
  planning: Replanner;
  jobs: JobSender;
  connectors: Pick<AgencyConnectors, 'byName'>;
  writer: AutomationWriter;
  settings: WorkflowSettings;
  now: () => Date;
}

class StepTimeout extends Error {}

/** One connector call, given up on (and aborted) after `ms`. */
async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new StepTimeout(`did not answer within ${ms / 1000} s`));
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A connector's failure as the automation shows it: short, one line (connectors must not put input in errors). */
const describe = (connector: string, error: unknown) =>
  `The ${connector} connector ${error instanceof StepTimeout ? error.message : `failed: ${error instanceof Error ? error.message : String(error)}`}`
    .replace(/\s+/g, ' ')
    .slice(0, 500);

/**
 * The workflow: `automations.step` performs an automation's current step through its connector. The step is
 * held (a lease in the row, taken by one conditional UPDATE) while the connector works, so two processes
 * never perform it at once; its result is applied in one transaction with its record in `automation_steps`
 * (whose key makes it never performed again), its status change and log line, and the next step's job.
 */
export function createAutomationWorkflow(deps: WorkflowDeps) {
  const { db, writer, settings } = deps;
  // The hold outlasts the call; a performance whose hold ran out and was taken over finds itself superseded.
  const leaseSeconds = Math.ceil(settings.connectorTimeoutMs / 1000) + 5;

  async function callFor(row: AutomationRow, connector: AgencyConnector, key: string, signal: AbortSignal) {
    const found = deps.catalog.requirement(row.requirement_id);
    const entity = await createAutomationsRepository(db).findEntity(row.legal_entity_id);
    if (!found?.definition.resolutions.automation || !entity) throw new Error(`requirement ${row.requirement_id} or its entity is gone`);
    return connector.perform({
      automationId: row.id,
      step: row.current_step!,
      idempotencyKey: `${row.id}:${key}`,
      legalEntity: { id: entity.id, name: entity.business_name, ein: entity.ein },
      region: row.region_code,
      agency: { id: found.agency.id, name: found.agency.name, website: found.agency.website },
      requirement: { id: found.definition.id, title: found.definition.title },
      input: writer.openInput(row),
      outputs: found.definition.resolutions.automation.outputs,
      now: deps.now(),
      signal,
    });
  }

  /** Applies a step's outcome, if this performance still holds the step; returns what happened. */
  async function apply(
    held: AutomationRow,
    token: string,
    key: string,
    connector: AgencyConnector,
    outcome: ConnectorStepOutcome,
  ): Promise<string> {
    const { value } = await deps.planning.change([held.legal_entity_id], (trx) => applyIn(trx, held, token, key, connector, outcome));
    return value;
  }

  /** `apply` under the entity's planning lock: a canceled or complete automation moves its task, so it re-plans. */
  async function applyIn(
    trx: Db,
    held: AutomationRow,
    token: string,
    key: string,
    connector: AgencyConnector,
    outcome: ConnectorStepOutcome,
  ): Promise<PlanningChange<string>> {
    const done = (value: string) => ({ value, replan: false });
    {
      const repo = createAutomationsRepository(trx);
      const row = await repo.lockById(held.id);
      if (!row || row.lease_token !== token) return done(`superseded (${key})`);
      const summary = outcome.type === 'complete' ? { type: 'complete' } : outcome;
      if (!(await repo.recordStep(row, key, summary))) return done(`already performed (${key})`);
      const reset = { attempts: 0, last_error: null, lease_token: null, lease_until: null };
      const actor = connector.name;
      switch (outcome.type) {
        case 'continue': {
          const moved = await writer.move(trx, row, {
            ...(outcome.status && outcome.status !== row.status && { status: outcome.status, reason: outcome.reason ?? null }),
            actor,
            set: reset,
          });
          await writer.schedule(trx, moved, outcome.next, outcome.afterMs);
          return done(`performed ${key} → ${outcome.next}`);
        }
        case 'needs_customer_response':
          await writer.move(trx, row, {
            status: 'waiting_on_customer_response',
            reason: 'The agency needs more information',
            actor,
            set: { ...reset, customer_message: outcome.message, current_step: null, step_due_at: null },
          });
          return done(`performed ${key} → waiting_on_customer_response`);
        case 'rejected':
          await writer.cancel(trx, row, outcome.reason, actor);
          return { value: `performed ${key} → canceled` };
        case 'complete':
          await writer.complete(trx, row, outcome.outcome, actor);
          return { value: `performed ${key} → complete` };
      }
    }
  }

  /** A failed try: retried after a doubling pause, or after `maxAttempts` handed to the operator queue. */
  async function fail(held: AutomationRow, token: string, key: string, reason: string): Promise<string> {
    return db.transaction().execute(async (trx) => {
      const row = await createAutomationsRepository(trx).lockById(held.id);
      if (!row || row.lease_token !== token) return `superseded (${key})`;
      const attempts = row.attempts + 1;
      if (attempts >= settings.maxAttempts) {
        await writer.move(trx, row, {
          reason: `${reason}; after ${attempts} tries it is handed to the operator queue`,
          actor: 'system',
          set: {
            attempts,
            last_error: reason,
            performer: 'operator',
            current_step: null,
            step_due_at: null,
            lease_token: null,
            lease_until: null,
          },
        });
        return `failed ${key} (${attempts}) → operator queue`;
      }
      await writer.schedule(trx, row, row.current_step!, Math.min(MAX_RETRY_PAUSE_MS, settings.retryBaseMs * 2 ** (attempts - 1)), {
        attempts,
        last_error: reason,
      });
      return `failed ${key} (${attempts}), retried`;
    });
  }

  /**
   * The step could not be held: performed already (nothing to do), or held by another performance. A holder
   * that died leaves its hold to run out: the step is sent again for then (a no-op if the holder finishes).
   */
  async function whyNotHeld(automationId: string, key: string): Promise<string> {
    const row = await createAutomationsRepository(db).findById(automationId);
    const stillCurrent = row?.current_step && stepKey(row.current_step, row.round) === key;
    if (!row || !stillCurrent || !row.lease_until) return `not performed (${key}): performed already`;
    const wait = Math.max(0, row.lease_until.getTime() - Date.now());
    await deps.jobs.send(STEP_JOB, { automation_id: automationId, step_key: key }, { startAfterSeconds: Math.ceil(wait / 1000) + 1 });
    return `not performed (${key}): held by another performance; sent again for when its hold runs out`;
  }

  /** One performance of the automation's current step (the job's `step_key` must still be current). */
  async function runStep(automationId: string, expectedKey?: string): Promise<string> {
    const repo = createAutomationsRepository(db);
    const row = await repo.findById(automationId);
    if (!row) return 'unknown automation';
    if (!row.current_step) return `nothing to do (${row.status}, ${row.performer})`;
    const key = stepKey(row.current_step, row.round);
    if (expectedKey && expectedKey !== key) return `superseded (${expectedKey}; now ${key})`;
    const connector = deps.connectors.byName(row.performer);
    const token = randomUUID();
    // Under the entity's planning lock, as every other writer of its automations: the task-list version trigger then
    // never waits on a counter a re-planning holds while that re-planning waits on this row (a deadlock).
    const { value: held } = await deps.planning.change([row.legal_entity_id], async (trx) => ({
      value: await createAutomationsRepository(trx).leaseStep(
        row.id,
        { step: row.current_step!, round: row.round, key },
        token,
        leaseSeconds,
      ),
      replan: false,
    }));
    if (!held) return whyNotHeld(automationId, key);
    if (!connector) return fail(held, token, key, `No connector named '${row.performer}' in this configuration`);
    let outcome: ConnectorStepOutcome;
    try {
      outcome = await withTimeout(settings.connectorTimeoutMs, (signal) => callFor(held, connector, key, signal));
    } catch (error) {
      return fail(held, token, key, describe(connector.name, error));
    }
    return apply(held, token, key, connector, outcome);
  }

  /** Sends again the steps whose job is lost (overdue and held by nobody); duplicates are harmless. */
  async function sweep(): Promise<{ resent: number }> {
    const rows = await createAutomationsRepository(db).findOverdueSteps(OVERDUE_SECONDS, 500);
    for (const row of rows) await deps.jobs.send(STEP_JOB, { automation_id: row.id, step_key: stepKey(row.current_step!, row.round) });
    return { resent: rows.length };
  }

  const definitions: JobDefinition[] = [
    {
      name: STEP_JOB,
      pollingIntervalSeconds: 0.5,
      // Steps of different automations run side by side (a worker waits its polling interval between jobs).
      concurrency: 4,
      // A process killed mid-step: its job is handed to another after this; the lease has run out by then.
      expireInSeconds: leaseSeconds + 10,
      handler: async (data) =>
        typeof data.automation_id === 'string'
          ? runStep(data.automation_id, typeof data.step_key === 'string' ? data.step_key : undefined)
          : 'ignored: no automation_id',
    },
    { name: SWEEP_JOB, cron: '* * * * *', expireInSeconds: 60, handler: () => sweep() },
  ];

  return { runStep, sweep, definitions };
}
