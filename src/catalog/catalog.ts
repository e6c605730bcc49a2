import path from 'node:path';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { Compile } from 'typebox/compile';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { BUSINESS_FACTS, FAMILIES } from './catalog-vocabulary.js';
import type { Agency, FamilyFile, Locality, QuestionDefinition, RegionFile, RequirementDefinition } from './catalog.schema.js';
import type { Criteria } from './criteria.schema.js';
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

/** What a family file says of its region when it holds no requirement: the coverage matrix's cell (coverage.ts). */
export interface FamilyCell {
  file: string;
  notApplicable?: FamilyFile['not_applicable'];
  coveredBy?: FamilyFile['covered_by'];
}

export interface Catalog {
  regions: ReadonlyMap<string, RegionCatalog>;
  /** family → region code (US for federal) → the family file's cell, for the regions that have one. */
  familyCells: ReadonlyMap<string, ReadonlyMap<string, FamilyCell>>;
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
    // The engine asks the business's facts once (engine/facts.ts businessFacts); the file must say so, and its title too.
    const perBusiness = (BUSINESS_FACTS as readonly string[]).includes(q.fact);
    if (perBusiness !== (q.per === 'business')) {
      throw new CatalogError(questionsFile, `/questions/${i}/per`, perBusiness ? `${q.fact} is a fact of the whole business: per: business` : `${q.fact} is asked per region`);
    }
    if (perBusiness && /\{(region|locality)\}/.test(q.title)) throw new CatalogError(questionsFile, `/questions/${i}/title`, 'a question per business names no {region}');
    questionByFact.set(q.fact, q);
  }

  const regions = new Map<string, RegionCatalog>();
  const byId = new Map<string, { definition: RequirementDefinition; region: Region; agency: Agency }>();
  const familyFiles = readFamilyFiles(dir);
  const familyCells = new Map<string, Map<string, FamilyCell>>();
  const regionDir = path.join(dir, 'regions');
  for (const name of readdirSync(regionDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const file = path.join(regionDir, name);
    const data = readChecked<RegionFile>(file);
    const region = regionByCode(data.region);
    if (!region || name !== `${data.region}.yaml`) throw new CatalogError(file, '/region', `must be the region code the file is named after (${name})`);
    const prefix = `${data.region.toLowerCase()}-`;
    const merged = mergeFiles(file, data, familyFiles.get(data.region) ?? [], prefix, region, byId, familyCells, questionByFact.has('in_locality'));
    regions.set(data.region, { region, wageIncomeTax: data.wage_income_tax, ...merged });
  }
  for (const [code, files] of familyFiles) {
    if (code !== 'US' && !regions.has(code)) throw new CatalogError(files[0]!.file, '/region', `no region file catalog/regions/${code}.yaml`);
  }
  const federalFile = path.join(dir, 'federal.yaml');
  const federalData = readChecked<RegionFile>(federalFile);
  if (federalData.region !== 'US') throw new CatalogError(federalFile, '/region', 'must be US');
  // Federal and employer requirements are stored in a region of the entity; `region` here is the first one (it
  // unlocks nothing in another file, so no caller reads it).
  const anyRegion = [...regions.values()][0]?.region;
  let federal: { agencies: ReadonlyMap<string, Agency>; requirements: readonly RequirementDefinition[] } = { agencies: new Map(), requirements: [] };
  if (anyRegion) {
    // Federal requirements are planned once per business, never per locality (no `in_locality` question there).
    const merged = mergeFiles(federalFile, federalData, familyFiles.get('US') ?? [], 'us-', anyRegion, byId, familyCells, false);
    if (merged.localities.size > 0) throw new CatalogError(federalFile, '/localities', 'federal requirements have no localities');
    federal = { agencies: merged.agencies, requirements: merged.requirements };
  }
  const employerRequirements = [HANDBOOK_REQUIREMENT];
  if (anyRegion) for (const definition of employerRequirements) byId.set(definition.id, { definition, region: anyRegion, agency: HANDBOOK_AGENCY });
  return deepFreeze({
    regions,
    familyCells,
    federal,
    questions,
    questionByFact,
    employerRequirements,
    requirement: (id: string) => byId.get(id),
  });
}

interface LoadedFamilyFile {
  file: string;
  data: FamilyFile;
}

