import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { Compile } from 'typebox/compile';
import type { Agency, Criteria, Locality, QuestionDefinition, RegionFile, RequirementDefinition } from './catalog.schema.js';
import { CatalogError, regionByCode, type Region } from './regions.js';
import { packagePath } from '../lib/package-root.js';
import { parseCatalogYaml, schemaForFile } from './catalog-cache.js';
import { HANDBOOK_AGENCY, HANDBOOK_REQUIREMENT } from './handbook-requirement.js';

export interface RegionCatalog {
  region: Region;
  wageIncomeTax: boolean;
  agencies: ReadonlyMap<string, Agency>;
  /** Cities, counties and districts with taxes of their own, by id (asked about per locality: the `in-locality` question). */
  localities: ReadonlyMap<string, Locality>;
  requirements: readonly RequirementDefinition[];
}

/** Federal requirements (catalog/federal.yaml): planned once per entity, in its home region (engine.ts, "federal"). */
export interface FederalCatalog {
  agencies: ReadonlyMap<string, Agency>;
  requirements: readonly RequirementDefinition[];
}

export interface Catalog {
  regions: ReadonlyMap<string, RegionCatalog>;
  federal: FederalCatalog;
  questions: readonly QuestionDefinition[];
  questionByFact: ReadonlyMap<string, QuestionDefinition>;
  /** The employer's own requirements, planned in every region like its requirements (the handbook: handbook-requirement.ts). */
  employerRequirements: readonly RequirementDefinition[];
  requirement(id: string): { definition: RequirementDefinition; region: Region; agency: Agency } | undefined;
}

export const CATALOG_DIR = packagePath('catalog');

/** A catalog file's content, checked against its schema unless the build's cache vouches for it (catalog-cache.ts). */
export function readChecked<T>(file: string, schema: TSchema = schemaForFile(file)): T {
  let parsed;
  try {
    parsed = parseCatalogYaml(readFileSync(file, 'utf8'), schema);
  } catch (error) {
    throw new CatalogError(file, '(file)', `not valid YAML: ${(error as Error).message}`);
  }
  return parsed.checked ? (parsed.data as T) : check<T>(schema, parsed.data, file);
}

// Compiled once: checking every region file with Value.Errors took over a second at each start.
const checkers = new Map<TSchema, ReturnType<typeof Compile>>();

function check<T>(schema: TSchema, data: unknown, file: string): T {
  let checker = checkers.get(schema);
  if (!checker) checkers.set(schema, (checker = Compile(schema)));
  if (checker.Check(data)) return data as T;
  // Only a bad file pays for the error list (the deepest error is the most telling).
  const first = [...Value.Errors(schema, data)].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (first) throw new CatalogError(file, first.instancePath || '(root)', first.message);
  return data as T;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    const children = value instanceof Map ? [...value.values()] : Object.values(value);
    for (const child of children) deepFreeze(child);
  }
  return value;
}

/**
 * Loads catalog/questions.yaml and every catalog/regions/<CODE>.yaml, validating each against
 * its schema and the references between them. Any problem names the file and the field.
 */
