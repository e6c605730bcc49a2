// The handbook's rules as pure functions: which policies apply, which questions the builder asks, whether the
// draft can be published, the document a publication freezes, and the acknowledgement counts.
import { answerFits, categoryRank, FEDERAL, fillPolicyText, type HandbookCatalog, type HandbookPolicy } from '../../catalog/handbook.js';
import type { AnswerValue, HandbookQuestion, PolicyCondition } from '../../catalog/handbook.schema.js';
import { regionByCode } from '../../catalog/regions.js';
import type { HandbookAnswer, PolicyChoice } from '../../db/schema.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';

/** What the handbook reads of one location. */
export interface HandbookLocation {
  regionCode: string;
  hasEmployees: boolean | null;
  employeeCount: number | null;
}

export interface HandbookDraft {
  answers: Readonly<Record<string, HandbookAnswer>>;
  choices: Readonly<Record<string, PolicyChoice>>;
}

/** A policy that applies to the entity, and whether the handbook includes it. */
export interface ApplicablePolicy {
  policy: HandbookPolicy;
  /** Required policies are always included; an optional one unless the owner skipped it. */
  included: boolean;
}

export interface Derivation {
  /** Codes of the states with employees, in code order. */
  employeeRegions: string[];
  /** Employee states whose number of employees is not known yet (the builder asks for it first). */
  missingCounts: string[];
  /** Every policy that applies (required and optional), federal first, then by state, each by category. */
  applicable: ApplicablePolicy[];
  /** The questions the builder asks: those the included policies use and those conditions depend on, in catalog order. */
  questions: HandbookQuestion[];
  /** Of those, the ones without a valid answer. */
  unanswered: string[];
  /** number_of_adoptable_policies: every applicable policy, required and optional. */
  adoptable: number;
  publishable: boolean;
  /** Why not publishable, in words (empty when it is). */
  blockers: string[];
}

/** Whether a condition holds; `null` when it depends on an employee count or a locality answer not known yet. */
function holds(
  condition: PolicyCondition | undefined,
  region: string,
  counts: ReadonlyMap<string, number | null>,
  answers: HandbookDraft['answers'],
): boolean | null {
  if (!condition) return true;
  for (const wanted of condition.answers ?? []) if (answers[wanted.question] !== wanted.equals) return false;
  if (condition.in_locality !== undefined) {
    const worksThere = answers[condition.in_locality];
    if (worksThere === false) return false;
    if (worksThere !== true) return null;
  }
  if (condition.min_employees === undefined) return true;
  const counted = condition.employees_counted ?? (region === FEDERAL ? 'total' : 'region');
  const relevant = counted === 'total' ? [...counts.values()] : [counts.get(region) ?? 0];
  if (relevant.some((n) => n === null)) return null;
  return relevant.reduce<number>((sum, n) => sum + (n ?? 0), 0) >= condition.min_employees;
}

/**
 * The handbook of an entity from its locations with employees and the owner's draft. A policy applies when the
 * business has employees in its state (any state, for federal ones) and every condition holds; a condition on an
 * employee count not yet known does not hold, and the missing count blocks publishing. A policy of a city or county
 * (`in_locality`) applies once the owner says employees work there; its question is asked for every employee state
 * that has one, and until it is answered the policy is out and publishing is blocked (an unanswered question).
 */
export function deriveHandbook(catalog: HandbookCatalog, locations: readonly HandbookLocation[], draft: HandbookDraft): Derivation {
  const withEmployees = locations.filter((l) => l.hasEmployees === true).sort((a, b) => a.regionCode.localeCompare(b.regionCode));
  const employeeRegions = withEmployees.map((l) => l.regionCode);
  const counts = new Map(withEmployees.map((l) => [l.regionCode, l.employeeCount]));
  const missingCounts = withEmployees.filter((l) => l.employeeCount === null).map((l) => l.regionCode);

  const applicable: ApplicablePolicy[] = [];
  const conditionQuestions = new Set<string>();
  if (employeeRegions.length > 0) {
    for (const region of [FEDERAL, ...employeeRegions]) {
      const policies = [...(catalog.byRegion.get(region) ?? [])].sort((a, b) => categoryRank(a.category) - categoryRank(b.category));
      for (const policy of policies) {
        for (const c of policy.applies_when?.answers ?? []) conditionQuestions.add(c.question);
        if (policy.applies_when?.in_locality) conditionQuestions.add(policy.applies_when.in_locality);
        if (holds(policy.applies_when, region, counts, draft.answers) !== true) continue;
        applicable.push({ policy, included: policy.adoption === 'required' || draft.choices[policy.id] !== 'skip' });
      }
    }
  }
  const used = new Set([...conditionQuestions, ...applicable.filter((a) => a.included).flatMap((a) => a.policy.uses ?? [])]);
  const questions = [...catalog.questions.values()].filter((q) => used.has(q.id));
  const answered = (q: HandbookQuestion) => draft.answers[q.id] !== undefined && answerFits(q, draft.answers[q.id] as AnswerValue);
  const unanswered = questions.filter((q) => !answered(q)).map((q) => q.id);

  const blockers = [
    ...(employeeRegions.length === 0 ? ['Add at least one state where you have employees.'] : []),
    ...(missingCounts.length ? [`Say how many employees you have in ${missingCounts.map(regionName).join(', ')}.`] : []),
    ...(unanswered.length ? [`Answer ${unanswered.length === 1 ? 'one more question' : `${unanswered.length} more questions`}.`] : []),
  ];
  return {
    employeeRegions,
    missingCounts,
    applicable,
    questions,
    unanswered,
    adoptable: applicable.length,
    publishable: blockers.length === 0,
    blockers,
  };
}

