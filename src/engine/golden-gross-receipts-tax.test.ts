import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { coverageMatrix } from '../catalog/coverage.js';
import { planTasks } from './engine.js';
import type { EngineInput, TaskState } from './engine.types.js';

/**
 * Issue 24, state gross receipts taxes planned from the real catalog: Oregon's Corporate Activity Tax (register above
 * $750,000, return above $1 million, 15th day of the 4th month after the tax year), Ohio's Commercial Activity Tax
 * (above the $6 million exclusion) and Nevada's Commerce Tax (above $4 million, August 14), each on both sides of its
 * threshold, read from the business's sales into the state (annual-sales). `~` marks an estimated date.
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const answer = (definitionId: string, regionCode: string, value: unknown): TaskState => ({
  kind: 'question',
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-20',
  answer: value,
});
const lines = (input: EngineInput) =>
  planTasks(catalog, input)
    .map(
      (t) =>
        `${t.regionCode} ${t.kind === 'question' ? '?' : ''}${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`,
    )
    .sort();
const GROSS_RECEIPTS = /or-cat-|oh-commercial-activity-tax|nv-commerce-tax|annual-sales/;

/** An LLC incorporated in `code` with an office there, its sales into the state answered when given. */
const business = (code: string, sales?: number, accountingYearEnd = 12): EngineInput => ({
  today,
  tasks: sales === undefined ? [] : [answer('annual-sales', code, sales)],
  entity: {
    entityType: 'llc',
    taxClassification: 'partnership',
    incorporationRegion: code,
    incorporationDate: '2020-03-10',
    accountingYearEnd,
    onboardedOn: '2026-11-01',
  },
  locations: [{ regionCode: code, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }],
});
const grossReceipts = (input: EngineInput) => lines(input).filter((l) => GROSS_RECEIPTS.test(l) && !l.includes('?annual-sales'));

describe("Oregon's Corporate Activity Tax", () => {
  it('asks the business its Oregon sales before deciding', () => {
    expect(lines(business('OR')).filter((l) => GROSS_RECEIPTS.test(l))).toEqual(['OR ?annual-sales -']);
  });

  it('is nothing at $750,000, registration above it, and the return too above $1 million', () => {
    expect(grossReceipts(business('OR', 750_000))).toEqual([]);
    expect(grossReceipts(business('OR', 750_001))).toEqual(['OR or-cat-registration -']);
    expect(grossReceipts(business('OR', 1_000_000))).toEqual(['OR or-cat-registration -']);
    // Calendar tax year 2026: the return is due the 15th day of the 4th month after it ends, 2027-04-15.
    expect(grossReceipts(business('OR', 1_000_001))).toEqual(['OR or-cat-registration -', 'OR or-cat-return 2027-04-15']);
  });

  it('follows the federal tax year: a June year end files by October 15', () => {
    // The year ended 2026-06-30 was due 2026-10-15, before today; the next, ending 2027-06-30, is due 2027-10-15.
    expect(grossReceipts(business('OR', 2_000_000, 6))).toEqual(['OR or-cat-registration -', 'OR or-cat-return 2027-10-15']);
  });
});

describe("Ohio's Commercial Activity Tax", () => {
  it('is planned only above the $6 million annual exclusion (2025 and later)', () => {
    expect(grossReceipts(business('OH', 6_000_000))).toEqual([]);
    expect(grossReceipts(business('OH', 6_000_001))).toEqual(['OH oh-commercial-activity-tax -']);
  });
});

describe("Nevada's Commerce Tax", () => {
  it('is due August 14 above $4 million of Nevada gross revenue, and nothing at $4 million', () => {
    expect(grossReceipts(business('NV', 4_000_000))).toEqual([]);
    expect(grossReceipts(business('NV', 4_500_000))).toEqual(['NV nv-commerce-tax-return 2027-08-14']);
  });
});

describe('the gross-receipts-tax cells of the coverage matrix', () => {
  it('has requirements in Oregon and Nevada, points to the existing filings elsewhere, and none in the other states', () => {
    const row = coverageMatrix(catalog).find((r) => r.family === 'gross-receipts-tax')!;
    const status = (code: string) => row.cells[code]!.status;
    expect(['OR', 'NV'].map(status)).toEqual(['present', 'present']);
    expect(['OH', 'WA', 'DE', 'TN', 'TX', 'NM'].map(status)).toEqual(Array(6).fill('covered'));
    expect(row.cells.TX).toMatchObject({ requirements: ['tx-franchise-tax-report'] });
    expect(row.cells.OH).toMatchObject({ requirements: ['oh-commercial-activity-tax'] });
    expect(Object.values(row.cells).filter((c) => c.status === 'not-applicable')).toHaveLength(43);
  });

  it('adds nothing for a Texas business: its franchise tax report is the filing', () => {
    expect(grossReceipts(business('TX', 50_000_000))).toEqual([]);
    expect(lines(business('TX', 50_000_000))).toContain('TX tx-franchise-tax-report 2027-05-15');
  });
});
