import type { Catalog } from '../catalog/catalog.js';
import { BUSINESS_FACTS, type Locality, type QuestionDefinition, type RequirementDefinition } from '../catalog/catalog.schema.js';
import { regionByCode } from '../catalog/regions.js';
import { evaluate, type BusinessFacts, type CriterionMet, type Fact, type RegionFacts } from './criteria.js';
import { addDays } from './dates.js';
import { occurrences, type ScheduleFact } from './schedule.js';

export interface EntityInput {
  entityType: string | null;
  taxClassification: string | null;
  incorporationRegion: string | null;
  incorporationDate: string | null;
  /** Month number 1-12; December when unknown. */
  accountingYearEnd: number | null;
  /** Tasks are planned from this date on (the day the entity was onboarded). */
  onboardedOn: string;
}

export interface LocationInput {
  regionCode: string;
  hasEmployees: boolean | null;
  hasPhysicalLocation: boolean | null;
  employeeCount: number | null;
}

/** What already happened to the entity's tasks: answers and completions feed the rules. */
export interface TaskState {
  kind: 'requirement' | 'question';
  definitionId: string;
  regionCode: string;
  /** 'once', a due date, or the locality an `in-locality` question asks about; 'once' when absent. */
  periodKey?: string;
  status: string;
  completedOn: string | null;
  answer: unknown;
}

export interface EngineInput {
  entity: EntityInput;
  locations: LocationInput[];
  tasks: TaskState[];
  today: string;
}

export interface PlannedTask {
  kind: 'requirement' | 'question';
  definitionId: string;
  regionCode: string;
  periodKey: string;
  periodStartDate: string | null;
  periodEndDate: string | null;
  dueDate: string | null;
  /** How the due date was found (null without one): the rule in words, exact or estimated, and the question that makes it exact. */
  dueDateBasis: { rule: string; exact: boolean; questionId: string | null } | null;
  criteriaMet: CriterionMet[];
  /** Requirements of the same region that must be done first. */
  blockedBy: string[];
}

/** Tasks are planned this far ahead; the daily job rolls the window forward. */
export const HORIZON_DAYS = 365;

/**
 * Bump with every change of this engine's code that changes a plan for the same facts and catalog (a date rule, a
 * criterion, the horizon): the daily roll-forward then re-plans every entity once with the new release, as it
 * does for a new catalog (modules/planning catalogHash).
 */
export const PLANNING_ENGINE_VERSION = 1;

const answerKey = (questionId: string, region: string, periodKey = 'once') => `${questionId}:${region}:${periodKey}`;
/** The United States as the federal requirements' reasons name it. */
const NATION = 'the United States';

/**
 * The compliance engine: a pure, deterministic function from what is known about an entity
 * to the tasks it has. Same input, same output, in the same order.
 */
export function planTasks(catalog: Catalog, input: EngineInput): PlannedTask[] {
  return planTasksAndNextDue(catalog, input).tasks;
}

/**
 * planTasks, and the first due date beyond the window of a requirement that applies (null: none within
 * LOOKAHEAD_YEARS): the roll-forward's next date for the entity (src/engine/next-replan.ts).
 */
