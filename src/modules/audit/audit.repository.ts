import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { OperatorAuditEventsTable } from '../../db/schema.js';
import type { ConsoleAuditEventsTable } from '../../db/schema/console.js';
import type { AuditFilter } from './contract.js';

/** A row to insert: the table's columns (created_at by the database), details as an object. */
export type NewAuditEvent = Omit<Insertable<OperatorAuditEventsTable>, 'created_at' | 'details'> & { details: Record<string, unknown> };

export type NewConsoleAuditEvent = Omit<Insertable<ConsoleAuditEventsTable>, 'created_at' | 'details'> & {
  details: Record<string, unknown>;
};

/** Every query of the operator audit trail (an installation-wide table: operators see every tenant). */
export function createAuditRepository(db: Db) {
  return {
    insert: (row: NewAuditEvent) =>
      db
        .insertInto('operator_audit_events')
        .values({ ...row, details: JSON.stringify(row.details) })
        .execute(),

    find: (id: string) => db.selectFrom('operator_audit_events').selectAll().where('id', '=', id).executeTakeFirst(),

    list(filter: AuditFilter) {
      let query = db.selectFrom('operator_audit_events').selectAll();
      if (filter.legalEntityId) query = query.where('legal_entity_id', '=', filter.legalEntityId);
      if (filter.subjectType) query = query.where('subject_type', '=', filter.subjectType);
      if (filter.subjectId) query = query.where('subject_id', '=', filter.subjectId);
      if (filter.operatorKeyId) query = query.where('operator_key_id', '=', filter.operatorKeyId);
      if (filter.action) query = query.where('action', '=', filter.action);
      // Compared with the cursor's row in the database: its created_at has microseconds, which a JS Date would drop
      // (and the rows in that lost microsecond range would be skipped).
      if (filter.before) {
        query = query.where(
          sql<boolean>`(created_at, id) < (select c.created_at, c.id from operator_audit_events c where c.id = ${filter.before})`,
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    },

    insertConsole: (row: NewConsoleAuditEvent) =>
      db
        .insertInto('console_audit_events')
        .values({ ...row, details: JSON.stringify(row.details) })
        .execute(),

    /** One platform's console trail, newest first. */
    listConsole: (platformId: string, limit: number) =>
      db
        .selectFrom('console_audit_events')
        .selectAll()
        .where('platform_id', '=', platformId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
