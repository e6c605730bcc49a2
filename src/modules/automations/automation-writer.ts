import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AutomationRow, StoredAutomationOutputs, TaskRow } from '../../db/schema.js';
import type { JobSender } from '../../jobs/queue.js';
import type { AccountsService } from '../accounts/contract.js';
import type { Vault } from '../../crypto/vault.js';
import type { MailService } from '../mail/contract.js';
import type { AutomationEvents } from './automations.events.js';
import { stepKey } from './automations.views.js';
import { createAutomationsRepository } from './automations.repository.js';
import type { AutomationOutcome, AutomationStatus } from './contract.js';

export const STEP_JOB = 'automations.step';

/** What a sealed input is bound to: this automation (a copy on another row does not open). */
export const inputAad = (automationId: string) => Buffer.from(`statehouse:automation-input:v1\n${automationId}`);

/**
 * The tasks table has one writer, the tasks module: an automation moves its task's status through this port, in its own
 * transaction `db`. Defined here (tasks imports automations, never the reverse); implemented by tasks.repository.ts
 * taskStatusStore, wired in app.ts.
 */
export interface TaskStatusStore {
  /** The task's new status, acted on now; `completedAt` for done, else null. */
  setStatus(db: Db, legalEntityId: string, taskId: string, status: TaskRow['status'], completedAt: Date | null): Promise<unknown>;
}

export interface AutomationWriterDeps {
  /** The task's status moves through the tasks module (the tasks table's one writer). */
  taskStatus: TaskStatusStore;
  catalog: Pick<Catalog, 'requirement'>;
  jobs: JobSender;
  vault: Pick<Vault, 'sealBytes' | 'openBytes'>;
  accounts: Pick<AccountsService, 'recordFiledAccount'>;
  mail: Pick<MailService, 'ingestIn'>;
  /** Records each status change's events in its transaction. */
  announce: AutomationEvents;
  now: () => Date;
}

/**
 * The writes every path shares (the owner's start and answer, the connector's steps, the operator's actions),
 * each in the caller's transaction, which has taken the entity's planning lock first and then the row's lock.
 */
