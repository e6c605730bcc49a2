/**
 * The audit module's contract: the operator audit trail. Every operator action (operators' API and back office,
 * automations, mail, webhooks) is recorded in the action's own transaction; the operator API and the CLI read it.
 */
import type { Db } from '../../db/database.js';
import type { OperatorPrincipal } from '../operators/contract.js';

/** What an operator did, as a capability records it. `details` never holds a secret (say which field was revealed, not its value). */
export interface AuditEvent {
  operator: OperatorPrincipal;
  /** `<subject>.<verb>`, e.g. `automation.claim`, `login.reveal`, `agency_account.create`. */
  action: string;
  subjectType: string;
  subjectId: string;
  legalEntityId: string | null;
  details?: Record<string, unknown>;
}

export interface AuditEventView {
  id: string;
  operator: { key_id: string; name: string };
  action: string;
  subject: { type: string; id: string };
  legal_entity_id: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

export interface AuditFilter {
  legalEntityId?: string;
  subjectType?: string;
  subjectId?: string;
  operatorKeyId?: string;
  action?: string;
  /** Newest first; pass the last id of a page to get the next one. */
  before?: string;
  limit: number;
}

/** Who acted in a platform's console: one of the platform's own console users (never an operator). */
export interface ConsoleActor {
  platformId: string;
  userId: string;
  email: string;
}

/** What a console user did, in their platform. `details` never holds a secret (an API key's id, never the key). */
export interface ConsoleAuditEvent {
  actor: ConsoleActor;
  /** `<subject>.<verb>`, e.g. `api_key.create`, `webhook_endpoint.delete`, `console_user.invite`. */
  action: string;
  subjectType: string;
  subjectId: string;
  details?: Record<string, unknown>;
}

export interface ConsoleAuditEventView {
  id: string;
  user: { id: string; email: string };
  action: string;
  subject: { type: string; id: string };
  details: Record<string, unknown>;
  created_at: string;
}

/**
 * The operator audit trail: every operator action is recorded in the same transaction as the action itself
 * (`record(trx, …)`), so an action without its audit line cannot commit. Implemented by audit.service.ts.
 * Console users' actions have a trail of their own, per platform (`recordConsole`, `listConsole`).
 */
export interface AuditService {
  /** Records one event inside the caller's transaction (or on `db` for a single-statement action). */
  record(trx: Db, event: AuditEvent): Promise<void>;
  /** For an action that committed on its own: recorded right after it, in the same request. */
  recordCommitted(event: AuditEvent): Promise<void>;
  /** Newest first. `before` is the id of the last event of the previous page. */
  list(filter: AuditFilter): Promise<AuditEventView[]>;
  /** A console user's action, inside the action's transaction (or on `db` right after an action that committed on its own). */
  recordConsole(trx: Db | null, event: ConsoleAuditEvent): Promise<void>;
  /** One platform's console trail, newest first (at most `limit`). */
  listConsole(platformId: string, limit: number): Promise<ConsoleAuditEventView[]>;
}
