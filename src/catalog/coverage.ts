import type { Criteria } from './criteria.schema.js';
import type { RequirementDefinition } from './catalog.schema.js';
import type { Catalog } from './catalog.js';

/** States without a statewide sales tax (Alaska's are local only): no sales-tax permit is expected there. */
export const NO_STATE_SALES_TAX = new Set(['AK', 'DE', 'MT', 'NH', 'OR']);
/** States where workers' compensation coverage is elective for private employers. */
export const ELECTIVE_WORKERS_COMPENSATION = new Set(['TX']);

/**
 * The families every region must cover (catalog/README.md, "Families"). Returns one line per gap;
 * an empty list means the region is complete.
 */
export function coverageProblems(catalog: Catalog, code: string): string[] {
  const region = catalog.regions.get(code);
  if (!region) return [`${code}: no catalog file`];
  const problems: string[] = [];
  const of = (family: string) => region.requirements.filter((r) => r.family === family);
  const typesCovered = (family: string, types: string[]) =>
    types.every((type) => of(family).some((r) => !hasEntityTypes(r.applies_when) || hasEntityTypes(r.applies_when)!.includes(type)));

  if (!typesCovered('foreign-qualification', ['c_corp', 'llc'])) problems.push(`${code}: foreign-qualification must cover corporations and LLCs`);
  for (const family of ['registered-agent', 'unemployment-insurance', 'new-hire-reporting']) {
    if (of(family).length === 0) problems.push(`${code}: missing ${family}`);
  }
  const reports = [...of('annual-report'), ...of('franchise-tax-report')];
  if (reports.length === 0 && !region.requirements.some((r) => r.family === 'other' && /annual report/i.test(r.notes ?? ''))) {
    problems.push(`${code}: missing annual-report or franchise-tax-report (or an 'other' entry whose notes explain why there is none)`);
  }
  if (region.wageIncomeTax && of('withholding').length === 0) problems.push(`${code}: wage_income_tax is true but no withholding requirement`);
  if (!region.wageIncomeTax && of('withholding').length > 0) problems.push(`${code}: withholding requirement but wage_income_tax is false`);
  if (of('posters').length === 0) problems.push(`${code}: missing posters (the state's required workplace posters)`);
  if (!NO_STATE_SALES_TAX.has(code) && of('sales-tax-permit').length === 0) problems.push(`${code}: missing sales-tax-permit`);
  if (NO_STATE_SALES_TAX.has(code) && of('sales-tax-permit').length > 0) problems.push(`${code}: sales-tax-permit in a state without a statewide sales tax`);
  if (!ELECTIVE_WORKERS_COMPENSATION.has(code) && of('workers-compensation').length === 0) problems.push(`${code}: missing workers-compensation`);
  return problems;
}

function hasEntityTypes(criteria: { entity_types?: string[] }): string[] | undefined {
  return criteria.entity_types;
}

/**
 * The coverage matrix (issue 24): for each family of obligations a realistic business can have, every region's cell
 * says whether the catalog holds it (`present`), why the region has none (`not-applicable`, a family file with its
 * cited reason), which requirement of another family already is it (`covered`), or nothing (`missing`: CI fails).
 */
export const MATRIX_FAMILIES = {
  /** Every region must have a cell. */
  state: ['income-tax-return', 'gross-receipts-tax', 'retirement-mandate', 'e-verify', 'sales-tax-permit', 'disability-insurance', 'paid-leave'],
  /** Federal: the United States' cell must be present; the states' cells read "federal". */
  federal: ['employment-eligibility', 'information-return'],
  /** Cities, counties and districts: each region's cell lists the localities covered (nothing is required of a state). */
  local: ['local-business-tax', 'local-payroll-tax'],
} as const;

export type CellStatus = 'present' | 'not-applicable' | 'covered' | 'federal' | 'missing' | 'none';

export interface MatrixCell {
  status: CellStatus;
  /** The requirements that make the cell (present), or that already are the obligation (covered). */
  requirements: string[];
  /** Of those, the uncertain ones. */
  uncertain: string[];
  /** Why (not applicable, covered), with the cited pages of a not-applicable cell. */
  reason?: string;
  sources?: string[];
  /** Local families: the localities covered. */
  localities?: string[];
  /** A present cell's file may also name region-file requirements that are part of the obligation (`covered_by`). */
  alsoCoveredBy?: string[];
}

export interface MatrixFamily {
  family: string;
  kind: keyof typeof MATRIX_FAMILIES;
  cells: Record<string, MatrixCell>;
  requirements: number;
  uncertain: number;
}

