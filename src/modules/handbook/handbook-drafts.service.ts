import type { HandbookQuestion } from '../../catalog/handbook.schema.js';
import type { HandbookAnswer, PolicyChoice } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { answerAccepted, answerProblem } from './handbook.fns.js';
import { derive, repositoryOf, type HandbookDeps } from './handbook-reads.js';
import type { Problems } from './handbook.types.js';

/**
 * The owner's draft: the employee count of each state with employees, the answers to the builder's questions,
 * the include/skip choice of each optional policy. Each save is all or nothing; its problems name a region
 * code, a question id or a policy id.
 */
export interface HandbookDraftsService {
  /** Every employee state's count (by region code), through the locations service (its rules, its re-planning). */
  saveCounts(scope: AccessScope, counts: Readonly<Record<string, number>>): Promise<Problems>;
  /** Answers by question id: every question the builder asks needs an accepted answer. */
  saveAnswers(scope: AccessScope, answers: Readonly<Record<string, HandbookAnswer>>): Promise<Problems>;
  /** Choices by policy id: every optional policy that applies is adopted or skipped. */
  saveChoices(scope: AccessScope, choices: Readonly<Record<string, PolicyChoice>>): Promise<Problems>;
}

const MAX_COUNT = 1_000_000;

/** Why an employee count is refused (undefined: accepted). */
export const countProblem = (count: number | undefined): string | undefined =>
  count === undefined || !Number.isInteger(count) || count < 1 || count > MAX_COUNT
    ? 'Enter a whole number of employees, 1 or more.'
    : undefined;

/** Why a question has no accepted answer. */
export const missingAnswerProblem = (question: HandbookQuestion) =>
  question.type === 'text' ? 'Enter an answer.' : answerProblem(question);

export function createHandbookDraftsService(
  deps: Pick<HandbookDeps, 'db' | 'catalog' | 'locations' | 'repositoryFor'>,
): HandbookDraftsService {
  const repositoryFor = repositoryOf(deps);
  return {
    async saveCounts(scope, counts) {
      const { derivation } = await derive(deps, repositoryFor(deps.db), scope);
      const problems: Problems = {};
      for (const code of derivation.employeeRegions) {
        const problem = countProblem(counts[code]);
        if (problem) problems[code] = problem;
      }
      if (Object.keys(problems).length) return problems;
      const codes = derivation.employeeRegions;
      try {
        // All counts in one transaction and one re-planning: a refused state leaves every count as it was.
        await deps.locations.updateMany(scope, Object.fromEntries(codes.map((code) => [code, { employee_count: counts[code]! }])));
      } catch (error) {
        if (error instanceof InvalidInputError) return { [String(error.path[0])]: error.message };
        if (error instanceof ConflictError || error instanceof NotFoundError) return { [codes[0]!]: error.message };
        throw error;
      }
      return {};
    },

    async saveAnswers(scope, given) {
      const repo = repositoryFor(deps.db);
      const { draft, derivation } = await derive(deps, repo, scope);
      const problems: Problems = {};
      const answers: Record<string, HandbookAnswer> = { ...draft.answers };
      for (const question of derivation.questions) {
        const value = given[question.id];
        if (value === undefined) problems[question.id] = missingAnswerProblem(question);
        else if (!answerAccepted(question, value)) problems[question.id] = answerProblem(question);
        else answers[question.id] = value;
      }
      if (Object.keys(problems).length) return problems;
      await repo.saveDraft(scope.legalEntityId, { answers, choices: draft.choices });
      return {};
    },

    async saveChoices(scope, given) {
      const repo = repositoryFor(deps.db);
      const { draft, derivation } = await derive(deps, repo, scope);
      const problems: Problems = {};
      const choices: Record<string, PolicyChoice> = { ...draft.choices };
      for (const { policy } of derivation.applicable.filter((a) => a.policy.adoption === 'optional')) {
        const value = given[policy.id];
        if (value === 'adopt' || value === 'skip') choices[policy.id] = value;
        else problems[policy.id] = `Choose whether to include “${policy.title}”.`;
      }
      if (Object.keys(problems).length) return problems;
      await repo.saveDraft(scope.legalEntityId, { answers: draft.answers, choices });
      return {};
    },
  };
}
