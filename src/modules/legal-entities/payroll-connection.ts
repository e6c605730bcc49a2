// The payroll connection as legal-entities keeps it for the payroll module (re-exported by contract.ts; implemented
// by legal-entities.repository.ts `payrollConnectionStore`, given to payroll by app.ts).
import type { Db } from '../../db/database.js';

/** The payroll connection as stored on the entity: when it was connected (null: not connected) and last reported. */
export interface PayrollConnectionColumns {
  payroll_connected_at: Date | null;
  last_payroll_update: Date | null;
}

/**
 * Payroll's connection columns of legal_entities, read and written for the payroll module (legal-entities.repository.ts
 * `payrollConnectionStore`, given by app.ts). `db` is the caller's transaction, or the database for a plain read.
 */
export interface PayrollConnectionStore {
  connection(db: Db, legalEntityId: string): Promise<PayrollConnectionColumns>;
  /** The connection, row-locked: a disconnect waits for a sync in progress, and the reverse. */
  connectionForUpdate(db: Db, legalEntityId: string): Promise<PayrollConnectionColumns>;
  /** The first connection counts; connecting again changes nothing (false). */
  markConnected(db: Db, legalEntityId: string, at: Date): Promise<boolean>;
  /** Employee settings return to the API; the time of the last sync stays as history. False: it was not connected. */
  markDisconnected(db: Db, legalEntityId: string, at: Date): Promise<boolean>;
  /** A report was accepted at `at`. */
  recordSync(db: Db, legalEntityId: string, at: Date): Promise<void>;
}
