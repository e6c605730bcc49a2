import type { Catalog } from '../../catalog/catalog.js';
import type { AutomationDefinition } from '../../catalog/catalog.schema.js';
import type { Db } from '../../db/database.js';
import type { AutomationRow } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';
import { InvalidInputError, InvalidInputsError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Replanner } from '../planning/contract.js';
import { checkInput, splitSensitive } from './automations.input.js';
import type { AutomationViews } from './automations.views.js';
import type { AutomationWriter } from './automation-writer.js';
import { createAutomationsRepository } from './automations.repository.js';
import {
  ANSWER_FIELD,
  AutomationConflictError,
  FINAL_AUTOMATION_STATUSES,
  type AutomationStatus,
  type AutomationView,
  type ManualActor,
} from './contract.js';
import type { FilingConnectors as AgencyConnectors } from '../agencies/contract.js';

export const AUTOMATION_ID_PREFIX = 'aut';
/** The owner's free-text answer to an operator's question (beside any corrected fields). */
export { ANSWER_FIELD, AutomationConflictError } from './contract.js';
export const MAX_TEXT = 2000;

export interface AutomationsServiceDeps {
  db: Db;
  catalog: Pick<Catalog, 'requirement'>;
  planning: Replanner;
  connectors: Pick<AgencyConnectors, 'forAgency' | 'byName'>;
  writer: AutomationWriter;
  views: AutomationViews;
}

