import type { Db } from '../../db/database.js';
import type { JobDefinition } from '../../jobs/queue.js';
import { createAuditService } from './audit.service.js';

export interface AuditModuleDeps {
  db: Db;
}

/**
 * The operator audit trail (`operator_audit_events`), below every module whose operator actions it records:
 * created before them, so each is given it once, at creation.
 */
export function createAuditModule(deps: AuditModuleDeps) {
  return { audit: createAuditService(deps), jobs: [] as JobDefinition[] };
}

export type AuditModule = ReturnType<typeof createAuditModule>;