export function planTasksAndNextDue(catalog: Catalog, input: EngineInput): { tasks: PlannedTask[]; nextDue: string | null } {
  const { entity } = input;
  let nextDue: string | null = null;
  const home = entity.incorporationRegion;
  const anchor = federalAnchor(catalog, input);
  const federalIds = new Set(catalog.federal.requirements.map((r) => r.id));
  const answers = answersOf(input);
  const done = new Map<string, string | null>();
  for (const task of input.tasks) {
    // A federal requirement done is done for the business, wherever it is stored (an anchor that just moved: the
    // task follows it in the same re-planning, so what it unlocks must not be blocked meanwhile).
    const region = federalIds.has(task.definitionId) && anchor ? anchor : task.regionCode;
    if (task.kind === 'requirement' && task.status === 'done') done.set(answerKey(task.definitionId, region), task.completedOn);
  }

  const locations = new Map(input.locations.map((l) => [l.regionCode, l]));
  const regionCodes = regionsOf(catalog, input);
  const localityQuestion = catalog.questionByFact.get('in_locality');
  const business = businessFacts(catalog, input);
  /** Facts of the whole business not known yet, and what they decide: asked once, in the anchor region. */
  const businessNeeded = new Map<Fact, RequirementDefinition[]>();

  const planned: PlannedTask[] = [];
  for (const code of regionCodes) {
    const regionCatalog = catalog.regions.get(code)!;
    const isHome = code === home;
    const facts = {
      ...regionFacts(regionCatalog.region.name, code, isHome, locations.get(code), entity, localityFacts(catalog, input, code)),
      business,
      ...salesFacts(answers, code),
    };
    const foreignRegistration = regionCatalog.requirements
      .filter((r) => r.family === 'foreign-qualification')
      .map((r) => done.get(answerKey(r.id, code)))
      .find((date) => date);
    const registrationDate =
      asDate(answers.get(answerKey('registration-date', code))) ?? (isHome ? entity.incorporationDate : (foreignRegistration ?? null));
    const context = {
      registrationDate,
      operationsStartDate: asDate(answers.get(answerKey('operations-start-date', code))),
      fiscalYearEndMonth: entity.accountingYearEnd ?? 12,
      registrationNumberDigit: asDigit(answers.get(answerKey('registration-number-digit', code))),
      entityType: entity.entityType,
      windowStart: entity.onboardedOn,
      windowEnd: addDays(input.today, HORIZON_DAYS),
    };

    const needed = new Map<Fact | ScheduleFact, RequirementDefinition[]>();
    const need = (fact: Fact | ScheduleFact, definition: RequirementDefinition) => {
      const into: Map<Fact | ScheduleFact, RequirementDefinition[]> = BUSINESS_FACT_SET.has(fact) ? businessNeeded : needed;
      into.set(fact, [...(into.get(fact) ?? []), definition]);
    };
    const neededLocalities = new Map<string, RequirementDefinition[]>();
    /** Plans the requirements that apply of one group (the region's, or the federal ones in the anchor region). */
    const planGroup = (definitions: readonly RequirementDefinition[], groupFacts: RegionFacts, asks: boolean) => {
      const applying = new Map<string, RequirementDefinition>();
      const evaluations = new Map<string, CriterionMet[]>();
      for (const definition of definitions) {
        const result = evaluate(definition.applies_when, groupFacts);
        // The federal group asks nothing of its own, except the business's facts no state question collects.
        for (const fact of result.value === null && !asks ? result.unknown : []) if (BUSINESS_FACT_SET.has(fact)) need(fact, definition);
        if (result.value === null && asks) {
          for (const fact of result.unknown) need(fact, definition);
          for (const locality of result.localities) neededLocalities.set(locality, [...(neededLocalities.get(locality) ?? []), definition]);
        }
        if (result.value !== true) continue;
        applying.set(definition.id, definition);
        evaluations.set(definition.id, result.met);
      }
      for (const definition of applying.values()) {
        const blockedBy = [...applying.values()]
          .filter((other) => other.unlocks?.includes(definition.id) && !done.has(answerKey(other.id, code)))
          .map((other) => other.id);
        const schedule = occurrences(definition.schedule, context);
        if (schedule.nextDue !== null && (nextDue === null || schedule.nextDue < nextDue)) nextDue = schedule.nextDue;
        for (const fact of schedule.missing) need(fact, definition);
        for (const { basis, ...occurrence } of schedule.occurrences) {
          const dueDateBasis = basis && {
            rule: basis.rule,
            exact: basis.exact,
            questionId: basis.pendingFact ? (catalog.questionByFact.get(basis.pendingFact)?.id ?? null) : null,
          };
          planned.push({
            kind: 'requirement',
            definitionId: definition.id,
            regionCode: code,
            ...occurrence,
            dueDateBasis,
            criteriaMet: evaluations.get(definition.id)!,
            blockedBy,
          });
        }
      }
    };
    planGroup([...regionCatalog.requirements, ...catalog.employerRequirements], facts, true);
    // Federal requirements, once per business in its anchor region. Their unknown facts raise no question of their
    // own: the states' questions are asked, and their answers decide these too.
    if (code === anchor) planGroup(catalog.federal.requirements, { ...federalFacts(input, code), business }, false);
    for (const [fact, definitions] of needed) {
      const question = catalog.questionByFact.get(fact);
      if (question) planned.push(questionTask(question, code, regionCatalog.region.name, definitions));
    }
    if (localityQuestion) {
      for (const [id, definitions] of [...neededLocalities].sort(([a], [b]) => (a < b ? -1 : 1))) {
        planned.push(questionTask(localityQuestion, code, regionCatalog.region.name, definitions, regionCatalog.localities.get(id)));
      }
    }
  }

  // The business's own questions, once, in its anchor region (where its federal tasks are).
  if (anchor) {
    for (const [fact, definitions] of [...businessNeeded].sort(
      ([a], [b]) => BUSINESS_FACTS.indexOf(a as never) - BUSINESS_FACTS.indexOf(b as never),
    )) {
      const question = catalog.questionByFact.get(fact);
      if (question) planned.push(questionTask(question, anchor, NATION, definitions));
    }
  }

  // Answered questions stay, even once their fact is known another way.
  const plannedKeys = new Set(planned.map((t) => `${t.kind}:${t.definitionId}:${t.regionCode}:${t.periodKey}`));
  for (const task of input.tasks) {
    if (task.kind !== 'question' || task.answer === null || task.answer === undefined) continue;
    const periodKey = task.periodKey ?? 'once';
    if (plannedKeys.has(`question:${task.definitionId}:${task.regionCode}:${periodKey}`)) continue;
    const question = catalog.questions.find((q) => q.id === task.definitionId);
    const region = regionByCode(task.regionCode);
    const locality = periodKey === 'once' ? undefined : catalog.regions.get(task.regionCode)?.localities.get(periodKey);
    if (question && region && (periodKey === 'once' || locality))
      planned.push(questionTask(question, task.regionCode, region.name, [], locality));
  }
  return { tasks: planned, nextDue };
}

