import type { Catalog } from '../catalog/catalog.js';
import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import { evidenceProblems, isHomePage, proseDateProblems } from './catalog-consistency.js';
import { coverageMatrix, coverageProblems, matrixProblems } from '../catalog/coverage.js';

/** At most this share of the catalog's requirements may be `uncertain` (issue 14). */
export const MAX_UNCERTAIN_SHARE = 0.05;

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
    for (const problem of [...evidenceProblems(definition), ...proseDateProblems(definition)]) problems.push(`${where} ${definition.id}: ${problem}`);
  }
  for (const code of codes.filter((c) => c !== 'US')) problems.push(...coverageProblems(catalog, code));
  if (options.wholeCatalog) {
    problems.push(...matrixProblems(coverageMatrix(catalog)));
    const figures = catalogFigures(catalog);
    if (figures.uncertain > MAX_UNCERTAIN_SHARE * figures.requirements) {
      problems.push(`${figures.uncertain} of ${figures.requirements} requirements are uncertain (more than ${MAX_UNCERTAIN_SHARE * 100} %)`);
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

/** The figures the note reports: counts, deep-link share, uncertain share, families per region. */
export function catalogFigures(catalog: Catalog): CatalogFigures {
  const figures: CatalogFigures = { requirements: 0, sources: 0, uniqueSources: 0, deepSources: 0, verified: 0, uncertain: 0, homePageOnly: 0, families: {}, familiesByRegion: {} };
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
