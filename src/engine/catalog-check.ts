import type { Catalog } from '../catalog/catalog.js';
import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import { evidenceProblems, isHomePage, proseDateProblems } from './catalog-consistency.js';
import { coverageMatrix, coverageProblems, matrixProblems } from '../catalog/coverage.js';

/** At most this share of the catalog's requirements may be `uncertain` (issue 14), the families of issue 24 apart. */
export const MAX_UNCERTAIN_SHARE = 0.05;
/**
 * The families issue 24 added: their uncertain share is reported per family in the coverage matrix rather than
 * folded into the catalog's (issue 24: "report its share separately … rather than weakening the evidence"), and
 * each may hold at most MAX_NEW_FAMILY_UNCERTAIN_SHARE.
 */
export const ISSUE_24_FAMILIES: ReadonlySet<string> = new Set([
  'income-tax-return',
  'gross-receipts-tax',
  'retirement-mandate',
  'e-verify',
  'employment-eligibility',
  'information-return',
]);
export const MAX_NEW_FAMILY_UNCERTAIN_SHARE = 0.2;

const allRequirements = (catalog: Catalog): { where: string; definition: RequirementDefinition }[] => [
  ...[...catalog.regions.entries()].flatMap(([code, region]) => region.requirements.map((definition) => ({ where: code, definition }))),
  ...catalog.federal.requirements.map((definition) => ({ where: 'US', definition })),
];

/**
 * Everything the consistency check reports for these regions (and the federal file, when the whole catalog is
 * checked): one line per problem, naming the requirement.
 */
export function catalogProblems(catalog: Catalog, codes: string[], options: { wholeCatalog: boolean }): string[] {
  const wanted = new Set([...codes, ...(options.wholeCatalog ? ['US'] : [])]);
  const problems: string[] = [];
  for (const { where, definition } of allRequirements(catalog)) {
    if (!wanted.has(where)) continue;
    for (const problem of [...evidenceProblems(definition), ...proseDateProblems(definition)])
      problems.push(`${where} ${definition.id}: ${problem}`);
  }
  for (const code of codes.filter((c) => c !== 'US')) problems.push(...coverageProblems(catalog, code));
  if (options.wholeCatalog) {
    problems.push(...matrixProblems(coverageMatrix(catalog)));
    const established = allRequirements(catalog).filter((r) => !ISSUE_24_FAMILIES.has(r.definition.family));
    const uncertain = established.filter((r) => r.definition.confidence === 'uncertain').length;
    if (uncertain > MAX_UNCERTAIN_SHARE * established.length) {
      problems.push(
        `${uncertain} of ${established.length} requirements (issue 24's families apart) are uncertain (more than ${MAX_UNCERTAIN_SHARE * 100} %)`,
      );
    }
    for (const family of ISSUE_24_FAMILIES) {
      const of = allRequirements(catalog).filter((r) => r.definition.family === family);
      const doubtful = of.filter((r) => r.definition.confidence === 'uncertain').length;
      if (doubtful > MAX_NEW_FAMILY_UNCERTAIN_SHARE * of.length)
        problems.push(
          `${family}: ${doubtful} of ${of.length} requirements are uncertain (more than ${MAX_NEW_FAMILY_UNCERTAIN_SHARE * 100} %)`,
        );
    }
  }
  return problems;
}

export interface CatalogFigures {
  requirements: number;
  sources: number;
  uniqueSources: number;
  deepSources: number;
  verified: number;
  uncertain: number;
  homePageOnly: number;
  families: Record<string, number>;
  /** Per region (and US): how many requirements of each family. */
  familiesByRegion: Record<string, Record<string, number>>;
}

/** The figures the issue's note reports: counts, deep-link share, uncertain share, families per region. */
export function catalogFigures(catalog: Catalog): CatalogFigures {
  const figures: CatalogFigures = {
    requirements: 0,
    sources: 0,
    uniqueSources: 0,
    deepSources: 0,
    verified: 0,
    uncertain: 0,
    homePageOnly: 0,
    families: {},
    familiesByRegion: {},
  };
  const unique = new Set<string>();
  for (const { where, definition } of allRequirements(catalog)) {
    figures.requirements++;
    figures.sources += definition.sources.length;
    figures.deepSources += definition.sources.filter((s) => !isHomePage(s)).length;
    for (const source of definition.sources) unique.add(source);
    if (definition.verification) figures.verified++;
    if (definition.confidence === 'uncertain') figures.uncertain++;
    if (definition.sources.every(isHomePage)) figures.homePageOnly++;
    figures.families[definition.family] = (figures.families[definition.family] ?? 0) + 1;
    const region = (figures.familiesByRegion[where] ??= {});
    region[definition.family] = (region[definition.family] ?? 0) + 1;
  }
  figures.uniqueSources = unique.size;
  return figures;
}
