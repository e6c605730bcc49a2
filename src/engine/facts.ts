// What the engine knows of an entity, per region and for the whole business, from its input (the rules' facts).
import type { Catalog } from '../catalog/catalog.js';
import { BUSINESS_FACTS } from '../catalog/catalog-vocabulary.js';
import { regionByCode } from '../catalog/regions.js';
import type { BusinessFacts, RegionFacts } from './criteria.js';
import type { EngineInput, EntityInput, LocationInput } from './engine.types.js';

export const answerKey = (questionId: string, region: string, periodKey = 'once') => `${questionId}:${region}:${periodKey}`;
/** The United States as the federal requirements' reasons name it. */
export const NATION = 'the United States';

/** The regions the entity's tasks are planned in: its state of incorporation and its locations, in code order. */
export function regionsOf(catalog: Catalog, input: EngineInput): string[] {
  const home = input.entity.incorporationRegion;
  return [...new Set([...(home ? [home] : []), ...input.locations.map((l) => l.regionCode)])]
    .filter((code) => catalog.regions.has(code))
    .sort();
}

/**
 * Where the federal requirements are planned (and stored): the state of incorporation when the catalog has it, else
 * the first of the entity's locations in code order; null without either (no federal tasks).
 */
export function federalAnchor(catalog: Catalog, input: EngineInput): string | null {
  const home = input.entity.incorporationRegion;
  if (home && catalog.regions.has(home)) return home;
  return regionsOf(catalog, input)[0] ?? null;
}

/** Yes when one is yes; unknown when none is and one is unknown; else no. */
const anyOf = (values: (boolean | null)[]) => (values.includes(true) ? true : values.includes(null) ? null : false);

/** The whole business's facts, for the federal requirements: employees or premises anywhere, employees in total. */
export function federalFacts(input: EngineInput, anchor: string): RegionFacts {
  const { entity, locations } = input;
  const home = entity.incorporationRegion;
  const countUnknown = locations.some((l) => l.hasEmployees !== false && l.employeeCount === null);
  // Incorporated in a US state (any, whether or not the catalog plans it): `scope: home`; else formed abroad.
  const incorporatedIn = (home && regionByCode(home)?.name) || null;
  return {
    regionCode: anchor,
    regionName: NATION,
    isHome: incorporatedIn !== null,
    hasEmployees: anyOf(locations.map((l) => l.hasEmployees)),
    hasPhysicalLocation: anyOf(locations.map((l) => l.hasPhysicalLocation)),
    employeeCount: countUnknown ? null : locations.reduce((sum, l) => sum + (l.hasEmployees === false ? 0 : (l.employeeCount ?? 0)), 0),
    entityType: entity.entityType,
    taxClassification: entity.taxClassification,
    federal: { incorporatedIn },
  };
}

export const BUSINESS_FACT_SET: ReadonlySet<string> = new Set(BUSINESS_FACTS);

/** The answered questions, by question, region and period (answerKey). */
export function answersOf(input: EngineInput): Map<string, unknown> {
  const answers = new Map<string, unknown>();
  for (const task of input.tasks) {
    if (task.kind === 'question' && task.answer !== null && task.answer !== undefined)
      answers.set(answerKey(task.definitionId, task.regionCode, task.periodKey), task.answer);
  }
  return answers;
}

/**
 * The whole business's answers (what it sells, a retirement plan, contractors). Each is asked once, in the anchor
 * region, but read from wherever it was answered: an anchor that moved keeps the answers given before.
 */
export function businessFacts(catalog: Catalog, input: EngineInput): BusinessFacts {
  const facts: BusinessFacts = {};
  for (const fact of BUSINESS_FACTS) {
    const question = catalog.questionByFact.get(fact);
    const answered =
      question && input.tasks.find((t) => t.kind === 'question' && t.definitionId === question.id && typeof t.answer === 'boolean');
    facts[fact] = answered ? (answered.answer as boolean) : null;
  }
  return facts;
}

/** The region's answers about the business's sales into it (economic nexus). */
export function salesFacts(answers: ReadonlyMap<string, unknown>, code: string): Pick<RegionFacts, 'annualSales' | 'annualTransactions'> {
  const amount = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);
  return {
    annualSales: amount(answers.get(answerKey('annual-sales', code))),
    annualTransactions: amount(answers.get(answerKey('annual-transactions', code))),
  };
}

/** The region's localities and the answers of their `in-locality` questions. */
export function localityFacts(catalog: Catalog, input: EngineInput, code: string): Pick<RegionFacts, 'localityAnswers' | 'localityNames'> {
  const localities = catalog.regions.get(code)?.localities ?? new Map();
  const question = catalog.questionByFact.get('in_locality');
  const localityAnswers = new Map<string, boolean>();
  for (const task of input.tasks) {
    if (task.kind !== 'question' || task.definitionId !== question?.id || task.regionCode !== code || typeof task.answer !== 'boolean')
      continue;
    if (task.periodKey && localities.has(task.periodKey)) localityAnswers.set(task.periodKey, task.answer);
  }
  return { localityAnswers, localityNames: new Map([...localities.values()].map((l) => [l.id, l.name])) };
}

export function regionFacts(
  regionName: string,
  code: string,
  isHome: boolean,
  location: LocationInput | undefined,
  entity: EntityInput,
  localities: Pick<RegionFacts, 'localityAnswers' | 'localityNames'> = {},
): RegionFacts {
  return {
    regionCode: code,
    regionName,
    isHome,
    // Outside its locations (the state of incorporation only) the business has no employees or premises.
    hasEmployees: location ? location.hasEmployees : false,
    hasPhysicalLocation: location ? location.hasPhysicalLocation : false,
    employeeCount: location ? location.employeeCount : 0,
    entityType: entity.entityType,
    taxClassification: entity.taxClassification,
    ...localities,
  };
}

export const asDate = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);
// The last digit of the number given (the question asks for the digit; a whole number given instead still says it).
export const asDigit = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value % 10 : null;