export function coverageMatrix(catalog: Catalog): MatrixFamily[] {
  const codes = [...catalog.regions.keys()].sort();
  const rows: MatrixFamily[] = [];
  for (const [kind, families] of Object.entries(MATRIX_FAMILIES) as [keyof typeof MATRIX_FAMILIES, readonly string[]][]) {
    for (const family of families) {
      const cells: Record<string, MatrixCell> = {};
      const fileCells = catalog.familyCells.get(family);
      const cellOf = (code: string, requirements: readonly RequirementDefinition[], localities?: ReadonlyMap<string, { name: string }>): MatrixCell => {
        const own = requirements.filter((r) => r.family === family);
        const uncertain = own.filter((r) => r.confidence === 'uncertain').map((r) => r.id);
        if (kind === 'local') {
          const named = [...new Set(own.flatMap((r) => localitiesNamed(r.applies_when)))].map((id) => localities?.get(id)?.name ?? id).sort();
          return { status: own.length > 0 ? 'present' : 'none', requirements: own.map((r) => r.id), uncertain, localities: named };
        }
        const file = fileCells?.get(code);
        if (own.length > 0) return { status: 'present', requirements: own.map((r) => r.id), uncertain, ...(file?.coveredBy && { alsoCoveredBy: [...file.coveredBy.requirements] }) };
        if (file?.notApplicable) return { status: 'not-applicable', requirements: [], uncertain: [], reason: file.notApplicable.reason, sources: file.notApplicable.sources.map((s) => s.url) };
        if (file?.coveredBy) {
          const covering = requirements.filter((r) => file.coveredBy!.requirements.includes(r.id));
          return { status: 'covered', requirements: covering.map((r) => r.id), uncertain: covering.filter((r) => r.confidence === 'uncertain').map((r) => r.id), reason: file.coveredBy.reason };
        }
        return { status: kind === 'federal' && code !== 'US' ? 'federal' : 'missing', requirements: [], uncertain: [] };
      };
      if (kind !== 'federal') for (const code of codes) cells[code] = cellOf(code, catalog.regions.get(code)!.requirements, catalog.regions.get(code)!.localities);
      else for (const code of codes) cells[code] = { status: 'federal', requirements: [], uncertain: [] };
      cells.US = cellOf('US', catalog.federal.requirements);
      if (kind === 'state' && cells.US.status === 'missing') cells.US = { status: 'none', requirements: [], uncertain: [] };
      const counted = Object.values(cells).filter((c) => c.status === 'present');
      rows.push({ family, kind, cells, requirements: counted.reduce((n, c) => n + c.requirements.length, 0), uncertain: counted.reduce((n, c) => n + c.uncertain.length, 0) });
    }
  }
  return rows;
}

/** One line per missing cell of the matrix (CI fails on any). */
export function matrixProblems(matrix: MatrixFamily[]): string[] {
  return matrix.flatMap((row) => Object.entries(row.cells)
    .filter(([, cell]) => cell.status === 'missing')
    .map(([code]) => `${code}: no ${row.family} (add catalog/families/${row.family}/${code}.yaml: requirements, not_applicable with a cited source, or covered_by)`));
}

/** The matrix as text: a line per family with its counts, then its cells by status. */
export function formatMatrix(matrix: MatrixFamily[]): string[] {
  const lines = ['coverage matrix (issue 24 families; catalog/families/):'];
  for (const row of matrix) {
    const share = row.requirements > 0 ? ` (${((100 * row.uncertain) / row.requirements).toFixed(1)} % uncertain)` : '';
    lines.push(`  ${row.family}: ${row.requirements} requirements, ${row.uncertain} uncertain${share}`);
    const byStatus = new Map<CellStatus, string[]>();
    for (const [code, cell] of Object.entries(row.cells)) {
      const label = cell.localities && cell.localities.length > 0 ? `${code} (${cell.localities.join(', ')})` : code;
      byStatus.set(cell.status, [...(byStatus.get(cell.status) ?? []), label]);
    }
    for (const status of ['present', 'covered', 'not-applicable', 'missing', 'none'] as CellStatus[]) {
      const list = byStatus.get(status);
      if (list && !(status === 'none' && row.kind !== 'local')) lines.push(`    ${status} (${list.length}): ${list.join(' ')}`);
    }
  }
  return lines;
}

function localitiesNamed(criteria: Criteria): string[] {
  return [...(criteria.in_locality ? [criteria.in_locality] : []), ...(criteria.any ?? []).flatMap(localitiesNamed)];
}
