import type { CriterionMet } from './criteria.js';

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

export interface Explanation {
  regionCode: string;
  isHome: boolean;
  /** `federal`: a requirement of catalog/federal.yaml, evaluated on the whole business's facts (this is its anchor region). */
  requirements: { id: string; title: string; applies: boolean | null; reasons: CriterionMet[]; unknown: string[]; federal?: boolean }[];
}