/** The owner's side: start (API and hosted form), read, answer an operator's question. */
export function createOwnerAutomations(deps: AutomationsServiceDeps) {
  const { db } = deps;

  /** Views of rows, with their logs and step records in two queries whatever the number of rows. */
  async function viewsOf(rows: AutomationRow[]): Promise<AutomationView[]> {
    const repo = createAutomationsRepository(db);
    const ids = rows.map((r) => r.id);
    const [logs, steps] = await Promise.all([repo.logsOf(ids), repo.stepsOf(ids)]);
    return rows.map((row) =>
      deps.views.toView(
        row,
        logs.filter((l) => l.automation_id === row.id),
        steps.filter((s) => s.automation_id === row.id).map((s) => s.step_key),
      ),
    );
  }
  const viewOf = async (row: AutomationRow) => (await viewsOf([row]))[0]!;

  /** The task's automation definition; 404 for an unknown task, 409 for one that cannot be automated. */
  async function automatable(scope: AccessScope, taskId: string, repo = createAutomationsRepository(db)) {
    const task = await repo.findTask(scope.legalEntityId, taskId);
    if (!task) throw new NotFoundError(`Task '${taskId}' not found`);
    const found = task.kind === 'requirement' ? deps.catalog.requirement(task.definition_id) : undefined;
    const automation = found?.definition.resolutions.automation;
    if (!found || !automation) throw new AutomationConflictError(`Task '${taskId}' cannot be automated: complete it with its manual steps`);
    return { task, requirement: found.definition, agency: found.agency, automation };
  }

  function validate(
    automation: AutomationDefinition,
    body: Record<string, unknown>,
    options: { partial?: boolean; extra?: readonly string[] } = {},
  ) {
    const { input, errors } = checkInput(automation.fields, body, options);
    if (errors.length > 0) throw new InvalidInputsError(errors);
    return input;
  }

  return {
    viewsOf,
    viewOf,
    automatable,

    /**
     * One transaction: the entity's planning lock, the checks (done or dismissed, already running: 409), the
     * automation with its sealed input and `started` log line, the task in progress, and the first step's job
     * when a connector performs it (otherwise it waits in the operator queue).
     */
    async start(scope: AccessScope, taskId: string, body: Record<string, unknown>): Promise<AutomationView> {
      const { automation } = await automatable(scope, taskId);
      const input = validate(automation, body);
      const { value: row } = await deps.planning.change([scope.legalEntityId], async (trx) => {
        const repo = createAutomationsRepository(trx);
        const { task, agency } = await automatable(scope, taskId, repo);
        if (task.status === 'done' || task.status === 'dismissed') {
          throw new AutomationConflictError(`Task '${taskId}' is ${task.status}: reopen it before automating it`);
        }
        const live = await repo.findLiveForTask(scope.legalEntityId, taskId);
        if (live) throw new AutomationConflictError(`The automation of task '${taskId}' has already started (status ${live.status})`);
        const connector = automation.fulfilment === 'connector' ? deps.connectors.forAgency(agency.id) : undefined;
        const id = newId(AUTOMATION_ID_PREFIX);
        const { clear, secret } = splitSensitive(automation.fields, input);
        let created = await repo.insert({
          id,
          task_id: taskId,
          legal_entity_id: scope.legalEntityId,
          platform_id: scope.platformId,
          requirement_id: task.definition_id,
          region_code: task.region_code,
          agency_id: agency.id,
          fulfilment: automation.fulfilment,
          performer: connector?.name ?? 'operator',
          status: 'started',
          input: JSON.stringify(clear),
          ...deps.writer.seal(id, secret),
          due_date: task.due_date,
        });
        await repo.insertLog(
          created,
          'started',
          connector ? `Started; ${connector.name} files it` : 'Started; waiting in the operator queue',
          'owner',
        );
        if (connector) created = await deps.writer.schedule(trx, created, connector.firstStep, 0);
        const taskStarted = task.status === 'todo';
        if (taskStarted) await deps.writer.taskStatus.setStatus(trx, scope.legalEntityId, taskId, 'in-progress', null);
        await deps.writer.announce.statusChanged(trx, created, { taskStatusChanged: taskStarted });
        // The task moved to in-progress: the entity's tasks are re-planned with it.
        return { value: created, replan: taskStarted };
      });
      return viewOf(row);
    },

    async forTask(scope: AccessScope, taskId: string): Promise<AutomationView | undefined> {
      const [row] = await createAutomationsRepository(db).findLatestForTasks(scope.legalEntityId, [taskId]);
      return row && viewOf(row);
    },

    async forTasks(legalEntityId: string, taskIds: readonly string[]): Promise<Map<string, AutomationView>> {
      const rows = await createAutomationsRepository(db).findLatestForTasks(legalEntityId, taskIds);
      return new Map((await viewsOf(rows)).map((v) => [v.taskId, v]));
    },

    /**
     * A manual done/dismissed wins over a live automation: it is canceled (no further step; a step job already
     * queued finds it final and does nothing), the task keeping the status it was given by hand.
     */
    async cancelForManualStatus(
      trx: Db,
      scope: AccessScope,
      taskId: string,
      status: 'done' | 'dismissed',
      actor: ManualActor,
    ): Promise<void> {
      const repo = createAutomationsRepository(trx);
      const live = await repo.findLiveForTask(scope.legalEntityId, taskId);
      const locked = live && (await repo.lockById(live.id));
      if (!locked || FINAL_AUTOMATION_STATUSES.includes(locked.status as AutomationStatus)) return;
      await deps.writer.move(trx, locked, {
        status: 'canceled',
        reason: status === 'done' ? 'Marked done by hand' : 'Dismissed by hand',
        actor,
        set: { current_step: null, step_due_at: null, lease_token: null, lease_until: null },
      });
    },

    /**
     * The owner answers a question (`waiting_on_customer_response` → `started`): `response` (free text) and/or
     * corrected fields, merged over the stored input. Back to its performer: a connector starts a new round of
     * steps (new step keys); the operator queue shows it again.
     */
    async answer(scope: AccessScope, taskId: string, body: Record<string, unknown>): Promise<AutomationView> {
      const { automation } = await automatable(scope, taskId);
      const { [ANSWER_FIELD]: response, ...fields } = body;
      const changed = validate(automation, fields, { partial: true });
      if (response !== undefined && response !== null && (typeof response !== 'string' || response.length > MAX_TEXT)) {
        throw new InvalidInputError(
          [ANSWER_FIELD],
          `Write the answer as text of at most ${MAX_TEXT} characters`,
          typeof response === 'string' ? '[too long]' : response,
        );
      }
      const text = typeof response === 'string' ? response.trim() : '';
      if (!text && Object.keys(changed).length === 0)
        throw new InvalidInputError([ANSWER_FIELD], 'Answer the question, or correct a field', response ?? null);
      const { value: row } = await deps.planning.change([scope.legalEntityId], async (trx) => {
        const repo = createAutomationsRepository(trx);
        const live = await repo.findLiveForTask(scope.legalEntityId, taskId);
        const locked = live && (await repo.lockById(live.id));
        if (!locked || locked.status !== 'waiting_on_customer_response') {
          throw new AutomationConflictError(
            `The automation of task '${taskId}' is not waiting on an answer${locked ? ` (status ${locked.status})` : ''}`,
          );
        }
        const { clear, secret } = splitSensitive(automation.fields, { ...deps.writer.openInput(locked), ...changed });
        const set = {
          input: JSON.stringify(clear),
          ...deps.writer.seal(locked.id, secret),
          customer_response: text || null,
          round: locked.round + 1,
          last_error: null,
          attempts: 0,
        };
        const moved = await deps.writer.move(trx, locked, { status: 'started', reason: 'The owner answered', actor: 'owner', set });
        const connector = deps.connectors.byName(moved.performer);
        return { value: connector ? await deps.writer.schedule(trx, moved, connector.firstStep, 0) : moved, replan: false };
      });
      return viewOf(row);
    },
  };
}

export type OwnerAutomations = ReturnType<typeof createOwnerAutomations>;
