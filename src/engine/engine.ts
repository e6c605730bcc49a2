import type { Catalog } from '../catalog/catalog.js';
import type { QuestionDefinition, RequirementDefinition } from '../catalog/catalog.schema.js';
import { regionByCode } from '../catalog/regions.js';
import { evaluate, type CriterionMet, type Fact, type RegionFacts } from './criteria.js';
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

const answerKey = (questionId: string, region: string) => `${questionId}:${region}`;

/**
 * The compliance engine: a pure, deterministic function from what is known about an entity
 * to the tasks it has. Same input, same output, in the same order.
 */
export function planTasks(catalog: Catalog, input: EngineInput): PlannedTask[] {
  const { entity } = input;
  const home = entity.incorporationRegion;
  const answers = new Map<string, unknown>();
  const done = new Map<string, string | null>();
  for (const task of input.tasks) {
    if (task.kind === 'question' && task.answer !== null && task.answer !== undefined) answers.set(answerKey(task.definitionId, task.regionCode), task.answer);
    if (task.kind === 'requirement' && task.status === 'done') done.set(answerKey(task.definitionId, task.regionCode), task.completedOn);
  }

  const locations = new Map(input.locations.map((l) => [l.regionCode, l]));
  const regionCodes = [...new Set([...(home && catalog.regions.has(home) ? [home] : []), ...locations.keys()])]
    .filter((code) => catalog.regions.has(code))
    .sort();

  const planned: PlannedTask[] = [];
  for (const code of regionCodes) {
    const regionCatalog = catalog.regions.get(code)!;
    const isHome = code === home;
    const facts = regionFacts(regionCatalog.region.name, code, isHome, locations.get(code), entity);
    const foreignRegistration = regionCatalog.requirements
      .filter((r) => r.family === 'foreign-qualification')
      .map((r) => done.get(answerKey(r.id, code)))
      .find((date) => date);
    const registrationDate = asDate(answers.get(answerKey('registration-date', code))) ?? (isHome ? entity.incorporationDate : foreignRegistration ?? null);
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
    const need = (fact: Fact | ScheduleFact, definition: RequirementDefinition) => needed.set(fact, [...(needed.get(fact) ?? []), definition]);
    const applying = new Map<string, RequirementDefinition>();
    const evaluations = new Map<string, CriterionMet[]>();
    for (const definition of [...regionCatalog.requirements, ...catalog.employerRequirements]) {
      const result = evaluate(definition.applies_when, facts);
      if (result.value === null) for (const fact of result.unknown) need(fact, definition);
      if (result.value !== true) continue;
      applying.set(definition.id, definition);
      evaluations.set(definition.id, result.met);
    }
    for (const definition of applying.values()) {
      const blockedBy = [...applying.values()]
        .filter((other) => other.unlocks?.includes(definition.id) && !done.has(answerKey(other.id, code)))
        .map((other) => other.id);
      const schedule = occurrences(definition.schedule, context);
      for (const fact of schedule.missing) need(fact, definition);
      for (const { basis, ...occurrence } of schedule.occurrences) {
        const dueDateBasis = basis && { rule: basis.rule, exact: basis.exact, questionId: basis.pendingFact ? catalog.questionByFact.get(basis.pendingFact)?.id ?? null : null };
        planned.push({ kind: 'requirement', definitionId: definition.id, regionCode: code, ...occurrence, dueDateBasis, criteriaMet: evaluations.get(definition.id)!, blockedBy });
      }
    }
    for (const [fact, definitions] of needed) {
      const question = catalog.questionByFact.get(fact);
      if (question) planned.push(questionTask(question, code, regionCatalog.region.name, definitions));
    }
  }

  // Answered questions stay, even once their fact is known another way.
  const plannedKeys = new Set(planned.map((t) => `${t.kind}:${t.definitionId}:${t.regionCode}:${t.periodKey}`));
  for (const task of input.tasks) {
    if (task.kind !== 'question' || task.answer === null || task.answer === undefined) continue;
    if (plannedKeys.has(`question:${task.definitionId}:${task.regionCode}:once`)) continue;
    const question = catalog.questions.find((q) => q.id === task.definitionId);
    const region = regionByCode(task.regionCode);
    if (question && region) planned.push(questionTask(question, task.regionCode, region.name, []));
  }
  return planned;
}

function regionFacts(regionName: string, code: string, isHome: boolean, location: LocationInput | undefined, entity: EntityInput): RegionFacts {
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
  };
}

export interface Explanation {
  regionCode: string;
  isHome: boolean;
  requirements: { id: string; title: string; applies: boolean | null; reasons: CriterionMet[]; unknown: string[] }[];
}

/** For operators: every requirement of every region considered, whether it applies and why. */
export function explain(catalog: Catalog, input: EngineInput): Explanation[] {
  const home = input.entity.incorporationRegion;
  const locations = new Map(input.locations.map((l) => [l.regionCode, l]));
  const codes = [...new Set([...(home ? [home] : []), ...locations.keys()])].filter((c) => catalog.regions.has(c)).sort();
  return codes.map((code) => {
    const region = catalog.regions.get(code)!;
    const facts = regionFacts(region.region.name, code, code === home, locations.get(code), input.entity);
    return {
      regionCode: code,
      isHome: code === home,
      requirements: [...region.requirements, ...catalog.employerRequirements].map((definition) => {
        const result = evaluate(definition.applies_when, facts);
        return { id: definition.id, title: definition.title, applies: result.value, reasons: result.met, unknown: [...result.unknown] };
      }),
    };
  });
}

function questionTask(question: QuestionDefinition, code: string, regionName: string, definitions: RequirementDefinition[]): PlannedTask {
  return {
    kind: 'question',
    definitionId: question.id,
    regionCode: code,
    periodKey: 'once',
    periodStartDate: null,
    periodEndDate: null,
    dueDate: null,
    dueDateBasis: null,
    criteriaMet: definitions.length > 0
      ? [{
          key: 'unknown-fact',
          reason: `Needed to decide: ${definitions.map((d) => d.title).join('; ')}`,
          data: { region: code, fact: question.fact, requirements: definitions.map((d) => d.id) },
        }]
      : [{ key: 'answered', reason: `Answered for ${regionName}`, data: { region: code, fact: question.fact } }],
    blockedBy: [],
  };
}

const asDate = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null);
// The last digit of the number given (the question asks for the digit; a whole number given instead still says it).
const asDigit = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value % 10 : null);
