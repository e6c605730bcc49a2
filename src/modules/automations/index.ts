import type { FastifyPluginAsync } from 'fastify';
import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AuthHooks } from '../../http/auth.js';
import type { JobSender } from '../../jobs/queue.js';
import type { AccountsService } from '../accounts/contract.js';
import type { FilingConnectors } from '../agencies/contract.js';
import type { Vault } from '../../crypto/vault.js';
import type { EventRecorder, TaskEvents } from '../events/contract.js';
import type { MailService } from '../mail/contract.js';
import type { Replanner } from '../planning/contract.js';
import { createAutomationEvents } from './automations.events.js';
import { createAutomationViews } from './automations.views.js';
import { createAutomationWriter, type TaskStatusStore } from './automation-writer.js';
import { createAutomationWorkflow, type WorkflowSettings } from './automations.jobs.js';
import { createOperatorAutomations } from './automations-operator.service.js';
import { automationRoutes } from './automations.routes.js';
import { createOwnerAutomations } from './automations.service.js';
import type { AutomationsAudit, AutomationsService } from './contract.js';

/** Re-seals every automation's sensitive input under the vault's current key (the CLI's `vault rotate`). */
export { createAutomationInputRotation } from './automation-input-rotation.js';

export interface AutomationsModuleDeps {
  db: Db;
  catalog: Catalog;
  now: () => Date;
  planning: Replanner;
  jobs: JobSender;
  vault: Pick<Vault, 'sealBytes' | 'openBytes'>;
  accounts: Pick<AccountsService, 'recordFiledAccount'>;
  mail: Pick<MailService, 'ingestIn'>;
  audit: AutomationsAudit;
  /** The agencies' filing connectors (agencies registry). */
  connectors: FilingConnectors;
  settings: WorkflowSettings;
  /** automation.status_changed, in each change's transaction. */
  events: EventRecorder;
  /** task.updated when an automation moves its task (start, completion, cancel). */
  taskEvents: Pick<TaskEvents, 'record'>;
  /** The tasks module's port: an automation moves its task's status through it. */
  taskStatus: TaskStatusStore;
}

/** Automations: durable workflows that file a task's requirement through a connector or the operator queue. */
export function createAutomationsModule(deps: AutomationsModuleDeps) {
  const { connectors } = deps;
  const views = createAutomationViews({ catalog: deps.catalog, connectors });
  const writer = createAutomationWriter({
    ...deps,
    announce: createAutomationEvents({ views, events: deps.events, taskEvents: deps.taskEvents }),
  });
  const owner = createOwnerAutomations({ db: deps.db, catalog: deps.catalog, planning: deps.planning, connectors, writer, views });
  const operator = createOperatorAutomations({
    db: deps.db,
    catalog: deps.catalog,
    planning: deps.planning,
    writer,
    audit: deps.audit,
    owner,
  });
  const workflow = createAutomationWorkflow({ ...deps, connectors, writer });
  const automations: AutomationsService & Pick<typeof owner, 'automatable'> = {
    start: owner.start,
    forTask: owner.forTask,
    forTasks: owner.forTasks,
    answer: owner.answer,
    cancelForManualStatus: owner.cancelForManualStatus,
    automatable: owner.automatable,
    queue: operator.queue,
    get: operator.get,
    revealInput: operator.revealInput,
    claim: operator.claim,
    complete: operator.complete,
    requestCustomerResponse: operator.requestCustomerResponse,
    cancel: operator.cancel,
  };
  return {
    automations,
    /** Performs one step now (tests, and the CLI if it ever needs to). */
    runStep: workflow.runStep,
    jobs: workflow.definitions,
    /** POST /tasks/{task_id}/automate and GET /tasks/{task_id}/automation. */
    routes: (http: { auth: AuthHooks }): FastifyPluginAsync => automationRoutes({ automations, auth: http.auth }),
  };
}

export type AutomationsModule = ReturnType<typeof createAutomationsModule>;