/** The regions the entity's tasks are planned in: its state of incorporation and its locations, in code order. */
function regionsOf(catalog: Catalog, input: EngineInput): string[] {
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
function federalFacts(input: EngineInput, anchor: string): RegionFacts {
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

const BUSINESS_FACT_SET: ReadonlySet<string> = new Set(BUSINESS_FACTS);

/** The answered questions, by question, region and period (answerKey). */
function answersOf(input: EngineInput): Map<string, unknown> {
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
function businessFacts(catalog: Catalog, input: EngineInput): BusinessFacts {
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
function salesFacts(answers: ReadonlyMap<string, unknown>, code: string): Pick<RegionFacts, 'annualSales' | 'annualTransactions'> {
  const amount = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);
  return {
    annualSales: amount(answers.get(answerKey('annual-sales', code))),
    annualTransactions: amount(answers.get(answerKey('annual-transactions', code))),
  };
}

/** The region's localities and the answers of their `in-locality` questions. */
function localityFacts(catalog: Catalog, input: EngineInput, code: string): Pick<RegionFacts, 'localityAnswers' | 'localityNames'> {
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

function regionFacts(
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

export interface Explanation {
  regionCode: string;
  isHome: boolean;
  /** `federal`: a requirement of catalog/federal.yaml, evaluated on the whole business's facts (this is its anchor region). */
  requirements: { id: string; title: string; applies: boolean | null; reasons: CriterionMet[]; unknown: string[]; federal?: boolean }[];
}

/** For operators: every requirement of every region considered, whether it applies and why. */
export function explain(catalog: Catalog, input: EngineInput): Explanation[] {
  const home = input.entity.incorporationRegion;
  const locations = new Map(input.locations.map((l) => [l.regionCode, l]));
  const anchor = federalAnchor(catalog, input);
  const business = businessFacts(catalog, input);
  const answers = answersOf(input);
  const describe = (definition: RequirementDefinition, facts: RegionFacts, federal: boolean) => {
    const result = evaluate(definition.applies_when, facts);
    const unknown = [...result.unknown, ...[...result.localities].map((id) => `in_locality ${id}`)];
    return { id: definition.id, title: definition.title, applies: result.value, reasons: result.met, unknown, ...(federal && { federal }) };
  };
  return regionsOf(catalog, input).map((code) => {
    const region = catalog.regions.get(code)!;
    const facts = {
      ...regionFacts(region.region.name, code, code === home, locations.get(code), input.entity, localityFacts(catalog, input, code)),
      business,
      ...salesFacts(answers, code),
    };
    const federal =
      code === anchor ? catalog.federal.requirements.map((d) => describe(d, { ...federalFacts(input, code), business }, true)) : [];
    return {
      regionCode: code,
      isHome: code === home,
      requirements: [...[...region.requirements, ...catalog.employerRequirements].map((d) => describe(d, facts, false)), ...federal],
    };
  });
}

/** Facts that set due dates rather than decide whether a requirement applies. */
const DATED_FACTS = new Set<string>(['registration_date', 'operations_start_date', 'registration_number_digit']);

/** A question task; for a locality (the `in-locality` question) one per locality, its id the period key. */
function questionTask(
  question: QuestionDefinition,
  code: string,
  regionName: string,
  definitions: RequirementDefinition[],
  locality?: Locality,
): PlannedTask {
  const place = locality ? `${locality.name}, ${regionName}` : regionName;
  return {
    kind: 'question',
    definitionId: question.id,
    regionCode: code,
    periodKey: locality?.id ?? 'once',
    periodStartDate: null,
    periodEndDate: null,
    dueDate: null,
    dueDateBasis: null,
    criteriaMet:
      definitions.length > 0
        ? [
            {
              key: 'unknown-fact',
              // A date answers "when", not "whether": say what it dates.
              reason: `${DATED_FACTS.has(question.fact) ? 'Needed to set the due dates of' : 'Needed to decide'}: ${definitions.map((d) => d.title).join('; ')}`,
              data: {
                region: code,
                fact: question.fact,
                requirements: definitions.map((d) => d.id),
                ...(locality && { locality: locality.id }),
              },
            },
          ]
        : [
            {
              key: 'answered',
              reason: `Answered for ${place}`,
              data: { region: code, fact: question.fact, ...(locality && { locality: locality.id }) },
            },
          ],
    blockedBy: [],
  };
}

const asDate = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);
// The last digit of the number given (the question asks for the digit; a whole number given instead still says it).
const asDigit = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value % 10 : null);
