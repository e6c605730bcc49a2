/**
 * The automations module's contract: what the tasks module (task records, hosted pages), the operator back
 * office, the demo and the bench read and call. The module's service implements `AutomationsService`.
 */
import type { AutomationField } from '../../catalog/catalog.schema.js';
import type { Db } from '../../db/database.js';
import type { AccessScope } from '../../http/principals.js';
import { ConflictError } from '../../lib/errors.js';
import type { AuditEvent } from '../audit/contract.js';
import type { OperatorPrincipal } from '../operators/contract.js';

/** The reference's automation statuses (v2 `PlatformRequirementTaskAutomationStatus`), in workflow order. */
export const AUTOMATION_STATUSES = [
  'started',
  'waiting_for_start_file_date',
  'waiting_on_state',
  'waiting_on_signature',
  'waiting_on_customer_response',
  'complete',
  'canceled',
] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** Statuses after which nothing more happens. */
export const FINAL_AUTOMATION_STATUSES: readonly AutomationStatus[] = ['complete', 'canceled'];

/** Who changed an automation: a connector (machine), an operator (person), the business owner, or Statehouse itself. */
export type AutomationActor =
  { type: 'connector'; name: string } | { type: 'operator'; operator: OperatorPrincipal } | { type: 'owner' } | { type: 'system' };

/** One line of `automation_status_logs`: every status change, its time and reason. */
export interface AutomationLogEntry {
  status: AutomationStatus;
  reason: string | null;
  /** 'sandbox', an operator's name, 'owner' or 'system'. */
  actor: string;
  at: string;
}

/** One step of the workflow as the hosted page shows it. */
export interface AutomationStepView {
  key: string;
  label: string;
  state: 'done' | 'current' | 'pending' | 'failed';
}

/** What completing produced (ids of records the entity's APIs list). */
export interface AutomationOutputs {
  agencyAccountId: string | null;
  loginId: string | null;
  /** The confirmation PDF, a mail item of the entity (listed by the mail API and hosted documents page). */
  documentId: string | null;
  /** The catalog's `outputs.dates` by name, 'YYYY-MM-DD'. */
  dates: Record<string, string>;
  /** The agency account's data attributes as filed (account numbers, rates), for pages and the operator. */
  accountData: { name: string; value: string }[];
}

