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
