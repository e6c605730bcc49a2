import type { AccessScope } from '../../http/principals.js';
import { AutomationConflictError, FINAL_AUTOMATION_STATUSES, type AutomationView } from '../automations/contract.js';
import type { AutomationsModule } from '../automations/index.js';

/** The running server's automations (with its job queue): `serve --demo` has them, the `demo` command does not. */
export type DemoAutomationsService = Pick<AutomationsModule, 'automations' | 'runStep'>;

/**
 * The demo's two automations of the active entity. New York payroll registration, filed by the sandbox agency: an
 * agency account with its withholding account number, a login and a confirmation document. California foreign
 * qualification with the sandbox's test value `connector-error` (docs/automations.md): the agency portal fails
 * at every try, so after its tries it waits in the operator queue, for a person.
 */
export const DEMO_AUTOMATIONS = {
  filed: {
    requirementId: 'ny-employer-registration',
    input: { first_payroll_date: '2026-12-01', ein: '12-3456789', officer_name: 'Dana Demo' },
  },
  queued: {
    requirementId: 'ca-foreign-qualification-corporation',
    input: {
      registered_agent_name: 'connector-error',
      principal_office_address: '500 Market St, San Francisco, CA 94105',
      good_standing_certificate_date: '2026-11-02',
    },
  },
} as const;

export interface DemoAutomation {
  taskId: string;
  automationId: string;
  status: string;
  performer: string;
}

/** Settled for the demo: nothing left for a connector to do now (complete, canceled, or with a person). */
const settled = (v: AutomationView) =>
  FINAL_AUTOMATION_STATUSES.includes(v.status) || v.performer === 'operator' || v.status === 'waiting_on_customer_response';
/** Steps performed here at most (the workflow needs 3, the failing one its tries); a pause when the queue's worker holds one. */
const MAX_TURNS = 60;
const HELD_PAUSE_MS = 50;

/**
 * Starts the automation of the entity's task for `requirementId` (unless it has one) and performs its steps now,
 * one after the other, instead of after the sandbox's pauses: the demo shows their results as soon as it prints.
 * Each step goes through the workflow's own `runStep` (its lease and step key), so a step the job queue's worker
 * performs at the same moment is performed once; a later start finds the automation and leaves it.
 */
async function seedOne(
  scope: AccessScope,
  taskId: string,
  input: Record<string, unknown>,
  service: DemoAutomationsService,
): Promise<DemoAutomation | null> {
  const { automations, runStep } = service;
  let view = await automations.forTask(scope, taskId);
  if (!view) {
    view = await automations.start(scope, taskId, input).catch((error: unknown) => {
      // The task was done or dismissed by hand meanwhile: nothing to show for it.
      if (error instanceof AutomationConflictError) return undefined;
      throw error;
    });
    if (!view) return null;
  }
  for (let turn = 0; turn < MAX_TURNS && !settled(view); turn++) {
    const result = await runStep(view.id);
    if (result.startsWith('not performed')) await new Promise((resolve) => setTimeout(resolve, HELD_PAUSE_MS));
    view = (await automations.forTask(scope, taskId))!;
  }
  return { taskId, automationId: view.id, status: view.status, performer: view.performer };
}

export async function seedDemoAutomations(
  scope: AccessScope,
  findTask: (legalEntityId: string, definitionId: string) => Promise<{ id: string } | undefined>,
  service: DemoAutomationsService,
): Promise<{ filed: DemoAutomation | null; queued: DemoAutomation | null }> {
  const one = async ({ requirementId, input }: { requirementId: string; input: Record<string, unknown> }) => {
    const task = await findTask(scope.legalEntityId, requirementId);
    return task ? seedOne(scope, task.id, input, service) : null;
  };
  return { filed: await one(DEMO_AUTOMATIONS.filed), queued: await one(DEMO_AUTOMATIONS.queued) };
}