/** catalog/families/<family>/<CODE>.yaml, by region code (US: federal), in family then file order. */
function readFamilyFiles(dir: string): Map<string, LoadedFamilyFile[]> {
  const byRegion = new Map<string, LoadedFamilyFile[]>();
  const familiesDir = path.join(dir, 'families');
  if (!existsSync(familiesDir)) return byRegion;
  for (const family of readdirSync(familiesDir).sort()) {
    const familyDir = path.join(familiesDir, family);
    if (!(FAMILIES as readonly string[]).includes(family)) throw new CatalogError(familyDir, '(directory)', `'${family}' is not a family (catalog.schema.ts FAMILIES)`);
    for (const name of readdirSync(familyDir).filter((f) => f.endsWith('.yaml')).sort()) {
      const file = path.join(familyDir, name);
      const data = readChecked<FamilyFile>(file);
      if (name !== `${data.region}.yaml` || (data.region !== 'US' && !regionByCode(data.region))) {
        throw new CatalogError(file, '/region', `must be the region code (or US) the file is named after (${name})`);
      }
      if (data.family !== family) throw new CatalogError(file, '/family', `must be the directory's family (${family})`);
      const requirements = data.requirements ?? [];
      for (const [i, requirement] of requirements.entries()) {
        if (requirement.family !== family) throw new CatalogError(file, `/requirements/${i}/family`, `a file of family ${family} holds only that family's requirements`);
      }
      const cells = Number(data.not_applicable !== undefined) + Number(data.covered_by !== undefined);
      if (requirements.length === 0 && cells !== 1) throw new CatalogError(file, '(root)', 'without requirements, say why: exactly one of not_applicable or covered_by');
      if (requirements.length > 0 && data.not_applicable) throw new CatalogError(file, '/not_applicable', 'a file with requirements is not "not applicable"');
      byRegion.set(data.region, [...(byRegion.get(data.region) ?? []), { file, data }]);
    }
  }
  return byRegion;
}

/**
 * A region (or the federal) file with its family files: agencies and localities merged (the same id twice only for
 * the same thing), every file's requirements checked (`checkRequirements`), `covered_by` naming requirements of the
 * region, and each family file's cell recorded for the coverage matrix.
 */
function mergeFiles(
  file: string,
  data: RegionFile,
  families: LoadedFamilyFile[],
  prefix: string,
  region: Region,
  byId: Map<string, { definition: RequirementDefinition; region: Region; agency: Agency }>,
  familyCells: Map<string, Map<string, FamilyCell>>,
  hasLocalityQuestion: boolean,
): { agencies: ReadonlyMap<string, Agency>; localities: ReadonlyMap<string, Locality>; requirements: readonly RequirementDefinition[] } {
  const agencies = new Map<string, Agency>();
  const localities = new Map<string, Locality>();
  const files: { file: string; data: RegionFile }[] = [
    { file, data },
    ...families.map((f) => ({ file: f.file, data: { region: f.data.region, wage_income_tax: false, agencies: f.data.agencies ?? [], localities: f.data.localities, requirements: f.data.requirements ?? [] } })),
  ];
  for (const { file: where, data: part } of files) {
    for (const [i, agency] of part.agencies.entries()) {
      if (!agency.id.startsWith(prefix)) throw new CatalogError(where, `/agencies/${i}/id`, `must start with '${prefix}'`);
      const known = agencies.get(agency.id);
      if (known && (known.name !== agency.name || known.website !== agency.website)) {
        throw new CatalogError(where, `/agencies/${i}/id`, `agency ${agency.id} is declared elsewhere in the region with another name or website`);
      }
      if (!known) agencies.set(agency.id, agency);
    }
    const inThisFile = new Set<string>();
    for (const [i, locality] of (part.localities ?? []).entries()) {
      if (!locality.id.startsWith(prefix)) throw new CatalogError(where, `/localities/${i}/id`, `must start with '${prefix}'`);
      const known = localities.get(locality.id);
      if (inThisFile.has(locality.id) || (known && (known.name !== locality.name || known.kind !== locality.kind))) {
        throw new CatalogError(where, `/localities/${i}/id`, `duplicate locality id ${locality.id}`);
      }
      inThisFile.add(locality.id);
      if (!known) localities.set(locality.id, locality);
    }
  }
  const requirements: RequirementDefinition[] = [];
  for (const { file: where, data: part } of files) {
    checkRequirements(where, part, prefix, agencies, region, byId);
    checkLocalityCriteria(where, part, localities, hasLocalityQuestion);
    requirements.push(...part.requirements);
  }
  const ids = new Set(requirements.map((r) => r.id));
  for (const { file: where, data: family } of families) {
    for (const [i, id] of (family.covered_by?.requirements ?? []).entries()) {
      if (!ids.has(id)) throw new CatalogError(where, `/covered_by/requirements/${i}`, `unknown requirement '${id}' in this region`);
    }
    const cells = familyCells.get(family.family) ?? new Map<string, FamilyCell>();
    familyCells.set(family.family, cells);
    cells.set(family.region, { file: where, ...(family.not_applicable && { notApplicable: family.not_applicable }), ...(family.covered_by && { coveredBy: family.covered_by }) });
  }
  return { agencies, localities, requirements };
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

/** Every `in_locality` criterion of a file names a locality of its region (a city of another state would never be asked about). */
function checkLocalityCriteria(file: string, data: RegionFile, localities: ReadonlyMap<string, Locality>, hasQuestion: boolean): void {
  const named = (criteria: Criteria): string[] => [...(criteria.in_locality ? [criteria.in_locality] : []), ...(criteria.any ?? []).flatMap(named)];
  for (const [i, requirement] of data.requirements.entries()) {
    for (const id of named(requirement.applies_when)) {
      const where = `/requirements/${i}/applies_when`;
      if (!localities.has(id)) throw new CatalogError(file, where, `in_locality '${id}' is not a locality of this region`);
      if (!hasQuestion) throw new CatalogError(file, where, 'in_locality needs a question for fact in_locality in questions.yaml');
    }
  }
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
