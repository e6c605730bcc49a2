import type { Catalog } from '../../catalog/catalog.js';
import type { Db } from '../../db/database.js';
import type { AutomationRow } from '../../db/schema.js';
import { InvalidInputError, NotFoundError } from '../../lib/errors.js';
import type { OperatorPrincipal } from '../operators/contract.js';
import type { Replanner } from '../planning/contract.js';
import { checkOutcome } from './automation-outcome.js';
import type { AutomationWriter } from './automation-writer.js';
import { createAutomationsRepository, queueDue, type QueueCursor } from './automations.repository.js';
import { AutomationConflictError, MAX_TEXT, type OwnerAutomations } from './automations.service.js';
import type { AutomationOutcome, AutomationQueueFilter, AutomationQueueItem, AutomationsAudit, AutomationView } from './contract.js';

const FINAL = ['complete', 'canceled'];

const encodeCursor = (c: QueueCursor) => Buffer.from(JSON.stringify([c.due, c.id])).toString('base64url');
function decodeCursor(cursor: string): QueueCursor {
  try {
    const [due, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof due === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(due) && typeof id === 'string') return { due, id };
  } catch {
    // falls through to the refusal
  }
  throw new InvalidInputError(['cursor'], 'Not a cursor of this queue: pass next_cursor from the previous page', cursor);
}

function reasonText(value: string, field: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (!trimmed || trimmed.length > MAX_TEXT) throw new InvalidInputError([field], `Write it as text of 1 to ${MAX_TEXT} characters`, value);
  return trimmed;
}

/**
 * The operator side of the contract: the queue, an automation's detail, and the actions; each action locks
 * the row, refuses a final or wrong state (409), and records itself in the audit trail in its transaction.
 */
