import type { Db } from '../../db/database.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { createAuditRepository } from './audit.repository.js';
import type { AuditEvent, AuditEventView, AuditFilter, AuditService, ConsoleAuditEvent, ConsoleAuditEventView } from './contract.js';

/**
 * The operator audit trail: every operator action is recorded in the same transaction as the action itself
 * (`record(trx, …)`), so an action without its audit line cannot commit. Read by the operator API and the CLI.
 */
export function createAuditService(deps: { db: Db }): AuditService {
  /** Records one event inside the caller's transaction (or on `db` for a single-statement action). */
  async function record(trx: Db, event: AuditEvent): Promise<void> {
    await createAuditRepository(trx).insert({
      id: newId('aud'),
      operator_key_id: event.operator.keyId,
      operator_name: event.operator.name,
      action: event.action,
      subject_type: event.subjectType,
      subject_id: event.subjectId,
      legal_entity_id: event.legalEntityId,
      details: event.details ?? {},
    });
  }

  return {
    record,

    /**
     * For an action that committed on its own (one statement of a service without a transaction to share):
     * recorded right after it, in the same request.
     */
    recordCommitted: (event: AuditEvent): Promise<void> => record(deps.db, event),

    /** Newest first. `before` is the id of the last event of the previous page. */
    async list(filter: AuditFilter): Promise<AuditEventView[]> {
      const repo = createAuditRepository(deps.db);
      if (filter.before && !(await repo.find(filter.before))) {
        throw new NotFoundError(`Audit event '${filter.before}' not found`);
      }
      const rows = await repo.list(filter);
      return rows.map((row) => ({
        id: row.id,
        operator: { key_id: row.operator_key_id, name: row.operator_name },
        action: row.action,
        subject: { type: row.subject_type, id: row.subject_id },
        legal_entity_id: row.legal_entity_id,
        details: row.details,
        created_at: row.created_at.toISOString(),
      }));
    },

    async recordConsole(trx: Db | null, event: ConsoleAuditEvent): Promise<void> {
      await createAuditRepository(trx ?? deps.db).insertConsole({
        id: newId('cau'),
        platform_id: event.actor.platformId,
        user_id: event.actor.userId,
        user_email: event.actor.email,
        action: event.action,
        subject_type: event.subjectType,
        subject_id: event.subjectId,
        details: event.details ?? {},
      });
    },

    async listConsole(platformId: string, limit: number): Promise<ConsoleAuditEventView[]> {
      const rows = await createAuditRepository(deps.db).listConsole(platformId, limit);
      return rows.map((row) => ({
        id: row.id,
        user: { id: row.user_id, email: row.user_email },
        action: row.action,
        subject: { type: row.subject_type, id: row.subject_id },
        details: row.details,
        created_at: row.created_at.toISOString(),
      }));
    },
  };
}
