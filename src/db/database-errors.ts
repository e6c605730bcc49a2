/**
 * Counts database errors per connection pool, by class, for /metrics. The classes are a small fixed set
 * (bounded label values): PostgreSQL's SQLSTATE class for errors the server reported, `connection` for
 * errors reaching it, `other` for the rest.
 */
import { isDatabaseUnavailable } from './unavailable.js';

/** SQLSTATE classes (first two characters of the code) worth telling apart; others count as `sqlstate_other`. */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection',
  '22': 'data_exception',
  '23': 'integrity_constraint_violation',
  '25': 'invalid_transaction_state',
  '28': 'invalid_authorization',
  '40': 'transaction_rollback',
  '42': 'syntax_or_access_rule',
  '53': 'insufficient_resources',
  '54': 'program_limit_exceeded',
  '55': 'object_not_in_prerequisite_state',
  '57': 'operator_intervention',
  '58': 'system_error',
  XX: 'internal_error',
};

export type DatabaseErrorClass = string;

export function classifyDatabaseError(error: unknown): DatabaseErrorClass {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return SQLSTATE_CLASSES[code.slice(0, 2)] ?? 'sqlstate_other';
  // Network codes and pg's own words when a socket closes or a checkout times out: one definition (unavailable.ts).
  return isDatabaseUnavailable(error) ? 'connection' : 'other';
}

const countsByOwner = new WeakMap<object, Map<DatabaseErrorClass, number>>();

/** Records one error against its owner (a Db); cheap, never throws. */
export function countDatabaseError(owner: object, error: unknown): void {
  let counts = countsByOwner.get(owner);
  if (!counts) countsByOwner.set(owner, (counts = new Map()));
  const kind = classifyDatabaseError(error);
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}

/** Errors so far per class (monotonic: counts only grow). */
export function databaseErrorCounts(owner: object): ReadonlyMap<DatabaseErrorClass, number> {
  return countsByOwner.get(owner) ?? new Map();
}
