import type { Catalog } from '../catalog/catalog.js';
import { BUSINESS_FACTS } from '../catalog/catalog-vocabulary.js';
import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import { regionByCode } from '../catalog/regions.js';
import { evaluate, type CriterionMet, type Fact, type RegionFacts } from './criteria.js';
import { addDays } from './dates.js';
import type { EngineInput, PlannedTask } from './engine.types.js';
import {
  answerKey,
  answersOf,
  asDate,
  asDigit,
  BUSINESS_FACT_SET,
  businessFacts,
  federalAnchor,
  federalFacts,
  localityFacts,
  NATION,
  regionFacts,
  regionsOf,
  salesFacts,
} from './facts.js';
import { questionTask } from './question-task.js';
import { occurrences, type ScheduleFact } from './schedule.js';

/** Tasks are planned this far ahead; the daily job rolls the window forward. */
export const HORIZON_DAYS = 365;

/**
 * Bump with every change of this engine's code that changes a plan for the same facts and catalog (a date rule, a
 * criterion, the horizon): the daily roll-forward then re-plans every entity once with the new release, as it
 * does for a new catalog (modules/planning catalogHash).
 */
export const PLANNING_ENGINE_VERSION = 1;

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