export function createOperatorAutomations(deps: {
  db: Db;
  catalog: Pick<Catalog, 'requirement'>;
  planning: Replanner;
  writer: AutomationWriter;
  audit: AutomationsAudit;
  owner: Pick<OwnerAutomations, 'viewsOf' | 'viewOf'>;
}) {
  const { db } = deps;
  const titleOf = (row: AutomationRow) => deps.catalog.requirement(row.requirement_id)?.definition.title ?? row.requirement_id;

  async function items(rows: (AutomationRow & { entity_name: string; platform_name: string })[]): Promise<AutomationQueueItem[]> {
    const views = await deps.owner.viewsOf(rows);
    return views.map((v, i) => ({
      ...v,
      entityName: rows[i]!.entity_name,
      platformName: rows[i]!.platform_name,
      taskTitle: titleOf(rows[i]!),
    }));
  }

  /** Runs an operator action on a live automation: planning lock, row lock, state check, the action, its audit line. */
  async function act(
    automationId: string,
    operator: OperatorPrincipal,
    action: string,
    details: Record<string, unknown>,
    change: (trx: Db, row: AutomationRow) => Promise<AutomationRow>,
    check: (row: AutomationRow) => string | null = () => null,
    /** The action moves the task (done, back to to-do): the entity's tasks are re-planned in its transaction. */
    replan = false,
  ): Promise<AutomationView> {
    const found = await createAutomationsRepository(db).findById(automationId);
    if (!found) throw new NotFoundError(`Automation '${automationId}' not found`);
    const { value: row } = await deps.planning.change([found.legal_entity_id], async (trx) => {
      const locked = (await createAutomationsRepository(trx).lockById(automationId))!;
      if (FINAL.includes(locked.status))
        throw new AutomationConflictError(`Automation '${automationId}' is ${locked.status}: nothing more can be done`);
      const refused = check(locked);
      if (refused) throw new AutomationConflictError(refused);
      const changed = await change(trx, locked);
      await deps.audit.record(trx, {
        operator,
        action,
        subjectType: 'automation',
        subjectId: automationId,
        legalEntityId: locked.legal_entity_id,
        details,
      });
      return { value: changed, replan };
    });
    return deps.owner.viewOf(row);
  }
  const byConnector = (row: AutomationRow) =>
    row.performer !== 'operator'
      ? `Automation '${row.id}' is being filed by the ${row.performer} connector, not waiting on a person`
      : null;

  return {
    async queue(filter: AutomationQueueFilter) {
      const rows = await createAutomationsRepository(db).queue(filter, filter.cursor ? decodeCursor(filter.cursor) : null);
      const page = rows.slice(0, filter.limit);
      const last = page.at(-1);
      return {
        items: await items(page),
        nextCursor: rows.length > filter.limit && last ? encodeCursor({ due: queueDue(last.due_date), id: last.id }) : null,
      };
    },

    async get(automationId: string): Promise<AutomationQueueItem> {
      const row = await createAutomationsRepository(db).findWithNames(automationId);
      if (!row) throw new NotFoundError(`Automation '${automationId}' not found`);
      return (await items([row]))[0]!;
    },

    /** The input with its sensitive values, recorded in the audit trail (which fields, never their values). */
    async revealInput(automationId: string, operator: OperatorPrincipal): Promise<Record<string, unknown>> {
      return db.transaction().execute(async (trx) => {
        const row = await createAutomationsRepository(trx).findById(automationId);
        if (!row) throw new NotFoundError(`Automation '${automationId}' not found`);
        const input = deps.writer.openInput(row);
        await deps.audit.record(trx, {
          operator,
          action: 'automation.reveal_input',
          subjectType: 'automation',
          subjectId: automationId,
          legalEntityId: row.legal_entity_id,
          details: { fields: Object.keys(input).filter((k) => input[k] !== row.input[k]) },
        });
        return input;
      });
    },

    /** Assigns it to the operator (or `assignee`; null unassigns). */
    async claim(automationId: string, operator: OperatorPrincipal, assignee?: { keyId: string; name: string } | null) {
      const to = assignee === undefined ? { keyId: operator.keyId, name: operator.name } : assignee;
      return act(
        automationId,
        operator,
        'automation.claim',
        { assignee: to && { key_id: to.keyId, name: to.name } },
        (trx, row) =>
          createAutomationsRepository(trx).update(row.id, {
            assigned_operator_key_id: to?.keyId ?? null,
            assigned_operator_name: to?.name ?? null,
          }),
        byConnector,
      );
    },

    /** Records what the agency did, through the same writer as a connector's completion. */
    async complete(automationId: string, operator: OperatorPrincipal, outcome: AutomationOutcome) {
      const found = await createAutomationsRepository(db).findById(automationId);
      const automation = found && deps.catalog.requirement(found.requirement_id)?.definition.resolutions.automation;
      if (!found || !automation) throw new NotFoundError(`Automation '${automationId}' not found`);
      const checked = checkOutcome(automation, outcome);
      return act(
        automationId,
        operator,
        'automation.complete',
        {
          account_data: (checked.accountData ?? []).map((d) => d.name),
          login: Boolean(checked.login),
          document: checked.document?.fileName ?? null,
        },
        (trx, row) => deps.writer.complete(trx, row, checked, operator.name),
        byConnector,
        true,
      );
    },

    /** Sends it back to the business owner with a question (the hosted task page shows it and takes the answer). */
    async requestCustomerResponse(automationId: string, operator: OperatorPrincipal, message: string) {
      const question = reasonText(message, 'message');
      return act(
        automationId,
        operator,
        'automation.request_response',
        {},
        (trx, row) =>
          deps.writer.move(trx, row, {
            status: 'waiting_on_customer_response',
            reason: 'Our team needs more information',
            actor: operator.name,
            set: { customer_message: question },
          }),
        (row) =>
          byConnector(row) ??
          (row.status === 'waiting_on_customer_response' ? `Automation '${row.id}' is already waiting on the owner's answer` : null),
      );
    },

    /** Gives up, with the reason the owner sees; the task goes back to to-do. */
    async cancel(automationId: string, operator: OperatorPrincipal, reason: string) {
      const why = reasonText(reason, 'reason');
      return act(
        automationId,
        operator,
        'automation.cancel',
        { reason: why },
        (trx, row) => deps.writer.cancel(trx, row, why, operator.name),
        undefined,
        true,
      );
    },
  };
}
