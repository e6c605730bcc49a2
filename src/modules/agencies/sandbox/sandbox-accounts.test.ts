import { describe, expect, it } from 'vitest';
import {
  AUTH_REJECTED_REASON,
  createSandboxAccountConnector,
  REGISTER_REJECTED_REASON,
  sandboxHistory,
  sandboxIdNumber,
  sandboxTaxRate,
} from './sandbox-accounts.js';

const account = { id: 'acct_sandbox1', legalEntityId: 'le_1', regionCode: 'CA', agencyId: 'ca-edd', name: 'EDD', data: [] };

describe("the sandbox's account connector", () => {
  const connector = createSandboxAccountConnector();

  it('fails authentication for a password containing fail-auth, registration for fail-register', async () => {
    expect(await connector.authenticate({ username: 'u', password: 'secret' }, account)).toEqual({ ok: true });
    expect(await connector.authenticate({ username: 'u', password: 'my-fail-auth-pw' }, account)).toEqual({
      ok: false,
      reason: AUTH_REJECTED_REASON,
    });
    expect(await connector.register({ username: 'u', password: 'secret' }, account)).toEqual({ ok: true });
    expect(await connector.register({ username: 'u', password: 'x-fail-register' }, account)).toEqual({
      ok: false,
      reason: REGISTER_REJECTED_REASON,
    });
  });

  it('derives the same details from the same account id and date', async () => {
    const now = new Date('2026-05-10T12:00:00Z');
    const a = await connector.sync(account, now);
    expect(a).toEqual(await connector.sync(account, now));
    expect(a.details).toMatchObject({
      status: 'active',
      has_tpa: false,
      reporting_schedule: 'quarterly',
      balance: 0,
      synced_at: now.toISOString(),
    });
    expect(a.details.id_number).toMatch(/^\d{4}-\d{4}$/);
    expect(a.details.id_number).toBe(sandboxIdNumber(account.id));
    expect(sandboxIdNumber('acct_other')).not.toBe(a.details.id_number);
    expect(a.details.tax_rate_percent).toBe(sandboxTaxRate(account.id));
    expect(a.details.tax_rate_percent).toBeGreaterThanOrEqual(1);
    expect(a.details.tax_rate_percent).toBeLessThanOrEqual(5.99);
    expect(a.attributes).toEqual([{ name: 'Account number', description: expect.any(String), value: a.details.id_number }]);
  });

  it('history: the last four quarters already filed (due the last day of the following month), oldest first', () => {
    // On 10 May 2026, Q1 2026 is due 30 April (filed); Q2 is still running.
    const may = sandboxHistory(account.id, new Date('2026-05-10T00:00:00Z'));
    expect(may.map((h) => [h.period_start_date, h.period_end_date, h.filing_date])).toEqual([
      ['2025-04-01', '2025-06-30', '2025-07-31'],
      ['2025-07-01', '2025-09-30', '2025-10-31'],
      ['2025-10-01', '2025-12-31', '2026-01-31'],
      ['2026-01-01', '2026-03-31', '2026-04-30'],
    ]);
    // On 15 April 2026, Q1 2026 is not filed yet.
    expect(sandboxHistory(account.id, new Date('2026-04-15T00:00:00Z')).at(-1)!.period_start_date).toBe('2025-10-01');
    for (const item of may) {
      expect(item.amount_due).toBeGreaterThanOrEqual(10_000);
      expect(item.amount_due).toBeLessThanOrEqual(500_000);
      expect(item.payment_amount).toBe(item.amount_due);
      expect(item.amount_applied).toBe(item.amount_due);
      expect(item.payment_date).toBe(item.filing_date);
      expect(item.raw_data).toEqual({ source: 'sandbox', quarter: expect.stringMatching(/^\d{4}-Q[1-4]$/) });
    }
    expect(new Set(may.map((h) => h.amount_due)).size).toBeGreaterThan(1);
  });
});
