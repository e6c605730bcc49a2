import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog/catalog.js';
import { coverageMatrix } from '../catalog/coverage.js';
import { planTasks } from './engine.js';
import type { EngineInput } from './engine.types.js';

/**
 * Issue 24, state business tax returns, checked in every state rather than in chosen examples: for each entity type
 * and tax classification a business with an office in the state gets the returns the state's cell holds — one
 * corporate return for a corporation, none twice, no return chosen by tax classification for a disregarded LLC unless
 * it says so, nothing without activity in a foreign state — and a fiscal year ending in June moves a fiscal-year
 * due date six months from December's. The examples with hand-computed dates are in golden-income-tax-return-*.test.ts.
 */
const catalog = loadCatalog();
const today = '2026-11-22';
const row = coverageMatrix(catalog).find((r) => r.family === 'income-tax-return')!;
/** The requirements that are a state's business tax return: the family's, or the region-file ones its cell names. */
const returnsOf = new Map(
  Object.entries(row.cells)
    .filter(([code]) => code !== 'US')
    .map(([code, cell]) => [code, new Set([...cell.requirements, ...(cell.alsoCoveredBy ?? [])])]),
);
const withReturns = [...returnsOf].filter(([, ids]) => ids.size > 0).map(([code]) => code);

type Entity = EngineInput['entity'];
const plan = (code: string, over: Partial<Entity>, office = true, incorporatedHere = false) =>
  planTasks(catalog, {
    today,
    // Sales of $1 million into the state: above every filing threshold a return counts in sales (Michigan's $350,000).
    tasks: [
      { kind: 'question', definitionId: 'annual-sales', regionCode: code, status: 'done', completedOn: '2026-11-20', answer: 1_000_000 },
    ],
    entity: {
      entityType: 'c_corp',
      taxClassification: 'corp',
      incorporationRegion: incorporatedHere ? code : code === 'DE' ? 'NV' : 'DE',
      incorporationDate: '2020-03-10',
      accountingYearEnd: 12,
      onboardedOn: '2026-11-01',
      ...over,
    },
    locations: office ? [{ regionCode: code, hasEmployees: false, hasPhysicalLocation: true, employeeCount: 0 }] : [],
  }).filter((t) => t.kind === 'requirement' && t.regionCode === code && returnsOf.get(code)!.has(t.definitionId));
const ids = (tasks: ReturnType<typeof plan>) => [...new Set(tasks.map((t) => t.definitionId))];

describe('state business tax returns in every state with one', () => {
  it('holds returns for most states (the cells say why the others have none)', () => {
    expect(withReturns.length).toBeGreaterThanOrEqual(44);
  });

  it.each(withReturns)('%s: a C corporation with an office there gets a corporate return, and no return twice for one year', (code) => {
    const tasks = plan(code, {});
    // A state without a corporate income tax but with a pass-through return only (none today) would fail here: say so in its cell.
    expect(ids(tasks).length, `${code} corporate return`).toBeGreaterThanOrEqual(1);
    const perYear = new Map<string, number>();
    for (const t of tasks) perYear.set(`${t.definitionId} ${t.dueDate}`, (perYear.get(`${t.definitionId} ${t.dueDate}`) ?? 0) + 1);
    expect([...perYear.values()].every((n) => n === 1)).toBe(true);
  });

  it.each(withReturns)(
    '%s: a disregarded LLC gets only taxes on the LLC itself (no income-tax return by classification), and nothing without activity in a foreign state',
    (code) => {
      // States that tax an LLC whatever its federal classification (California's Form 568, Tennessee, Texas) plan it for
      // a disregarded one; a return chosen by tax classification must not be.
      const byClassification = ids(plan(code, { entityType: 'llc', taxClassification: 'disregarded' })).filter((id) =>
        JSON.stringify(catalog.requirement(id)!.definition.applies_when).includes('tax_classifications'),
      );
      for (const id of byClassification)
        expect(JSON.stringify(catalog.requirement(id)!.definition.applies_when), `${code} ${id}`).toContain('disregarded');
      expect(ids(plan(code, {}, false)), `${code} without an office or employees`).toEqual([]);
    },
  );

  it.each(withReturns)('%s: an LLC taxed as a corporation files as a corporation does, not a partnership return', (code) => {
    const corporation = ids(plan(code, {}));
    const llc = ids(plan(code, { entityType: 'llc', taxClassification: 'corp' }));
    expect(llc.length, `${code}: ${corporation.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(llc.filter((id) => /partnership|1065|-65|pte/.test(id))).toEqual([]);
  });

  it.each(withReturns)('%s: a June fiscal year end moves fiscal-year due dates by six months', (code) => {
    const fiscal = (yearEnd: number) =>
      plan(code, { accountingYearEnd: yearEnd })
        .filter((t) => catalog.requirement(t.definitionId)!.definition.schedule.due.rule === 'fiscal_year_end')
        .map((t) => [t.definitionId, t.dueDate!.slice(5, 7)] as const);
    const december = new Map(fiscal(12));
    for (const [id, month] of fiscal(6)) {
      if (!december.has(id)) continue;
      expect((Number(month) - Number(december.get(id)) + 12) % 12, `${code} ${id}`).toBe(6);
    }
  });
});
