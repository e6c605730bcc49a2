import { createHash } from 'node:crypto';
import type { AgencyAccountHistoryItem } from '../../../db/schema.js';
import type { AccountConnector, ConnectorAccount } from '../contract.js';

/** A password containing this fails authentication. */
export const FAIL_AUTH_MARKER = 'fail-auth';
/** A password containing this signs in but fails registration. */
export const FAIL_REGISTER_MARKER = 'fail-register';

export const AUTH_REJECTED_REASON = 'The agency rejected the username or password';
export const REGISTER_REJECTED_REASON = 'The agency did not allow access to be set up for this account';
export const ACCOUNT_NUMBER_ATTRIBUTE = 'Account number';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
/** The last day of month `month` (0-based, may overflow into the next year) of `year`, UTC. */
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0));

/** The account number the sandbox agency gives an account: 8 digits from the hash of its id, `NNNN-NNNN`. */
export function sandboxIdNumber(accountId: string): string {
  const digits = String(parseInt(sha256(accountId).slice(0, 12), 16) % 100_000_000).padStart(8, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4)}`;
}

/** 1.00–5.99 percent, from the hash of the account id. */
export function sandboxTaxRate(accountId: string): number {
  return (100 + (parseInt(sha256(accountId).slice(12, 16), 16) % 500)) / 100;
}

/**
 * The last four calendar quarters already filed at `now`: a quarter is filed (and paid) on the last day
 * of the month after it ends, and counts when that day is before `now`'s date (UTC). Oldest first.
 * Each amount is 10,000–500,000 cents, from the hash of the account id and the quarter's start date;
 * everything due was paid (payment_amount = amount_applied = amount_due).
 */
export function sandboxHistory(accountId: string, now: Date): AgencyAccountHistoryItem[] {
  const today = isoDate(now);
  const items: AgencyAccountHistoryItem[] = [];
  let year = now.getUTCFullYear();
  let quarter = Math.floor(now.getUTCMonth() / 3); // 0-based, the current (incomplete) quarter
  while (items.length < 4) {
    const firstMonth = quarter * 3;
    const start = new Date(Date.UTC(year, firstMonth, 1));
    const end = lastDayOf(year, firstMonth + 2);
    const filed = lastDayOf(year, firstMonth + 3);
    if (isoDate(filed) < today) {
      const periodStart = isoDate(start);
      const amount = 10_000 + (parseInt(sha256(`${accountId}:${periodStart}`).slice(0, 8), 16) % 490_001);
      items.unshift({
        period_start_date: periodStart,
        period_end_date: isoDate(end),
        payment_date: isoDate(filed),
        filing_date: isoDate(filed),
        payment_amount: amount,
        amount_due: amount,
        amount_applied: amount,
        raw_data: { source: 'sandbox', quarter: `${year}-Q${quarter + 1}` },
      });
    }
    quarter -= 1;
    if (quarter < 0) {
      quarter = 3;
      year -= 1;
    }
  }
  return items;
}

/**
 * The sandbox's account connector: no network, fully deterministic (see docs/connections.md). A password containing
 * `fail-auth` fails authentication, one containing `fail-register` fails registration; anything else
 * connects, and the account's details are derived from a hash of its id and the sync date.
 */
export function createSandboxAccountConnector(): AccountConnector {
  return {
    name: 'sandbox',
    async authenticate(credentials) {
      return credentials.password.includes(FAIL_AUTH_MARKER) ? { ok: false, reason: AUTH_REJECTED_REASON } : { ok: true };
    },
    async register(credentials) {
      return credentials.password.includes(FAIL_REGISTER_MARKER) ? { ok: false, reason: REGISTER_REJECTED_REASON } : { ok: true };
    },
    async sync(account: ConnectorAccount, now: Date) {
      const idNumber = sandboxIdNumber(account.id);
      return {
        details: {
          status: 'active',
          id_number: idNumber,
          has_tpa: false,
          tax_rate_percent: sandboxTaxRate(account.id),
          reporting_schedule: 'quarterly',
          balance: 0,
          history: sandboxHistory(account.id, now),
          synced_at: now.toISOString(),
        },
        attributes: [{ name: ACCOUNT_NUMBER_ATTRIBUTE, description: 'The employer account number at the agency', value: idNumber }],
      };
    },
  };
}