export interface AutomationView {
  id: string;
  taskId: string;
  legalEntityId: string;
  platformId: string;
  requirementId: string;
  region: string;
  agencyId: string;
  /** From the catalog: a machine (`connector`) or always a person (`operator`). */
  fulfilment: 'connector' | 'operator';
  /** Who is doing it now: a connector's name (e.g. 'sandbox') or 'operator' (the operator queue). */
  performer: string;
  status: AutomationStatus;
  /** Why it is in this status (a rejection's reason, a cancellation's reason), if any. */
  statusReason: string | null;
  /** The question an operator sent back to the owner (status `waiting_on_customer_response`). */
  customerMessage: string | null;
  /** The owner's last free-text answer to that question (`answer`'s `response`), if any. */
  customerResponse?: string | null;
  steps: AutomationStepView[];
  logs: AutomationLogEntry[];
  /** The collected input; sensitive fields (catalog type `ssn-last4`, bank details) masked, e.g. '••••'. */
  input: Record<string, unknown>;
  outputs: AutomationOutputs | null;
  /** The operator it is assigned to (operator queue), if any. */
  assignedTo: { keyId: string; name: string } | null;
  /** A step failed and will be retried (or waits on a person): the last error, for pages and operators. */
  lastError: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** An operator's record of what the agency did (back office "record the outcome"). */
export interface AutomationOutcome {
  /** Values of the catalog's `outputs.agency_account.data`, by name. */
  accountData?: { name: string; value: string }[];
  login?: {
    username: string;
    password: string;
    loginUrl?: string;
    securityAnswers?: { question: string; answer: string }[];
    totpSeed?: string;
  };
  /** The confirmation PDF (required unless the catalog declares no document). */
  document?: { fileName: string; bytes: Buffer };
  dates?: Record<string, string>;
}

export interface AutomationQueueFilter {
  region?: string;
  agencyId?: string;
  status?: AutomationStatus;
  platformId?: string;
  /** An operator key id, or 'unassigned'. */
  assignedTo?: string;
  limit: number;
  /** Opaque cursor from the previous page. */
  cursor?: string;
}

export interface AutomationQueueItem extends AutomationView {
  entityName: string;
  platformName: string;
  taskTitle: string;
}

/** Who changed a task's status by hand: the platform (API) or the business owner (hosted task list). */
export type ManualActor = 'platform' | 'owner';

export interface AutomationsService {
  /**
   * Starts the task's automation in ONE transaction: checks (409 done/dismissed, no automation, already
   * running), validates the input against the catalog's fields (InvalidInputError per field), seals sensitive
   * fields, inserts it with its `started` log line, moves the task to in-progress and enqueues the first step.
   */
  start(scope: AccessScope, taskId: string, input: Record<string, unknown>): Promise<AutomationView>;
  /** The task's current (latest) automation, if any. */
  forTask(scope: AccessScope, taskId: string): Promise<AutomationView | undefined>;
  /** The latest automation of each of these tasks (task lists), by task id. */
  forTasks(legalEntityId: string, taskIds: readonly string[]): Promise<Map<string, AutomationView>>;
  /** The owner answered an operator's question (`waiting_on_customer_response` → `started`, back to its performer). */
  answer(scope: AccessScope, taskId: string, input: Record<string, unknown>): Promise<AutomationView>;
  /**
   * The task was marked done or dismissed by hand: its live automation (if any) is canceled in the caller's
   * transaction (which holds the entity's planning lock), with that reason and actor in its status log.
   */
  cancelForManualStatus(trx: Db, scope: AccessScope, taskId: string, status: 'done' | 'dismissed', actor: ManualActor): Promise<void>;

  // The operator side (back office and operator API). Each action is audited in its own transaction.
  queue(filter: AutomationQueueFilter): Promise<{ items: AutomationQueueItem[]; nextCursor: string | null }>;
  get(automationId: string): Promise<AutomationQueueItem>;
  /** The unmasked input; records `automation.reveal_input` in the audit trail. */
  revealInput(automationId: string, operator: OperatorPrincipal): Promise<Record<string, unknown>>;
  claim(automationId: string, operator: OperatorPrincipal, assignee?: { keyId: string; name: string } | null): Promise<AutomationView>;
  complete(automationId: string, operator: OperatorPrincipal, outcome: AutomationOutcome): Promise<AutomationView>;
  requestCustomerResponse(automationId: string, operator: OperatorPrincipal, message: string): Promise<AutomationView>;
  cancel(automationId: string, operator: OperatorPrincipal, reason: string): Promise<AutomationView>;
}

/** The audit dependency the service records operator actions with (src/modules/operators/audit.service.ts). */
export interface AutomationsAudit {
  record(trx: Db, event: AuditEvent): Promise<void>;
}

/** The owner's free-text answer to an operator's question (`answer`'s input field). */
export const ANSWER_FIELD = 'response';

/** A 409 of the automations capability, in the documented `{message, detail}` envelope. */
export class AutomationConflictError extends ConflictError {
  override readonly style = 'platform';
}

/** What a masked sensitive value shows in every view. */
export const MASK = '••••';

/** Bank details by name: routing, account or IBAN numbers (the catalog has no type for them). */
const SENSITIVE_NAME = /(^|_)(bank|routing|iban|account_number|account_no|ssn)(_|$)/;

/** Sensitive fields are sealed in the vault, never logged and masked in every view. */
export const isSensitive = (field: Pick<AutomationField, 'name' | 'type'>) => field.type === 'ssn-last4' || SENSITIVE_NAME.test(field.name);