/** The question whose answer names whom employees ask (catalog/handbook/questions.yaml). */
export const HR_CONTACT = 'hr-contact';

export const regionName = (code: string) => (code === FEDERAL ? 'the United States' : (regionByCode(code)?.name ?? code));

/** The document a publication freezes: the included policies, their text filled with the owner's answers. */
export function buildDocument(
  catalog: HandbookCatalog,
  derivation: Derivation,
  draft: HandbookDraft,
  meta: { businessName: string; version: number; publishedAt: Date },
): HandbookDocument {
  const included = derivation.applicable.filter((a) => a.included).map((a) => a.policy);
  const sections = [FEDERAL, ...derivation.employeeRegions].flatMap((region) => {
    const policies = included.filter((p) => p.region === region);
    if (policies.length === 0) return [];
    return [
      {
        region,
        heading: region === FEDERAL ? 'Policies for every employee' : `Employees in ${regionName(region)}`,
        policies: policies.map((p) => ({
          id: p.id,
          title: p.title,
          text: fillPolicyText(p.body, {
            company: meta.businessName,
            regionName: regionName(region),
            answers: draft.answers,
            questions: catalog.questions,
          }),
        })),
      },
    ];
  });
  // Whom employees ask: the owner's answer to the HR contact question, when the handbook asked it.
  const contact = draft.answers[HR_CONTACT];
  const named = typeof contact === 'string' && contact.trim() ? { contact: contact.trim() } : {};
  return {
    businessName: meta.businessName,
    version: meta.version,
    publishedAt: meta.publishedAt.toISOString(),
    regionNames: derivation.employeeRegions.map(regionName),
    sections,
    ...named,
  };
}

/** What an employee has done about the handbook (active employees only). */
export interface EmployeeAckState {
  hasEmail: boolean;
  /** Version numbers the employee acknowledged. */
  acknowledged: number[];
}

export interface AcknowledgementStats {
  signed: number;
  outdated: number;
  pending: number;
  missing_emails: number;
}

/**
 * One bucket per active employee, so the four add up to the employee list: signed (acknowledged the latest
 * version), outdated (only an earlier one), pending (none yet, has an e-mail address to receive the link),
 * missing_emails (none yet, no e-mail address).
 */
export function acknowledgementStats(employees: readonly EmployeeAckState[], latestVersion: number): AcknowledgementStats {
  const stats = { signed: 0, outdated: 0, pending: 0, missing_emails: 0 };
  for (const e of employees) {
    if (e.acknowledged.includes(latestVersion)) stats.signed += 1;
    else if (e.acknowledged.length > 0) stats.outdated += 1;
    else if (e.hasEmail) stats.pending += 1;
    else stats.missing_emails += 1;
  }
  return stats;
}

/** A form value for a question, read as the question's type; `undefined` when blank, `null` when it does not fit. */
export function parseAnswer(question: HandbookQuestion, raw: string | undefined): HandbookAnswer | undefined | null {
  const text = (raw ?? '').trim();
  if (text === '') return undefined;
  let value: AnswerValue;
  switch (question.type) {
    case 'boolean':
      if (text !== 'true' && text !== 'false') return null;
      value = text === 'true';
      break;
    case 'integer':
      if (!/^-?\d{1,9}$/.test(text)) return null;
      value = Number(text);
      break;
    default:
      if (text.length > MAX_TEXT_ANSWER) return null;
      value = text;
  }
  return answerFits(question, value) ? value : null;
}

const MAX_TEXT_ANSWER = 500;

/** Whether a typed answer is one its question accepts: its type, range or options, a text of at most 500 characters. */
export const answerAccepted = (question: HandbookQuestion, value: HandbookAnswer): boolean =>
  answerFits(question, value) && (question.type !== 'text' || String(value).length <= MAX_TEXT_ANSWER);

/** What the builder says when an answer does not fit its question. */
export function answerProblem(question: HandbookQuestion): string {
  switch (question.type) {
    case 'boolean':
      return 'Choose yes or no.';
    case 'integer':
      return `Enter a whole number${question.min !== undefined && question.max !== undefined ? ` from ${question.min} to ${question.max}` : ''}.`;
    case 'choice':
      return 'Choose one of the options.';
    case 'text':
      return 'Enter an answer of at most 500 characters.';
  }
}
