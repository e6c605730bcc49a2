import { readdirSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../lib/package-root.js';
import { deepFreeze, readChecked } from './catalog.js';
import {
  HandbookQuestionsFileSchema, PolicyFileSchema, POLICY_CATEGORIES,
  type AnswerValue, type HandbookQuestion, type PolicyDefinition, type PolicyFile,
} from './handbook.schema.js';
import { CatalogError, regionByCode } from './regions.js';

/** A policy with the region its file is for ('US' for federal policies). */
export type HandbookPolicy = PolicyDefinition & { region: string };

export interface HandbookCatalog {
  questions: ReadonlyMap<string, HandbookQuestion>;
  /** Every policy: federal first, then by region code, each file's in its order. */
  policies: readonly HandbookPolicy[];
  byRegion: ReadonlyMap<string, readonly HandbookPolicy[]>;
  policy(id: string): HandbookPolicy | undefined;
}

export const HANDBOOK_DIR = packagePath('catalog', 'handbook');
export const FEDERAL = 'US';

const PLACEHOLDER = /\{([^{}]*)\}/g;
function checkQuestion(file: string, where: string, q: HandbookQuestion): void {
  if ((q.type === 'choice') !== (q.choices !== undefined)) throw new CatalogError(file, `${where}/choices`, 'a choice question has choices, and only a choice question');
  if ((q.min !== undefined || q.max !== undefined) && q.type !== 'integer') throw new CatalogError(file, `${where}/min`, 'min and max are for integer questions');
  if (q.default !== undefined && !answerFits(q, q.default)) throw new CatalogError(file, `${where}/default`, `not a valid ${q.type} answer`);
  if (q.locality !== undefined) {
    if (q.type !== 'boolean') throw new CatalogError(file, `${where}/type`, 'a locality question is a yes/no (boolean) question');
    if (q.default !== undefined) throw new CatalogError(file, `${where}/default`, 'a locality question has no default: the owner says where employees work');
  }
}

/** Whether `value` is a valid answer to `question` (also used by the builder to check what the owner sends). */
export function answerFits(question: HandbookQuestion, value: AnswerValue): boolean {
  switch (question.type) {
    case 'boolean': return typeof value === 'boolean';
    case 'integer': return Number.isInteger(value) && (question.min === undefined || (value as number) >= question.min) && (question.max === undefined || (value as number) <= question.max);
    case 'text': return typeof value === 'string' && value.trim().length > 0;
    case 'choice': return typeof value === 'string' && (question.choices ?? []).some((c) => c.value === value);
  }
}

/**
 * Loads catalog/handbook/questions.yaml and every catalog/handbook/policies/<US|CODE>.yaml, validating each
 * against its schema and the references between them (placeholders, questions, regions). Any problem names
 * the file and the field; Statehouse does not start with a broken catalog.
 */
export function loadHandbookCatalog(dir = HANDBOOK_DIR): HandbookCatalog {
  const questionsFile = path.join(dir, 'questions.yaml');
  const questions = new Map<string, HandbookQuestion>();
  const addQuestion = (file: string, where: string, q: HandbookQuestion) => {
    if (questions.has(q.id)) throw new CatalogError(file, `${where}/id`, `duplicate question id ${q.id}`);
    checkQuestion(file, where, q);
    questions.set(q.id, q);
  };
  for (const [i, q] of readChecked<{ questions: HandbookQuestion[] }>(questionsFile, HandbookQuestionsFileSchema).questions.entries()) {
    if (q.locality !== undefined) throw new CatalogError(questionsFile, `/questions/${i}/locality`, 'a locality question belongs to the file of its state');
    addQuestion(questionsFile, `/questions/${i}`, q);
  }

  const policyDir = path.join(dir, 'policies');
  const files = readdirSync(policyDir).filter((f) => f.endsWith('.yaml'))
    .sort((a, b) => (a === `${FEDERAL}.yaml` ? -1 : b === `${FEDERAL}.yaml` ? 1 : a.localeCompare(b)));
  if (files[0] !== `${FEDERAL}.yaml`) throw new CatalogError(policyDir, '(directory)', `must hold the federal policies, ${FEDERAL}.yaml`);

  const parsed = files.map((name) => {
    const file = path.join(policyDir, name);
    const data = readChecked<PolicyFile>(file, PolicyFileSchema);
    if (name !== `${data.region}.yaml` || (data.region !== FEDERAL && !regionByCode(data.region))) {
      throw new CatalogError(file, '/region', `must be ${FEDERAL} or the region code the file is named after (${name})`);
    }
    const prefix = `${data.region.toLowerCase()}-`;
    for (const [i, q] of (data.questions ?? []).entries()) {
      if (!q.id.startsWith(prefix)) throw new CatalogError(file, `/questions/${i}/id`, `must start with '${prefix}'`);
      if (q.locality !== undefined && data.region === FEDERAL) throw new CatalogError(file, `/questions/${i}/locality`, 'a locality question belongs to the file of its state');
      addQuestion(file, `/questions/${i}`, q);
    }
    return { file, data, prefix };
  });

  const policies: HandbookPolicy[] = [];
  const byId = new Map<string, HandbookPolicy>();
  const byRegion = new Map<string, HandbookPolicy[]>();
  for (const { file, data, prefix } of parsed) {
    const list: HandbookPolicy[] = [];
    for (const [i, definition] of data.policies.entries()) {
      const where = `/policies/${i}`;
      if (!definition.id.startsWith(prefix)) throw new CatalogError(file, `${where}/id`, `must start with '${prefix}'`);
      if (byId.has(definition.id)) throw new CatalogError(file, `${where}/id`, `duplicate policy id ${definition.id}`);
      if (definition.confidence === 'uncertain' && !definition.notes) throw new CatalogError(file, `${where}/notes`, 'say what is uncertain');
      for (const [j, id] of (definition.uses ?? []).entries()) {
        if (!questions.has(id)) throw new CatalogError(file, `${where}/uses/${j}`, `unknown handbook question '${id}'`);
      }
      for (const match of definition.body.matchAll(PLACEHOLDER)) {
        const name = match[1]!;
        const answer = /^answer:(.+)$/.exec(name)?.[1];
        if (name === 'company' || name === 'region') continue;
        if (answer === undefined) throw new CatalogError(file, `${where}/body`, `unknown placeholder {${name}} (use {company}, {region} or {answer:<question-id>})`);
        if (!definition.uses?.includes(answer)) throw new CatalogError(file, `${where}/body`, `{answer:${answer}} needs '${answer}' in uses`);
      }
      for (const [j, condition] of (definition.applies_when?.answers ?? []).entries()) {
        const question = questions.get(condition.question);
        if (!question) throw new CatalogError(file, `${where}/applies_when/answers/${j}/question`, `unknown handbook question '${condition.question}'`);
        if (!answerFits(question, condition.equals)) throw new CatalogError(file, `${where}/applies_when/answers/${j}/equals`, `not a valid answer to '${question.id}'`);
      }
      const locality = definition.applies_when?.in_locality;
      if (locality !== undefined && (!locality.startsWith(prefix) || questions.get(locality)?.locality === undefined)) {
        throw new CatalogError(file, `${where}/applies_when/in_locality`, `'${locality}' is not a locality question of this file`);
      }
      const policy = { ...definition, region: data.region };
      byId.set(policy.id, policy);
      list.push(policy);
    }
    byRegion.set(data.region, list);
    policies.push(...list);
  }
  return deepFreeze({ questions, policies, byRegion, policy: (id: string) => byId.get(id) });
}

/** The order policies appear in, within a handbook's section of one region. */
export const categoryRank = (category: string) => (POLICY_CATEGORIES as readonly string[]).indexOf(category);

/** Fills a policy body's placeholders; an answer not given yet reads as a visible blank. */
export function fillPolicyText(body: string, values: { company: string; regionName: string; answers: Readonly<Record<string, AnswerValue | undefined>>; questions: ReadonlyMap<string, HandbookQuestion> }): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'company') return values.company;
    if (name === 'region') return values.regionName;
    const id = /^answer:(.+)$/.exec(name)?.[1];
    if (id === undefined) return whole;
    const answer = values.answers[id];
    if (answer === undefined) return '____';
    const question = values.questions.get(id);
    if (question?.type === 'choice') return question.choices?.find((c) => c.value === answer)?.label ?? String(answer);
    if (question?.type === 'boolean') return answer ? 'yes' : 'no';
    return String(answer);
  });
}
