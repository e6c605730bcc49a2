import type { Catalog } from '../../catalog/catalog.js';
import type { AutomationRow } from '../../db/schema.js';
import type { AutomationLogEntry, AutomationStatus, AutomationStepView, AutomationView } from './contract.js';
import type { FilingConnectors as AgencyConnectors } from '../agencies/contract.js';

/** The steps of the operator queue's work, as the progress page shows them. */
export const OPERATOR_STEPS = [
  { key: 'operator_review', label: 'Our team reviews your input' },
  { key: 'operator_file', label: 'Our team files it with the agency' },
  { key: 'operator_record', label: 'Record the account, login and confirmation' },
] as const;

/** A step's key in a round: the first round's keys are the step names; an owner's answer starts round 1, 2, ... */
export const stepKey = (step: string, round: number) => (round === 0 ? step : `${step}#${round}`);
const stepOf = (key: string) => key.replace(/#\d+$/, '');

export interface LogRow {
  automation_id: string;
  status: string;
  reason: string | null;
  actor: string;
  created_at: Date;
}

/** Rows → the contract's views: steps from the performer's step list and the step records, logs, outputs. */
export function createAutomationViews(deps: { catalog: Pick<Catalog, 'requirement'>; connectors: Pick<AgencyConnectors, 'byName'> }) {
  function connectorSteps(row: AutomationRow, recorded: Set<string>): AutomationStepView[] {
    const connector = deps.connectors.byName(row.performer);
    if (!connector) return [];
    const final = row.status === 'complete' || row.status === 'canceled';
    return connector.steps
      .filter((s) => !s.optional || recorded.has(s.key) || row.current_step === s.key)
      .map((s): AutomationStepView => {
        const state =
          row.status === 'complete' || recorded.has(s.key)
            ? 'done'
            : row.current_step === s.key && !final
              ? row.last_error
                ? 'failed'
                : 'current'
              : 'pending';
        return { key: s.key, label: s.label, state };
      });
  }

  function operatorSteps(row: AutomationRow, recordedConnector: AutomationStepView[]): AutomationStepView[] {
    const done = row.status === 'complete';
    const reviewing = !row.assigned_operator_key_id && !done;
    const ours: AutomationStepView[] = OPERATOR_STEPS.map((s, i) => ({
      key: s.key,
      label: s.label,
      state: done ? 'done' : reviewing ? (i === 0 ? 'current' : 'pending') : i === 0 ? 'done' : i === 1 ? 'current' : 'pending',
    }));
    if (row.status === 'canceled') for (const s of ours) if (s.state === 'current') s.state = 'failed';
    // What a connector did before handing over stays visible.
    return [...recordedConnector.filter((s) => s.state === 'done'), ...ours];
  }

  function toView(row: AutomationRow, logs: LogRow[], stepKeys: string[]): AutomationView {
    const recorded = new Set(stepKeys.map(stepOf));
    const found = deps.catalog.requirement(row.requirement_id);
    let steps: AutomationStepView[];
    if (row.performer === 'operator') {
      const handedFrom = logs.map((l) => l.actor).find((actor) => deps.connectors.byName(actor));
      steps = operatorSteps(row, handedFrom ? connectorSteps({ ...row, performer: handedFrom }, recorded) : []);
    } else {
      steps = connectorSteps(row, recorded);
    }
    const outputs = row.outputs;
    return {
      id: row.id,
      taskId: row.task_id,
      legalEntityId: row.legal_entity_id,
      platformId: row.platform_id,
      requirementId: row.requirement_id,
      region: row.region_code,
      // Rows moved from before this capability carry no agency: the catalog's.
      agencyId: row.agency_id || found?.agency.id || '',
      fulfilment: row.fulfilment,
      performer: row.performer,
      status: row.status as AutomationStatus,
      statusReason: row.status_reason,
      customerMessage: row.customer_message,
      customerResponse: row.customer_response,
      steps,
      logs: logs.map((l): AutomationLogEntry => ({
        status: l.status as AutomationStatus,
        reason: l.reason,
        actor: l.actor,
        at: l.created_at.toISOString(),
      })),
      input: row.input,
      outputs: outputs && {
        agencyAccountId: outputs.agency_account_id,
        loginId: outputs.login_id,
        documentId: outputs.document_id,
        dates: outputs.dates,
        accountData: outputs.account_data,
      },
      assignedTo: row.assigned_operator_key_id ? { keyId: row.assigned_operator_key_id, name: row.assigned_operator_name ?? '' } : null,
      lastError: row.last_error,
      dueDate: row.due_date,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      completedAt: row.completed_at ? row.completed_at.toISOString() : null,
    };
  }

  return { toView };
}

export type AutomationViews = ReturnType<typeof createAutomationViews>;
