import type { Catalog } from './catalog.js';
import type { QuestionDefinition } from './catalog.schema.js';

/** The locality a question task asks about: its period key is the locality's id (the `in-locality` question). */
export function localityOf(catalog: Catalog, regionCode: string, periodKey: string) {
  return catalog.regions.get(regionCode)?.localities.get(periodKey) ?? null;
}

/**
 * A question's title for one task: `{region}` is the region's name, `{locality}` the locality the task asks about
 * ("Philadelphia, Pennsylvania"; the region's name when the task names none).
 */
export function questionTitle(catalog: Catalog, question: QuestionDefinition, regionCode: string, regionName: string, periodKey: string): string {
  const locality = localityOf(catalog, regionCode, periodKey);
  return question.title.replace('{region}', regionName).replace('{locality}', locality ? `${locality.name}, ${regionName}` : regionName);
}