export function createAutomationWriter(deps: AutomationWriterDeps) {
  const today = () => deps.now().toISOString().slice(0, 10);

  /** Columns of a sealed input (null when nothing is sensitive). */
  function seal(automationId: string, secret: Record<string, unknown>) {
    if (Object.keys(secret).length === 0)
      return { sealed_input: null, sealed_input_iv: null, sealed_input_tag: null, sealed_input_key_id: null };
    const sealed = deps.vault.sealBytes(Buffer.from(JSON.stringify(secret), 'utf8'), inputAad(automationId));
    return { sealed_input: sealed.ciphertext, sealed_input_iv: sealed.iv, sealed_input_tag: sealed.tag, sealed_input_key_id: sealed.keyId };
  }

  /** The whole input: the clear part with the sealed values put back (for connectors and an operator's reveal). */
  function openInput(row: AutomationRow): Record<string, unknown> {
    if (!row.sealed_input || !row.sealed_input_iv || !row.sealed_input_tag || !row.sealed_input_key_id) return { ...row.input };
    const opened = deps.vault.openBytes(
      { ciphertext: row.sealed_input, iv: row.sealed_input_iv, tag: row.sealed_input_tag, keyId: row.sealed_input_key_id },
      inputAad(row.id),
    );
    return { ...row.input, ...(JSON.parse(opened.toString('utf8')) as Record<string, unknown>) };
  }

  /**
   * A change of the row; with `status`, a line in its status log (every change of status, and every hand-over, is
   * logged) and its `automation.status_changed` event (with `task.updated` when `taskStatusChanged`).
   */
  async function move(
    trx: Db,
    row: AutomationRow,
    change: {
      status?: AutomationStatus;
      reason?: string | null;
      actor: string;
      set?: Parameters<ReturnType<typeof createAutomationsRepository>['update']>[1];
      taskStatusChanged?: boolean;
    },
  ) {
    const repo = createAutomationsRepository(trx);
    const status = change.status ?? (row.status as AutomationStatus);
    const updated = await repo.update(row.id, { ...change.set, status, ...(change.status && { status_reason: change.reason ?? null }) });
    if (change.status || change.reason) await repo.insertLog(row, status, change.reason ?? null, change.actor);
    if (change.status) await deps.announce.statusChanged(trx, updated, { taskStatusChanged: change.taskStatusChanged ?? false });
    return updated;
  }

  /** The step a connector performs next, durable: its job is enqueued in this transaction. */
  async function schedule(trx: Db, row: AutomationRow, step: string, afterMs: number, set: Parameters<typeof move>[2]['set'] = {}) {
    const repo = createAutomationsRepository(trx);
    const updated = await repo.update(row.id, {
      ...set,
      current_step: step,
      step_due_at: new Date(Date.now() + afterMs),
      lease_token: null,
      lease_until: null,
    });
    await deps.jobs.send(
      STEP_JOB,
      { automation_id: row.id, step_key: stepKey(step, updated.round) },
      { startAfterSeconds: Math.ceil(afterMs / 1000), transaction: trx },
    );
    return updated;
  }

  /**
   * Completion: the agency account with its data and login, the confirmation as a mail item (its file stored
   * first, under the file store's lock), the task done, the automation complete with its outputs. The caller
   * re-plans in the same transaction, so the tasks this unlocks are planned when it commits.
   */
  async function complete(trx: Db, row: AutomationRow, outcome: AutomationOutcome, actor: string) {
    const definition = deps.catalog.requirement(row.requirement_id);
    const automation = definition?.definition.resolutions.automation;
    const agency = definition?.agency;
    let account: { accountId: string | null; loginId: string | null } = { accountId: null, loginId: null };
    const accountData = outcome.accountData ?? [];
    if (automation?.outputs.agency_account) {
      const login = outcome.login && {
        loginUrl: outcome.login.loginUrl ?? agency?.website ?? 'https://example.invalid/',
        secrets: {
          username: outcome.login.username,
          password: outcome.login.password,
          ...(outcome.login.securityAnswers && { security_answers: outcome.login.securityAnswers }),
          ...(outcome.login.totpSeed && { totp_seed: outcome.login.totpSeed }),
        },
      };
      account = await deps.accounts.recordFiledAccount(trx, row.legal_entity_id, {
        regionCode: row.region_code,
        agencyId: agency?.id ?? row.agency_id,
        name: automation.outputs.agency_account.name,
        data: accountData,
        ...(login && { login }),
      });
    }
    const document = outcome.document
      ? await deps.mail.ingestIn(trx, {
          legalEntityId: row.legal_entity_id,
          regionCode: row.region_code,
          type: 'external-mail',
          receivedOn: today(),
          sender: agency?.name ?? row.agency_id,
          subject: definition ? `Confirmation: ${definition.definition.title}` : null,
          fileName: outcome.document.fileName,
          bytes: outcome.document.bytes,
        })
      : null;
    const outputs: StoredAutomationOutputs = {
      agency_account_id: account.accountId,
      login_id: account.loginId,
      document_id: document?.id ?? null,
      dates: Object.fromEntries((automation?.outputs.dates ?? []).map((d) => [d.name, outcome.dates?.[d.name] ?? today()])),
      account_data: accountData.map((d) => ({ name: d.name, value: d.value })),
    };
    await deps.taskStatus.setStatus(trx, row.legal_entity_id, row.task_id, 'done', deps.now());
    return move(trx, row, {
      status: 'complete',
      reason: 'Filed with the agency',
      actor,
      taskStatusChanged: true,
      set: {
        outputs: JSON.stringify(outputs),
        completed_at: deps.now(),
        current_step: null,
        step_due_at: null,
        lease_token: null,
        lease_until: null,
        last_error: null,
      },
    });
  }

  /** Canceled (the agency refused, or an operator gave up): the task goes back to to-do, to be done another way. */
  async function cancel(trx: Db, row: AutomationRow, reason: string, actor: string) {
    const repo = createAutomationsRepository(trx);
    const task = await repo.findTask(row.legal_entity_id, row.task_id);
    const reopened = task?.status === 'in-progress';
    if (reopened) await deps.taskStatus.setStatus(trx, row.legal_entity_id, row.task_id, 'todo', null);
    return move(trx, row, {
      status: 'canceled',
      reason,
      actor,
      taskStatusChanged: reopened,
      set: { current_step: null, step_due_at: null, lease_token: null, lease_until: null },
    });
  }

  return { seal, openInput, move, schedule, complete, cancel, announce: deps.announce, taskStatus: deps.taskStatus };
}

export type AutomationWriter = ReturnType<typeof createAutomationWriter>;