export function loadCatalog(dir = CATALOG_DIR): Catalog {
  const questionsFile = path.join(dir, 'questions.yaml');
  const questions = readChecked<{ questions: QuestionDefinition[] }>(questionsFile).questions;
  const questionByFact = new Map<string, QuestionDefinition>();
  for (const [i, q] of questions.entries()) {
    if (questionByFact.has(q.fact)) throw new CatalogError(questionsFile, `/questions/${i}/fact`, `a second question for fact ${q.fact}`);
    questionByFact.set(q.fact, q);
  }

  const regions = new Map<string, RegionCatalog>();
  const byId = new Map<string, { definition: RequirementDefinition; region: Region; agency: Agency }>();
  const regionDir = path.join(dir, 'regions');
  for (const name of readdirSync(regionDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const file = path.join(regionDir, name);
    const data = readChecked<RegionFile>(file);
    const region = regionByCode(data.region);
    if (!region || name !== `${data.region}.yaml`) throw new CatalogError(file, '/region', `must be the region code the file is named after (${name})`);
    const agencies = new Map(data.agencies.map((a) => [a.id, a]));
    const prefix = `${data.region.toLowerCase()}-`;
    for (const [i, agency] of data.agencies.entries()) {
      if (!agency.id.startsWith(prefix)) throw new CatalogError(file, `/agencies/${i}/id`, `must start with '${prefix}'`);
    }
    checkRequirements(file, data, prefix, agencies, region, byId);
    const localities = checkLocalities(file, data, prefix, questionByFact.has('in_locality'));
    regions.set(data.region, { region, wageIncomeTax: data.wage_income_tax, agencies, localities, requirements: data.requirements });
  }
  const federalFile = path.join(dir, 'federal.yaml');
  const federalData = readChecked<RegionFile>(federalFile);
  if (federalData.region !== 'US') throw new CatalogError(federalFile, '/region', 'must be US');
  const federalAgencies = new Map(federalData.agencies.map((a) => [a.id, a]));
  for (const [i, agency] of federalData.agencies.entries()) {
    if (!agency.id.startsWith('us-')) throw new CatalogError(federalFile, `/agencies/${i}/id`, "must start with 'us-'");
  }
  // Federal and employer requirements are stored in a region of the entity; `region` here is the first one (it
  // unlocks nothing in another file, so no caller reads it).
  const anyRegion = [...regions.values()][0]?.region;
  if (anyRegion) checkRequirements(federalFile, federalData, 'us-', federalAgencies, anyRegion, byId);
  // Federal requirements are planned once per business, never per locality.
  checkLocalities(federalFile, { ...federalData, localities: [] }, 'us-', false);
  const employerRequirements = [HANDBOOK_REQUIREMENT];
  if (anyRegion) for (const definition of employerRequirements) byId.set(definition.id, { definition, region: anyRegion, agency: HANDBOOK_AGENCY });
  return deepFreeze({
    regions,
    federal: { agencies: federalAgencies, requirements: federalData.requirements },
    questions,
    questionByFact,
    employerRequirements,
    requirement: (id: string) => byId.get(id),
  });
}

/** The checks of one region (or the federal) file's requirements beyond its schema; adds each to `byId`. */
function checkRequirements(
  file: string,
  data: RegionFile,
  prefix: string,
  agencies: ReadonlyMap<string, Agency>,
  region: Region,
  byId: Map<string, { definition: RequirementDefinition; region: Region; agency: Agency }>,
): void {
  const ids = new Set(data.requirements.map((r) => r.id));
  for (const [i, requirement] of data.requirements.entries()) {
    const where = `/requirements/${i}`;
    if (!requirement.id.startsWith(prefix)) throw new CatalogError(file, `${where}/id`, `must start with '${prefix}'`);
    if (byId.has(requirement.id)) throw new CatalogError(file, `${where}/id`, `duplicate requirement id ${requirement.id}`);
    const agency = agencies.get(requirement.agency);
    if (!agency) throw new CatalogError(file, `${where}/agency`, `unknown agency '${requirement.agency}'`);
    for (const [j, unlocked] of (requirement.unlocks ?? []).entries()) {
      if (!ids.has(unlocked)) throw new CatalogError(file, `${where}/unlocks/${j}`, `unknown requirement '${unlocked}' in this region`);
    }
    if (requirement.eta && requirement.eta.min > requirement.eta.max) throw new CatalogError(file, `${where}/eta`, 'min must not exceed max');
    if (requirement.schedule.every === 'once' && !ONE_TIME_RULES.includes(requirement.schedule.due.rule)) {
      throw new CatalogError(file, `${where}/schedule/due`, 'a one-time requirement is due with rule none, within_days or months_after');
    }
    if (requirement.schedule.every !== 'once' && ONE_TIME_RULES.includes(requirement.schedule.due.rule)) {
      throw new CatalogError(file, `${where}/schedule/due`, 'a recurring requirement needs a fixed, anniversary, fiscal_year_end or quarter_end rule');
    }
    checkSchedule(file, `${where}/schedule`, requirement.schedule);
    byId.set(requirement.id, { definition: requirement, region, agency });
  }
}

/** Due rules of one-time requirements only (months_after: "the 15th day of the 4th month after registration"). */
const ONE_TIME_RULES: readonly string[] = ['none', 'within_days', 'months_after'];

/**
 * The localities of one region file: ids start with the region's prefix and are unique, and every `in_locality`
 * criterion names one of them (a city of another state would never be asked about). Kept apart from the schedule
 * checks of `checkRequirements`.
 */
function checkLocalities(file: string, data: RegionFile, prefix: string, hasQuestion: boolean): ReadonlyMap<string, Locality> {
  const localities = new Map<string, Locality>();
  for (const [i, locality] of (data.localities ?? []).entries()) {
    if (!locality.id.startsWith(prefix)) throw new CatalogError(file, `/localities/${i}/id`, `must start with '${prefix}'`);
    if (localities.has(locality.id)) throw new CatalogError(file, `/localities/${i}/id`, `duplicate locality id ${locality.id}`);
    localities.set(locality.id, locality);
  }
  const named = (criteria: Criteria): string[] => [...(criteria.in_locality ? [criteria.in_locality] : []), ...(criteria.any ?? []).flatMap(named)];
  for (const [i, requirement] of data.requirements.entries()) {
    for (const id of named(requirement.applies_when)) {
      const where = `/requirements/${i}/applies_when`;
      if (!localities.has(id)) throw new CatalogError(file, where, `in_locality '${id}' is not a locality of this file`);
      if (!hasQuestion) throw new CatalogError(file, where, 'in_locality needs a question for fact in_locality in questions.yaml');
    }
  }
  return localities;
}

/** Combinations the schema allows but that mean nothing: named with the file and field, like a schema error. */
function checkSchedule(file: string, where: string, schedule: RequirementDefinition['schedule']): void {
  const quarterly = schedule.due.rule === 'quarter_end';
  if (quarterly !== (schedule.every === '1q')) throw new CatalogError(file, `${where}/due`, 'quarter_end goes with every: 1q, and every: 1q with quarter_end');
  const cycles = [schedule.parity, ...Object.values(schedule.parity_by_entity_type ?? {})].filter((c) => c !== undefined);
  if (schedule.every !== '2y' && schedule.every !== '3y') {
    if (schedule.parity) throw new CatalogError(file, `${where}/parity`, 'parity applies only to every: 2y or 3y');
    if (schedule.parity_by_entity_type) throw new CatalogError(file, `${where}/parity_by_entity_type`, 'parity_by_entity_type applies only to every: 2y or 3y');
  }
  if (schedule.every === '3y' && cycles.some((c) => c !== 'same-as-registration-year')) {
    throw new CatalogError(file, `${where}/${schedule.parity && schedule.parity !== 'same-as-registration-year' ? 'parity' : 'parity_by_entity_type'}`, 'a three-year cycle counts from the registration year only (same-as-registration-year)');
  }
  if (schedule.first && (schedule.every === '1q' || schedule.every === 'once')) throw new CatalogError(file, `${where}/first`, 'first applies only to yearly, two- and three-year filings');
}
